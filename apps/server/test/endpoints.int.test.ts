import { ENDPOINTS, type Endpoint } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

/**
 * The endpoint table (`ENDPOINTS` in contracts) is what the web calls, and the server's API routes are registered
 * from it (`plugins/route.ts`): every endpoint in it is served with its declared method, path and schemas (the same
 * objects), and every API route is one of its endpoints, so the two sides cannot drift.
 */
describe('the endpoint table', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  /** Every endpoint of the table, however deep its group, with its dotted name. */
  const flatten = (group: Record<string, unknown>, prefix: string): { name: string; endpoint: Endpoint }[] =>
    Object.entries(group).flatMap(([name, value]) => {
      const item = value as Endpoint | Record<string, unknown>;
      return 'method' in item && 'path' in item
        ? [{ name: `${prefix}${name}`, endpoint: item as Endpoint }]
        : flatten(item as Record<string, unknown>, `${prefix}${name}.`);
    });
  const declared = flatten(ENDPOINTS, '');

  /**
   * API routes that are not the web's endpoints: the tus upload protocol (its own methods and headers on one path,
   * answered by the tus server) and the API docs (the OpenAPI plugin's).
   */
  const OUTSIDE_THE_TABLE = [/^\/api\/files\/tus(\/|$)/, /^\/api\/docs(\/|$)/];

  it('lists endpoints at all, each once', () => {
    expect(declared.length).toBeGreaterThan(5);
    const keys = declared.map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(declared)('serves $name with its declared method, path and schemas', ({ endpoint }) => {
    const route = server.app.routeTable.find((r) => r.method === endpoint.method && r.url === endpoint.path);
    expect(route, `${endpoint.method} ${endpoint.path} is not registered`).toBeDefined();
    expect(route?.endpoint).toBe(endpoint);
    expect(route?.schema?.params).toBe(endpoint.params);
    expect(route?.schema?.querystring).toBe(endpoint.query);
    expect(route?.schema?.body).toBe(endpoint.body);
    expect(route?.schema?.response?.[endpoint.status ?? 200]).toBe(endpoint.response);
  });

  it('registers every API route from an endpoint of the table', () => {
    const tabled = new Set(declared.map(({ endpoint }) => endpoint));
    const apiRoutes = server.app.routeTable.filter(
      (r) =>
        /^\/(api|public\/api)(\/|$)/.test(r.url) &&
        r.method !== 'HEAD' &&
        !OUTSIDE_THE_TABLE.some((outside) => outside.test(r.url)),
    );
    expect(apiRoutes.length).toBeGreaterThanOrEqual(declared.length);
    const untabled = apiRoutes.filter((r) => !r.endpoint || !tabled.has(r.endpoint));
    expect(untabled.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    // Through the helper, a route's method and path are its entry's.
    const moved = apiRoutes.filter((r) => r.method !== r.endpoint?.method || r.url !== r.endpoint.path);
    expect(moved.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});
