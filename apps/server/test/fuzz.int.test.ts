import http from 'node:http';
import { ErrorResponse } from '@atrium/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createBrowser, formAction } from './browser';
import { makeWav } from './fake-ai';
import { startTestServer, uploadFile, type TestServer } from './helpers';

/**
 * Malformed input on every route of the OpenAPI document (/api/docs), called as an admin
 * and as a user (API-key routes with an API key), plus hand-written cases for the
 * parsers that do not show in the document (multipart, WAV headers, tus, the dev
 * provider's login form). Every answer must be below 500, carry no stack trace or
 * source path, use the JSON error shape on 4xx under /api and /public/api, and the
 * server must still be alive afterwards. It runs once, on SQLite, in well under a minute.
 */

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

interface FuzzRequest {
  name: string;
  method: string;
  /** Sent as is: already percent-encoded where it has to be, `..` kept. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}
interface Answer {
  status: number;
  contentType: string;
  location?: string;
  body: string;
}

const LIMIT_ENV = {
  // High limits, so the fuzzer reaches the parsers instead of the rate limiters.
  LOGIN_MAX_FAILURES_PER_IP: '1000000',
  LOGIN_MAX_FAILURES_PER_USERNAME: '1000000',
  CONTACT_MAX_PER_HOUR: '1000000',
  AI_VOICE_COMMANDS_PER_MINUTE: '1000000',
};

const server: TestServer = await startTestServer({ env: LIMIT_ENV });
const doc = (await (await server.fetch('/api/docs')).json()) as OpenApiDocument;
afterAll(async () => {
  // A request still hanging is reported by the last test; do not wait for it here.
  server.app.server.closeAllConnections();
  await server.close();
});

/** One raw HTTP exchange: no URL normalisation, any method, any bytes; event streams are cut after the headers. */
function send(request: FuzzRequest): Promise<Answer> {
  const target = new URL(server.url);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.path,
        agent: false,
        headers: {
          ...(body ? { 'content-length': String(body.length) } : {}),
          ...request.headers,
        },
        timeout: 20_000,
      },
      (response) => {
        const contentType = String(response.headers['content-type'] ?? '');
        const status = response.statusCode ?? 0;
        if (contentType.startsWith('text/event-stream')) {
          response.destroy();
          resolve({ status, contentType, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        const location = response.headers.location;
        response.on('end', () =>
          resolve({ status, contentType, location, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 20 s')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const STACK_TRACE =
  /\n\s+at |\bat [\w$.<>]+ \(|node_modules|(?:^|[\s("'])\/(?:[\w.@-]+\/)+[\w.-]+\.(?:ts|js|mjs|cjs)\b/;
const isApi = (path: string) => /^\/(api|public\/api)(\/|$|\?)/.test(path);

/** What is wrong with an answer, or undefined when it is acceptable. */
function problemWith(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.body.slice(0, 300)}`;
  if (STACK_TRACE.test(answer.body)) return `leaks a stack trace or source path: ${answer.body.slice(0, 300)}`;
  if (isApi(request.path) && answer.status >= 400 && request.method !== 'HEAD') {
    if (!answer.contentType.startsWith('application/json')) return `4xx as ${answer.contentType || 'no type'}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      return `4xx body is not JSON: ${answer.body.slice(0, 200)}`;
    }
    if (!ErrorResponse.safeParse(parsed).success)
      return `4xx body is not the error shape: ${answer.body.slice(0, 200)}`;
  }
  return undefined;
}

/** Sends every request (a few at a time) and lists the ones answered badly. */
async function failuresOf(requests: FuzzRequest[], exchange = send): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++] as FuzzRequest;
      try {
        const problem = problemWith(request, await exchange(request));
        if (problem) failures.push(`${request.method} ${request.path.slice(0, 120)} [${request.name}]: ${problem}`);
      } catch (error) {
        failures.push(`${request.method} ${request.path.slice(0, 120)} [${request.name}]: ${String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return failures;
}

// --- values generated from the schemas -------------------------------------------------------

/** Marks a raw JSON token (1e999, -0) that JSON.stringify cannot write. */
const raw = (token: string) => `\u0001raw:${token}\u0001`;
const toJson = (value: unknown) => JSON.stringify(value).replace(/"\\u0001raw:([^\\]+)\\u0001"/g, '$1');

const resolve = (schema: JsonSchema | undefined): JsonSchema => {
  const name = schema?.$ref?.split('/').at(-1);
  return (name ? doc.components.schemas[name] : schema) ?? {};
};
const typeOf = (schema: JsonSchema) => [schema.type].flat()[0] ?? (schema.properties ? 'object' : 'string');

/** A value the schema accepts (close enough: the other fields of a case must not be the ones refused). */
function validValue(input: JsonSchema | undefined): unknown {
  const schema = resolve(input);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, property]) => [key, validValue(property)]),
      );
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      // Every URL the fuzzer hands out points at a closed loopback port.
      return schema.format === 'uri' ? 'https://127.0.0.1:9/fuzz' : 'fuzz value';
  }
}

/** Values of the wrong type, out of range, huge or strange, for one field. */
function wrongValues(input: JsonSchema): [string, unknown][] {
  const schema = resolve(input);
  const type = typeOf(schema);
  const common: [string, unknown][] = [
    ['null', null],
    ['object', { nested: { deeper: [1, 2, 3] } }],
    ['array', ['a', 1, null]],
    ['boolean', true],
  ];
  if (type === 'integer' || type === 'number') {
    return [
      ...common,
      ['string', 'forty-two'],
      ['infinity', raw('1e999')],
      ['huge', raw('123456789012345678901234567890')],
      ['negative', -1],
      ['fraction', 0.5],
      ['minus zero', raw('-0')],
      ['above maximum', (schema.maximum ?? 1e9) + 1],
    ];
  }
  if (type === 'object')
    return [...common.filter(([name]) => name !== 'object'), ['string', 'not an object'], ['number', 7]];
  return [
    ...common,
    ['number', 12345],
    ['empty', ''],
    ['blank', ' \t\n '],
    ['over maxLength', 'x'.repeat((schema.maxLength ?? 10_000) + 1)],
    ['huge string', 'y'.repeat(200_000)],
    ['NUL', 'a\u0000b'],
    ['lone surrogate', 'a\ud800b'],
    ['unicode', 'ä☃💥\u202e\u200b 日本語 ﷽'],
    ['control characters', '\u0001\u0007\u001b[31m\r\n'],
    ['path traversal', '../../../../etc/passwd'],
  ];
}

/** Bodies that break JSON or its framing, for every route (GET routes ignore them, which must be harmless). */
function bodyCases(): Omit<FuzzRequest, 'method' | 'path'>[] {
  const json = { 'content-type': 'application/json' };
  return [
    { name: 'invalid JSON', headers: json, body: '{"a": ' },
    { name: 'JSON with a NUL byte', headers: json, body: '{"a":"\u0000"}\u0000' },
    { name: 'empty JSON', headers: json, body: '' },
    { name: 'JSON null', headers: json, body: 'null' },
    { name: 'JSON array', headers: json, body: '[1,2,3]' },
    { name: 'JSON string', headers: json, body: '"text"' },
    { name: 'deeply nested arrays', headers: json, body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
    { name: 'deeply nested objects', headers: json, body: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}` },
    {
      name: 'prototype pollution',
      headers: json,
      body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{}}}',
    },
    { name: 'over the body limit', headers: json, body: `{"a":"${'z'.repeat(2 * 1024 * 1024)}"}` },
    { name: 'unknown charset', headers: { 'content-type': 'application/json; charset=utf-1337' }, body: '{}' },
    { name: 'text/plain', headers: { 'content-type': 'text/plain' }, body: 'hello there' },
    {
      name: 'xml',
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
    },
    { name: 'form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=%zz&c' },
    { name: 'multipart without boundary', headers: { 'content-type': 'multipart/form-data' }, body: '--x\r\n\r\n' },
    {
      name: 'garbage bytes',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from([0, 255, 254, 1, 2, 3, 0x1f, 0x8b]),
    },
    {
      name: 'garbage as WAV',
      headers: { 'content-type': 'audio/wav' },
      body: Buffer.from('RIFF\u0000\u0000\u0000\u0000WAVEjunk'),
    },
    {
      name: 'garbage as JPEG',
      headers: { 'content-type': 'image/jpeg' },
      body: Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2]),
    },
    { name: 'invalid content-type', headers: { 'content-type': '\u00ff;;;=' }, body: '{}' },
  ];
}

/** Requests-without-body cases on the query string and headers, for every route. */
const QUERY_CASES: [string, string][] = [
  ['NUL in the query', 'zz=%00'],
  ['invalid percent-encoding', 'zz=%zz&yy=%'],
  ['huge query value', `zz=${'q'.repeat(6000)}`],
  ['unicode query', 'zz=%E2%98%83%F0%9F%92%A5%ED%A0%80'],
  ['repeated and bracketed keys', 'zz=1&zz=2&zz[]=3&__proto__[polluted]=1&constructor[prototype][x]=1'],
];
const HEADER_CASES: [string, Record<string, string>][] = [
  ['garbage session cookie', { cookie: 'atrium_session=%00%ff%; atrium_session=x; =;' }],
  [
    'strange accept and range',
    { accept: 'application/xml;q=abc, */*;q=-1', range: 'bytes=9-1,-0,abc', 'if-none-match': '"\u00ff' },
  ],
  ['huge request id', { 'x-request-id': 'r'.repeat(4000), 'last-event-id': '9'.repeat(300) }],
];
const PATH_VALUES: [string, string][] = [
  ['dot-dot', '..'],
  ['encoded traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['NUL', '%00'],
  ['invalid percent-encoding', '%E0%A4%A'],
  ['overlong', 'p'.repeat(6000)],
  ['unicode', '%E2%98%83%F0%9F%92%A5'],
  ['encoded slash and backslash', 'a%2Fb%5Cc'],
  ['blank', '%20'],
];
const QUERY_VALUES: [string, string][] = [
  ['empty', ''],
  ['not a number', 'abc'],
  ['negative', '-1'],
  ['huge number', '99999999999999999999999'],
  ['infinity', '1e999'],
  ['NUL', '%00'],
  ['overlong', 'v'.repeat(5000)],
  ['repeated', 'a&{name}=b'],
];

interface Caller {
  name: string;
  headers: Record<string, string>;
}

/**
 * Every case for one operation of the document, as one caller; `fields`: also the cases
 * generated field by field from its JSON body schema.
 */
function casesFor(
  method: string,
  template: string,
  operation: Operation,
  caller: Caller,
  fields: boolean,
): FuzzRequest[] {
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const queryParams = parameters.filter((p) => p.in === 'query');
  const base = (values: Record<string, string> = {}) =>
    template.replace(
      /\{([^}]+)\}/g,
      (_match, name: string) => values[name] ?? (name === 'userId' ? caller.name : 'fuzz-id'),
    );
  const upper = method.toUpperCase();
  const at = (name: string, path: string, extra: Partial<FuzzRequest> = {}): FuzzRequest => ({
    name,
    method: upper,
    path,
    ...extra,
    headers: { ...caller.headers, ...extra.headers },
  });

  const requests: FuzzRequest[] = [];
  for (const name of pathParams)
    for (const [label, value] of PATH_VALUES) requests.push(at(`path ${name}: ${label}`, base({ [name]: value })));
  for (const param of queryParams)
    for (const [label, value] of QUERY_VALUES)
      requests.push(
        at(`query ${param.name}: ${label}`, `${base()}?${param.name}=${value.replace('{name}', param.name)}`),
      );
  for (const [label, query] of QUERY_CASES) requests.push(at(label, `${base()}?${query}`));
  for (const [label, headers] of HEADER_CASES) requests.push(at(label, base(), { headers }));
  // Fastify does not read bodies on GET: a few bodies there are enough to show they are harmless.
  const bodies = upper === 'GET' ? bodyCases().slice(0, 6) : bodyCases();
  for (const body of bodies) requests.push(at(body.name, base(), body));
  requests.push(at('wrong method', base(), { method: 'PUT' }), at('trailing dot-dot', `${base()}/..`));

  const schema = operation.requestBody?.content['application/json']?.schema ?? BODY_SCHEMAS[`${upper} ${template}`];
  if (schema && fields) {
    const bodySchema = resolve(schema);
    const valid = validValue(bodySchema) as Record<string, unknown>;
    const json = { 'content-type': 'application/json' };
    requests.push(at('body: no fields', base(), { headers: json, body: '{}' }));
    for (const field of bodySchema.required ?? []) {
      const { [field]: _missing, ...rest } = valid;
      requests.push(at(`body: ${field} missing`, base(), { headers: json, body: toJson(rest) }));
    }
    for (const [field, property] of Object.entries(bodySchema.properties ?? {}))
      for (const [label, value] of wrongValues(property))
        requests.push(
          at(`body ${field}: ${label}`, base(), { headers: json, body: toJson({ ...valid, [field]: value }) }),
        );
    requests.push(
      at('body: extra huge field', base(), { headers: json, body: toJson({ ...valid, extra: 'e'.repeat(300_000) }) }),
    );
  }
  return requests;
}

/** JSON bodies that routes parse themselves (so the document shows no requestBody for them). */
const BODY_SCHEMAS: Record<string, JsonSchema> = {
  'POST /api/ai/text-to-speech': { $ref: '#/components/schemas/TextToSpeechRequestInput' },
  'POST /v1/audio/speech': { $ref: '#/components/schemas/OpenAiSpeechRequestInput' },
};

const ACCESS_BY_ROUTE = new Map(
  server.app.routeTable.map((route) => [`${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`, route.access]),
);
const admin = await server.signInAs({ owner_key: 'fuzz-admin', role: 'admin' });
const apiKey = (
  (await (
    await server.fetch('/api/ai/keys', {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fuzz' }),
    })
  ).json()) as { key: string }
).key;

const operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ method, template, operation })),
);

