import { endpointPath, type Endpoint, type QueryValues } from '@atrium/contracts/endpoint';
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

/** What a call to an endpoint passes: its path parameters and body where it has them, its query where it takes one. */
export type CallInput<E extends Endpoint> = (E extends { params: z.ZodType }
  ? { params: z.input<E['params']> }
  : unknown) &
  (E extends { query: z.ZodType }
    ? { query?: Partial<Record<keyof z.input<E['query']>, QueryValues[string]>> }
    : unknown) &
  (E extends { body: z.ZodType } ? { body: z.input<E['body']> } : unknown);

/**
 * Calls an endpoint of the endpoint table (`ENDPOINTS` in contracts): its method, its path with the parameters
 * filled in and the query appended, the body as JSON; the answer validated with its response schema.
 */
export function call<E extends Endpoint & { response: z.ZodType }>(
  declared: E,
  ...[input, options]: E extends { params: z.ZodType } | { body: z.ZodType }
    ? [input: CallInput<E>, options?: Omit<RequestOptions, 'body' | 'method'>]
    : [input?: CallInput<E>, options?: Omit<RequestOptions, 'body' | 'method'>]
): Promise<z.infer<E['response']>> {
  const { params, query, body } = (input ?? {}) as {
    params?: Record<string, string>;
    query?: QueryValues;
    body?: unknown;
  };
  return request<E['response']>(declared.response, endpointPath(declared, params, query), {
    ...options,
    method: declared.method,
    ...(body === undefined ? {} : { body }),
  });
}
