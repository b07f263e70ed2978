import type { z } from 'zod';
import { fillPath } from './fill-path';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP endpoint, declared once: the server registers its route from it (`route()`, apps/server/src/plugins/route.ts:
 * method, path and these schemas), the web calls it with `call(endpoint, …)`, which fills in the path and validates the
 * answer with `response`.
 */
export interface Endpoint {
  method: HttpMethod;
  /** The path, with `:name` parameters (Fastify's syntax), e.g. `/api/trash/:id/restore`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The JSON answer of a success; none for an endpoint that answers bytes (a download, a thumbnail, a zip). */
  response?: z.ZodType;
  /** Its status, when not 200. */
  status?: 201 | 202;
}

/** Declares an endpoint, keeping its exact schema types. */
export const endpoint = <const E extends Endpoint>(declared: E): E => declared;

/** A query's values as a URL carries them (undefined, null and '' are left out). */
export type QueryValues = Record<string, string | number | boolean | null | undefined>;

/** The path of `declared` with its parameters filled in (each encoded) and `query` appended. */
export function endpointPath(
  declared: Pick<Endpoint, 'path'>,
  params: Record<string, string> = {},
  query: QueryValues = {},
) {
  const path = fillPath(declared.path, params);
  const text = Object.entries(query)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return text ? `${path}?${text}` : path;
}
