import { ErrorResponse } from '@atrium/contracts';
import { ApiError } from './api-error';
import type { z } from 'zod';

export { ApiError, isApiError } from './api-error';

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = ErrorResponse.safeParse(JSON.parse(text));
    if (parsed.success) {
      const { code, message, details } = parsed.data.error;
      return new ApiError(response.status, code, message, details);
    }
  } catch {
    // not JSON: fall through
  }
  return new ApiError(response.status, 'HTTP_ERROR', text.trim() || `Request failed with status ${response.status}`);
}

export interface RequestOptions extends Omit<RequestInit, 'body'> {
  body?: unknown;
}

/** fetch + the project's error shape + response validation against a contracts schema. */
export async function request<T extends z.ZodType>(
  schema: T,
  url: string,
  options: RequestOptions = {},
): Promise<z.infer<T>> {
  const { body, headers, ...rest } = options;
  const init: RequestInit = {
    credentials: 'same-origin',
    ...rest,
    headers: {
      accept: 'application/json',
      ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
  };
  if (body !== undefined) init.body = body instanceof FormData ? body : JSON.stringify(body);
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Please check your connection.');
  }
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return schema.parse(undefined);
  return schema.parse(await response.json());
}

export const api = {
  get: <T extends z.ZodType>(schema: T, url: string, options?: RequestOptions) =>
    request(schema, url, { ...options, method: 'GET' }),
  post: <T extends z.ZodType>(schema: T, url: string, body?: unknown, options?: RequestOptions) =>
    request(schema, url, { ...options, method: 'POST', body }),
  delete: <T extends z.ZodType>(schema: T, url: string, options?: RequestOptions) =>
    request(schema, url, { ...options, method: 'DELETE' }),
};
