import { ErrorResponse, type Endpoint } from '@atrium/contracts';
import type {
  ContextConfigDefault,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
  RouteShorthandOptionsWithHandler,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import './access';

/** The statuses a route may answer with the project's error shape (`ErrorResponse`). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 503;

type Field<E, K extends string> = E extends { readonly [P in K]: infer S extends z.ZodType } ? S : undefined;
type SuccessStatus<E> = E extends { readonly status: infer S extends number } ? S : 200;

type Answers = Record<number, z.ZodType>;
type Headers = z.ZodType | undefined;

/**
 * The Fastify schema a table entry stands for, as types (so request and answer keep their zod types), with the
 * route's own request headers `H` and other answers `X`.
 */
export type SchemaOf<E extends Endpoint, H extends Headers, X extends Answers> = {
  params: Field<E, 'params'>;
  querystring: Field<E, 'query'>;
  body: Field<E, 'body'>;
  headers: H;
  response: E extends { readonly response: infer R extends z.ZodType } ? Record<SuccessStatus<E>, R> & X : X;
};

type Options<E extends Endpoint, H extends Headers, X extends Answers> = RouteShorthandOptionsWithHandler<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<E, H, X>,
  ZodTypeProvider
>;

/** What a route adds to its table entry: who may call it, its docs, its error answers, Fastify's options. */
export interface RouteDeclaration<E extends Endpoint, H extends Headers, X extends Answers> extends Omit<
  Options<E, H, X>,
  'schema'
> {
  tags: string[];
  summary: string;
  description?: string;
  /** Answered with `ErrorResponse`. */
  errors?: readonly ErrorStatus[];
  /** Other answers with their own schema (e.g. a readiness 503 that carries the checks). */
  responses?: X;
  /** Left out of the API docs. */
  hide?: boolean;
  /** The body's media types, for the API docs. */
  consumes?: string[];
  /** Request headers, validated. */
  headers?: H;
}

/**
 * Registers the route of one endpoint table entry (`ENDPOINTS` in contracts, docs/ARCHITECTURE.md#server-layers): its
 * method, path, params, query, body and success answer come from the entry, so the routes are the table by
 * construction; the route adds its access (`config`), docs, error statuses and handler. The only way modules declare
 * routes (lint).
 */
export function route<
  const E extends Endpoint,
  H extends Headers = undefined,
  X extends Answers = Record<never, never>,
>(app: FastifyInstance, entry: E, declared: RouteDeclaration<E, H, X>) {
  const { tags, summary, description, errors = [], responses, hide, consumes, headers, ...options } = declared;
  const response = {
    ...(entry.response ? { [entry.status ?? 200]: entry.response } : {}),
    ...Object.fromEntries([...accessErrors(options.config), ...errors].map((status) => [status, ErrorResponse])),
    ...responses,
  };
  const schema = {
    tags,
    summary,
    ...(description === undefined ? {} : { description }),
    ...(hide === undefined ? {} : { hide }),
    ...(consumes === undefined ? {} : { consumes }),
    ...(entry.params ? { params: entry.params } : {}),
    ...(entry.query ? { querystring: entry.query } : {}),
    ...(entry.body ? { body: entry.body } : {}),
    ...(headers ? { headers } : {}),
    ...(Object.keys(response).length > 0 ? { response } : {}),
  };
  app.withTypeProvider<ZodTypeProvider>().route({
    ...(options as object),
    method: entry.method,
    url: entry.path,
    config: { ...options.config, endpoint: entry },
    schema,
    handler: options.handler as RouteHandlerMethod,
  });
}

/**
 * The refusals a route's access declaration brings (the access plugin answers them before the handler runs): 401
 * for signed-in routes, and 403 too for an admin capability. Declared once here, not on every route.
 */
function accessErrors(config: RouteShorthandOptions['config']): ErrorStatus[] {
  const access = (config as { access?: string } | undefined)?.access;
  return access === 'admin' ? [401, 403] : access === 'user' ? [401] : [];
}

/** What the routes of a module share: who may call them, their docs' tags, their error statuses. */
export interface SharedDeclaration {
  config?: RouteShorthandOptions['config'];
  tags?: string[];
  errors?: readonly ErrorStatus[];
}

/**
 * `route` bound to an instance and to what its routes share (given once, not on every route); a route's own
 * `config` and `tags` replace the shared ones, its `errors` add to them.
 */
export function routesOf(app: FastifyInstance, shared: SharedDeclaration) {
  return <const E extends Endpoint, H extends Headers = undefined, X extends Answers = Record<never, never>>(
    entry: E,
    declared: Omit<RouteDeclaration<E, H, X>, 'tags'> & { tags?: string[] },
  ) =>
    route(app, entry, {
      ...shared,
      ...declared,
      tags: declared.tags ?? shared.tags ?? [],
      errors: [...(shared.errors ?? []), ...(declared.errors ?? [])],
    } as RouteDeclaration<E, H, X>);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The table entry the route was registered from (set by `route`; the endpoint-table test reads it). */
    endpoint?: Endpoint;
  }
}
