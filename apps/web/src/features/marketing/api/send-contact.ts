import type { ContactCreated, ContactRequest } from '@atrium/contracts';
import { ApiError } from '../../../lib/api-error';

/**
 * POST /api/contact. Plain fetch (no zod) so the public pages stay light;
 * failures carry the server's code, message and field details.
 */
export async function sendContactMessage(message: ContactRequest): Promise<ContactCreated> {
  let response: Response;
  try {
    response = await fetch('/api/contact', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(message),
    });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Please check your connection.');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string; details?: ApiError['details'] } } | null)
      ?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'HTTP_ERROR',
      error?.message ?? `Request failed with status ${response.status}`,
      error?.details,
    );
  }
  return body as ContactCreated;
}
