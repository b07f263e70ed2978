import { ENDPOINTS, type Endpoint } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

/**
 * The endpoint table (`ENDPOINTS` in contracts) is what the web calls: every endpoint in it must be served with its
 * declared method and path, and validated with its declared schemas (the same objects), or the two sides drift.
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

  it('lists endpoints at all, each once', () => {
    expect(declared.length).toBeGreaterThan(5);
    const keys = declared.map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(declared)('serves $name with its declared method, path and schemas', ({ endpoint }) => {
    const route = server.app.routeTable.find((r) => r.method === endpoint.method && r.url === endpoint.path);
    expect(route, `${endpoint.method} ${endpoint.path} is not registered`).toBeDefined();
    expect(route?.schema?.params).toBe(endpoint.params);
    expect(route?.schema?.querystring).toBe(endpoint.query);
    expect(route?.schema?.body).toBe(endpoint.body);
    expect(route?.schema?.response?.[endpoint.status ?? 200]).toBe(endpoint.response);
  });
});