describe('fuzzing every route of the OpenAPI document', () => {
  it('covers the document', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.map((o) => `${o.method} ${o.template}`)).toEqual(
      expect.arrayContaining([
        'post /api/auth/login',
        'post /api/files/upload',
        'post /api/contact',
        // Consent to membership (docs/PRODUCT.md#workspace-members).
        'post /api/workspaces/{id}/membership/accept',
        'post /api/workspaces/{id}/membership/decline',
        'get /api/admin/settings',
        'put /api/admin/settings',
      ]),
    );
  });

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.template}`, o] as const))(
    '%s: no 5xx, no stack trace, JSON errors',
    async (_label, { method, template, operation }) => {
      const access = ACCESS_BY_ROUTE.get(`${method.toUpperCase()} ${template}`);
      // Fresh sessions for each route: a fuzzed logout must not spoil the next route's cases.
      const callers: Caller[] =
        access === 'apikey'
          ? [
              { name: 'fuzz-key', headers: { authorization: `Bearer ${apiKey}` } },
              { name: 'fuzz-key', headers: { 'ocp-apim-subscription-key': apiKey } },
            ]
          : [
              {
                name: 'fuzz-admin',
                headers: { cookie: await server.signInAs({ owner_key: 'fuzz-admin', role: 'admin' }) },
              },
              { name: 'fuzz-user', headers: { cookie: await server.signInAs({ owner_key: 'fuzz-user' }) } },
            ];
      // On a public route the caller changes nothing: the field-by-field cases run once.
      const perCaller = callers.map((caller, index) =>
        casesFor(method, template, operation, caller, access !== 'public' || index === 0),
      );
      for (const cases of perCaller) expect(cases.length).toBeGreaterThanOrEqual(15);
      expect(await failuresOf(perCaller.flat())).toEqual([]);
    },
  );
});

describe('an empty path parameter', () => {
  /** Every table's rows (SQLite), but for the ones any request touches (sessions, counters, leases). */
  const snapshot = async (): Promise<Record<string, unknown[]>> => {
    const { db } = server.app.database;
    const tables = await db.introspection.getTables();
    const state: Record<string, unknown[]> = {};
    for (const { name } of tables) {
      if (['sessions', 'rate_limits', 'auth_failures', 'job_leases'].includes(name) || name.startsWith('kysely_'))
        continue;
      state[name] = await db
        .selectFrom(name as 'users')
        .selectAll()
        .execute();
    }
    return state;
  };

  it('is no route on any route of the table: 4xx in the JSON error shape, and nothing changes', async () => {
    const withParams = server.app.routeTable.filter((route) => /:\w+/.test(route.url));
    expect(withParams.length).toBeGreaterThan(40);
    const cookies = {
      admin: await server.signInAs({ owner_key: 'fuzz-admin', role: 'admin' }),
      user: await server.signInAs({ owner_key: 'fuzz-empty' }),
    };
    // Something in the caller's trash, in a folder, and shared: a request that acted would change it.
    for (const name of ['trashed.txt', 'kept.txt']) {
      const uploaded = await uploadFile(server, cookies.user, '?userId=fuzz-empty', name, 'content');
      expect(uploaded.status).toBe(200);
      const { id } = (await uploaded.json()) as { id: string };
      if (name === 'trashed.txt')
        expect(
          (await server.fetch(`/api/files/user/${id}`, { method: 'DELETE', headers: { cookie: cookies.user } })).status,
        ).toBe(200);
    }
    const before = await snapshot();
    const requests: FuzzRequest[] = withParams.flatMap((route) => {
      const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
      return names.flatMap((empty) =>
        Object.entries(cookies).map(([caller, cookie]) => ({
          name: `${caller}, ${empty} empty`,
          method: route.method,
          path: route.url.replace(/:(\w+)/g, (_match, name: string) =>
            name === empty ? '' : name === 'userId' ? 'fuzz-empty' : 'fuzz-id',
          ),
          headers: { cookie, 'content-type': 'application/json' },
          body: route.method === 'GET' || route.method === 'HEAD' ? undefined : '{}',
        })),
      );
    });
    const acted: string[] = [];
    const answered = async (request: FuzzRequest): Promise<Answer> => {
      const answer = await send(request);
      if (answer.status < 400 || answer.status >= 500)
        acted.push(`${request.method} ${request.path} [${request.name}]: ${answer.status}`);
      return answer;
    };
    expect(await failuresOf(requests, answered)).toEqual([]);
    expect(acted).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

// --- hand-written cases ----------------------------------------------------------------------

const filePart = (boundary: string, name: string, content: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${content}\r\n`;

