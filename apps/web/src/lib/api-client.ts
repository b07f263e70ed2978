import type { z } from 'zod';
import { sendOk } from './http';

export { ApiError, isApiError } from './api-error';

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
  const response = await sendOk(url, init);
  if (response.status === 204) return schema.parse(undefined);
  return schema.parse(await response.json());
}

export const api = {
  get: <T extends z.ZodType>(schema: T, url: string, options?: RequestOptions) =>
    request(schema, url, { ...options, method: 'GET' }),
  post: <T extends z.ZodType>(schema: T, url: string, body?: unknown, options?: RequestOptions) =>
    request(schema, url, { ...options, method: 'POST', body }),
  put: <T extends z.ZodType>(schema: T, url: string, body?: unknown, options?: RequestOptions) =>
    request(schema, url, { ...options, method: 'PUT', body }),
  patch: <T extends z.ZodType>(schema: T, url: string, body?: unknown, options?: RequestOptions) =>
    request(schema, url, { ...options, method: 'PATCH', body }),
  delete: <T extends z.ZodType>(schema: T, url: string, options?: RequestOptions) =>
    request(schema, url, { ...options, method: 'DELETE' }),
};
