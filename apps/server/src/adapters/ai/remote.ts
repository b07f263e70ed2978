import type { AiServiceName } from '@atrium/contracts';
import { AppError } from '../../errors';
import { serviceLabel } from './errors';

/**
 * Calls a remote AI provider and turns its failures into AppErrors the
 * browser can act on. Keys travel only in the headers of this server-side
 * call; messages never echo them.
 */
export async function callUpstream(
  service: AiServiceName,
  provider: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      throw new AppError('TIMEOUT', `${serviceLabel(service)} (${provider}) took too long. Please try again.`, {
        cause: error,
      });
    }
    throw new AppError('UPSTREAM_FAILED', `${serviceLabel(service)}: the ${provider} provider could not be reached.`, {
      cause: error,
    });
  }
  if (response.ok) return response;
  const detail = await upstreamMessage(response);
  const label = serviceLabel(service);
  switch (response.status) {
    case 400:
      throw new AppError('INVALID_MEDIA', detail ?? `${label}: the ${provider} provider could not read the input.`);
    case 413:
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        detail ?? `${label}: the input is too large for the ${provider} provider.`,
      );
    case 415:
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        detail ?? `${label}: the ${provider} provider does not accept this format.`,
      );
    case 429:
      throw new AppError('SERVICE_UNAVAILABLE', `${label} is busy. Please try again in a moment.`, {
        headers: { 'retry-after': response.headers.get('retry-after') ?? '5' },
      });
    case 401:
    case 403:
      throw new AppError('UPSTREAM_FAILED', `${label}: the ${provider} provider refused this server's credentials.`);
    default:
      throw new AppError('UPSTREAM_FAILED', `${label}: the ${provider} provider answered ${response.status}.`);
  }
}

/** Azure and OpenAI both answer `{ error: { message } }`; other servers may send text. */
async function upstreamMessage(response: Response): Promise<string | undefined> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === 'object'
        ? parsed.error.message
        : typeof parsed.error === 'string'
          ? parsed.error
          : parsed.message;
    if (typeof message === 'string' && message) return message.slice(0, 300);
  } catch {
    // not JSON
  }
  return undefined;
}

/** Parses a JSON answer, failing with UPSTREAM_FAILED when it is not the expected shape. */
export async function upstreamJson<T>(
  response: Response,
  parse: (value: unknown) => { success: true; data: T } | { success: false },
  what: string,
): Promise<T> {
  const value: unknown = await response.json().catch(() => undefined);
  const parsed = parse(value);
  if (!parsed.success) throw new AppError('UPSTREAM_FAILED', `${what}: the provider's answer was not understood.`);
  return parsed.data;
}