/** A WAV whose header is rewritten: byte rate, data size. */
function lyingWav(edit: (wav: Buffer) => void): Buffer {
  const wav = Buffer.from(makeWav(0.5));
  edit(wav);
  return wav;
}

describe('hand-written malformed input', () => {
  const userCookie = () => server.signInAs({ owner_key: 'fuzz-hand' });

  it('malformed multipart on /api/files/upload', async () => {
    const cookie = await userCookie();
    const b = 'fuzzboundary';
    const upload = (name: string, body: string, contentType = `multipart/form-data; boundary=${b}`): FuzzRequest => ({
      name,
      method: 'POST',
      path: '/api/files/upload?userId=fuzz-hand',
      headers: { cookie, 'content-type': contentType },
      body,
    });
    const good = `${filePart(b, 'a.txt', 'hello')}--${b}--\r\n`;
    expect(
      await failuresOf([
        upload('missing boundary', good, 'multipart/form-data'),
        upload('boundary mismatch', good, 'multipart/form-data; boundary=otherboundary'),
        upload('garbage body', '\u0000\u00ff garbage \r\n--'),
        upload('truncated part', good.slice(0, good.length - 20)),
        upload('no closing boundary', filePart(b, 'a.txt', 'hi')),
        upload('empty body', ''),
        upload('no file part', `--${b}\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--${b}--\r\n`),
        upload('huge boundary', good, `multipart/form-data; boundary=${'b'.repeat(5000)}`),
        upload('file name with NUL and traversal', `${filePart(b, '../../x\u0000.txt', 'x')}--${b}--\r\n`),
      ]),
    ).toEqual([]);
  });

  it('truncated multipart on /api/ai/speech-to-text and /v1/audio/transcriptions', async () => {
    const cookie = await userCookie();
    const b = 'audioboundary';
    const wav = makeWav(0.5).toString('latin1');
    const whole = `${filePart(b, 'a.wav', wav)}--${b}--\r\n`;
    const truncated = [whole.slice(0, 200), whole.slice(0, whole.length - 30), `--${b}\r\nContent-Disp`];
    const requests = truncated.flatMap((body, index): FuzzRequest[] => [
      {
        name: `speech-to-text truncated ${index}`,
        method: 'POST',
        path: '/api/ai/speech-to-text',
        headers: { cookie, 'content-type': `multipart/form-data; boundary=${b}` },
        body: Buffer.from(body, 'latin1'),
      },
      {
        name: `transcriptions truncated ${index}`,
        method: 'POST',
        path: '/v1/audio/transcriptions',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': `multipart/form-data; boundary=${b}` },
        body: Buffer.from(
          `--${b}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n${body}`,
          'latin1',
        ),
      },
    ]);
    expect(await failuresOf(requests)).toEqual([]);
  });

  it('a WAV whose header lies on /api/assistant/voice-command', async () => {
    const voice = (name: string, body: Buffer): FuzzRequest => ({
      name,
      method: 'POST',
      path: '/api/assistant/voice-command',
      headers: { 'content-type': 'audio/wav' },
      body,
    });
    expect(
      await failuresOf([
        voice(
          'byte rate 1',
          lyingWav((wav) => wav.writeUInt32LE(1, 28)),
        ),
        voice(
          'byte rate 0',
          lyingWav((wav) => wav.writeUInt32LE(0, 28)),
        ),
        voice(
          'byte rate 4 GiB',
          lyingWav((wav) => wav.writeUInt32LE(0xffffffff, 28)),
        ),
        voice(
          'data size 4 GiB',
          lyingWav((wav) => wav.writeUInt32LE(0xffffffff, 40)),
        ),
        voice(
          'no channels',
          lyingWav((wav) => wav.writeUInt16LE(0, 22)),
        ),
        voice(
          'sample rate 0',
          lyingWav((wav) => wav.writeUInt32LE(0, 24)),
        ),
        voice('header only', makeWav(0.5).subarray(0, 44)),
      ]),
    ).toEqual([]);
  });

  it('tus requests with bad Upload-Metadata, Upload-Length and Upload-Offset', async () => {
    const cookie = await userCookie();
    const tus = { cookie, 'tus-resumable': '1.0.0' };
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const good = `${b64('a.txt')},userId ${b64('fuzz-hand')}`;
    const create = (name: string, headers: Record<string, string>): FuzzRequest => ({
      name,
      method: 'POST',
      path: '/api/files/tus',
      headers: { ...tus, 'upload-metadata': `filename ${good}`, ...headers },
    });
    const created = await send(create('valid', { 'upload-length': '10' }));
    expect(created.status).toBe(201);
    const uploadPath = new URL(created.location ?? '', server.url).pathname;
    const patch = (name: string, headers: Record<string, string>, body = 'abc'): FuzzRequest => ({
      name,
      method: 'PATCH',
      path: uploadPath,
      headers: { ...tus, 'content-type': 'application/offset+octet-stream', ...headers },
      body,
    });
    expect(
      await failuresOf([
        create('metadata not base64', {
          'upload-length': '10',
          'upload-metadata': `filename !!!not-base64!!!,userId ${b64('fuzz-hand')}`,
        }),
        create('metadata key without value', { 'upload-length': '10', 'upload-metadata': 'filename' }),
        create('metadata empty pairs', { 'upload-length': '10', 'upload-metadata': ',,, ,' }),
        create('metadata duplicate keys', {
          'upload-length': '10',
          'upload-metadata': `filename ${good},filename ${good}`,
        }),
        create('metadata huge', {
          'upload-length': '10',
          'upload-metadata': `filename ${'A'.repeat(8000)},userId ${b64('fuzz-hand')}`,
        }),
        create('metadata NUL file name', {
          'upload-length': '10',
          'upload-metadata': `filename ${b64('a\u0000/../b')},userId ${b64('fuzz-hand')}`,
        }),
        create('length negative', { 'upload-length': '-1' }),
        create('length not a number', { 'upload-length': 'ten' }),
        create('length huge', { 'upload-length': '1e30' }),
        create('length beyond safe integers', { 'upload-length': '99999999999999999999' }),
        create('length and defer', { 'upload-length': '10', 'upload-defer-length': '1' }),
        create('defer not 1', { 'upload-defer-length': 'yes' }),
        create('wrong tus version', { 'tus-resumable': '0.0.1', 'upload-length': '10' }),
        patch('offset negative', { 'upload-offset': '-1' }),
        patch('offset not a number', { 'upload-offset': 'abc' }),
        patch('offset beyond length', { 'upload-offset': '999' }),
        patch('offset mismatch', { 'upload-offset': '5' }),
        patch('offset missing', {}),
        patch('wrong content type', { 'upload-offset': '0', 'content-type': 'application/json' }),
        patch('more bytes than the length', { 'upload-offset': '0' }, 'x'.repeat(100)),
        { name: 'HEAD of an unknown upload', method: 'HEAD', path: '/api/files/tus/..%2F..%2Fetc', headers: tus },
        {
          name: 'PATCH of an unknown upload',
          method: 'PATCH',
          path: '/api/files/tus/%00',
          headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          body: 'x',
        },
      ]),
    ).toEqual([]);
  });

  it('an oversized login form on the development identity provider', async () => {
    const browser = createBrowser(server);
    const page = await browser.follow('/api/auth/oidc/start');
    expect(page.url).toMatch(/^\/oidc\/interaction\//);
    const action = formAction(await page.response.text()) ?? '';
    expect(action).toMatch(/^\/oidc\/interaction\/.+\/login$/);
    const form = (name: string, body: string): FuzzRequest => ({
      name,
      method: 'POST',
      path: action,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    // Through the test browser, which sends the interaction's cookies.
    const viaBrowser = async (request: FuzzRequest): Promise<Answer> => {
      const response = await browser.request(request.path, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        body: await response.text(),
      };
    };
    expect(
      await failuresOf(
        [
          form('2 MiB password', `username=alice&password=${'p'.repeat(2 * 1024 * 1024)}`),
          form('many fields', Array.from({ length: 20_000 }, (_, i) => `f${i}=${i}`).join('&')),
          form('invalid encoding', 'username=%zz&password=%'),
        ],
        viaBrowser,
      ),
    ).toEqual([]);
  });

  it('is still alive afterwards, with no request left hanging', async () => {
    const health = await server.fetch('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // Every fuzz request has been answered, so only idle keep-alive connections may remain.
    const busy = async () => {
      server.app.server.closeIdleConnections();
      return new Promise<number>((done) => server.app.server.getConnections((_error, count) => done(count)));
    };
    const deadline = Date.now() + 3000;
    while ((await busy()) > 0 && Date.now() < deadline) await new Promise((wait) => setTimeout(wait, 100));
    expect(await busy()).toBe(0);
  });
});
