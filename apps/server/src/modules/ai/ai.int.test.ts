import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiStatusResponse, ApiKeyRecord, CreatedApiKey, FaceDetectionResult } from '@atrium/contracts';
import {
  AZURE_ANALYSIS,
  AZURE_FACE,
  FAKE_MP3,
  fakeAzureEnv,
  lastRequest,
  makeWav,
  startFakeAzure,
  type FakeServer,
} from '../../../test/fake-ai';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * The AI module over HTTP with the azure provider pointed at a fake Azure
 * (the engines are external here; the local engines have their own suite).
 */
describe.each(dialects())('AI module (%s)', (dialect) => {
  let azure: FakeServer;
  let server: TestServer;
  let alice: string;
  let admin: string;
  let png: Buffer;
  let jpeg: Buffer;
  beforeAll(async () => {
    azure = await startFakeAzure();
    server = await startTestServer({
      dialect,
      env: {
        ...fakeAzureEnv(azure, { speech: 'server-speech-key', face: 'server-face-key', vision: 'server-vision-key' }),
        AI_MAX_IMAGE_BYTES: String(200 * 1024),
        AI_MAX_IMAGE_PIXELS: String(1_000_000),
        AI_MAX_AUDIO_SECONDS: '5',
      },
    });
    alice = await server.signInAs({ owner_key: 'alice' });
    admin = await server.signInAs({ owner_key: 'root', role: 'admin' });
    png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#00ff00' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(async () => {
    await server?.close();
    await azure?.close();
  });

  const post = (path: string, cookie: string | undefined, body: RequestInit['body'], type?: string) =>
    server.fetch(path, {
      method: 'POST',
      headers: { ...(cookie ? { cookie } : {}), ...(type ? { 'content-type': type } : {}) },
      body,
    });

  it('requires a session for every /api/ai route and an admin for keys', async () => {
    for (const path of [
      '/api/ai/speech-to-text',
      '/api/ai/text-to-speech',
      '/api/ai/face-detection',
      '/api/ai/image-analysis',
    ]) {
      const response = await post(path, undefined, png, 'image/png');
      expect(response.status, path).toBe(401);
      expect((await readError(response)).code).toBe('UNAUTHENTICATED');
    }
    expect((await server.fetch('/api/ai/status')).status).toBe(401);
    const asUser = await server.fetch('/api/ai/keys', { headers: { cookie: alice } });
    expect(asUser.status).toBe(403);
    expect((await readError(asUser)).message).toBe('Only admins can manage API keys.');
  });

  it('speech-to-text: a WAV body, or the multipart field "file", answers Azure\'s shape', async () => {
    const wav = makeWav(1);
    for (const response of [
      await post('/api/ai/speech-to-text', alice, wav, 'audio/wav'),
      await post('/api/ai/speech-to-text', alice, form('file', wav, 'audio/wav', 'speech.wav')),
    ]) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        RecognitionStatus: 'Success',
        DisplayText: 'Hello from Azure.',
        Offset: 300000,
        Duration: 12000000,
      });
    }
    const upstream = lastRequest(azure);
    expect(upstream.headers['ocp-apim-subscription-key']).toBe('server-speech-key');
    expect(upstream.body.equals(wav)).toBe(true);
  });

  it('speech-to-text: rejects empty, non-WAV, corrupt and too long audio with clear 4xx', async () => {
    const before = azure.requests.length;
    const cases: [RequestInit['body'], string, number, string][] = [
      [Buffer.alloc(0), 'audio/wav', 400, 'The audio is empty. Please send a WAV file.'],
      [Buffer.from('ID3 this is an mp3 really'), 'audio/wav', 415, 'Please send a WAV audio file (audio/wav).'],
      [
        Buffer.concat([Buffer.from('RIFF\x00\x00\x00\x00WAVEjunk'), Buffer.alloc(30)]),
        'audio/wav',
        400,
        'The WAV file could not be read. It may be damaged.',
      ],
      [makeWav(6), 'audio/wav', 413, 'The audio is 6.0 seconds long; the limit is 5 seconds.'],
    ];
    for (const [body, type, status, message] of cases) {
      const response = await post('/api/ai/speech-to-text', alice, body, type);
      expect(response.status, message).toBe(status);
      expect((await readError(response)).message).toBe(message);
    }
    const noFile = await post('/api/ai/speech-to-text', alice, form('other', makeWav(1), 'audio/wav', 'x.wav'));
    expect(noFile.status).toBe(400);
    expect((await readError(noFile)).message).toBe('Please send the audio in a multipart field named "file".');
    expect(azure.requests.length).toBe(before);
  });

  it('text-to-speech: JSON text or SSML answers audio/mpeg; blank, oversize and wrong types are 4xx', async () => {
    const json = await post(
      '/api/ai/text-to-speech',
      alice,
      JSON.stringify({ text: 'Good morning' }),
      'application/json',
    );
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await json.arrayBuffer()).equals(FAKE_MP3)).toBe(true);
    expect(lastRequest(azure).body.toString()).toContain('>Good morning</voice>');

    const ssml = '<speak version="1.0" xml:lang="en-US"><voice name="en-US-JennyNeural">Hi there</voice></speak>';
    const viaSsml = await post('/api/ai/text-to-speech', alice, ssml, 'application/ssml+xml');
    expect(viaSsml.status).toBe(200);
    expect(lastRequest(azure).body.toString()).toBe(ssml);

    const cases: [string, string, number, string][] = [
      [JSON.stringify({ text: '   ' }), 'application/json', 400, 'Please enter some text to synthesize.'],
      [JSON.stringify({ text: 'a'.repeat(3001) }), 'application/json', 413, 'The text is longer than 3000 characters.'],
      [JSON.stringify({ words: 'hi' }), 'application/json', 400, 'Please send JSON of the form { "text": "…" }.'],
      ['<speak></speak>', 'application/ssml+xml', 400, 'Please enter some text to synthesize.'],
      ['hello', 'image/png', 415, 'Please send JSON { "text": "…" } or application/ssml+xml.'],
      ['{"text": ', 'application/json', 400, 'The request body is not valid JSON.'],
    ];
    for (const [body, type, status, message] of cases) {
      const response = await post('/api/ai/text-to-speech', alice, body, type);
      expect(response.status, message).toBe(status);
      expect((await readError(response)).message).toBe(message);
    }
  });

  it('face detection and image analysis take JPEG/PNG bytes or multipart and answer the Azure shapes', async () => {
    const faces = await post('/api/ai/face-detection', alice, jpeg, 'application/octet-stream');
    expect(faces.status).toBe(200);
    expect(await readJson<FaceDetectionResult>(faces)).toEqual([AZURE_FACE]);
    const analysis = await post('/api/ai/image-analysis', alice, form('file', png, 'image/png', 'a.png'));
    expect(analysis.status).toBe(200);
    expect(await analysis.json()).toEqual(AZURE_ANALYSIS);
    expect(lastRequest(azure).body.equals(png)).toBe(true);
  });

  it('images: empty, wrong type, damaged, too many pixels and too many bytes are clear 4xx, never 500', async () => {
    const huge = await sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const noisy = await sharp(Buffer.from(Array.from({ length: 300 * 300 * 3 }, (_, i) => (i * 7919) % 256)), {
      raw: { width: 300, height: 300, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const cases: [Buffer, string, number, string, string][] = [
      [Buffer.alloc(0), 'image/png', 400, 'BAD_REQUEST', 'The image is empty. Please send a PNG or JPG image.'],
      [
        Buffer.from('GIF89a......'),
        'image/gif',
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Please upload a PNG or JPG format image.',
      ],
      [
        Buffer.from('just text'),
        'text/plain',
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Please upload a PNG or JPG format image.',
      ],
      [png.subarray(0, 20), 'image/png', 400, 'INVALID_MEDIA', 'The image could not be read. It may be damaged.'],
      [huge, 'image/png', 413, 'PAYLOAD_TOO_LARGE', 'The image is 1200×1000 pixels; the limit is 1 megapixels.'],
      [noisy, 'image/png', 413, 'PAYLOAD_TOO_LARGE', 'The image is larger than 0.2 MB.'],
    ];
    for (const path of ['/api/ai/face-detection', '/api/ai/image-analysis']) {
      for (const [body, type, status, code, message] of cases) {
        const response = await post(path, alice, body, type);
        expect(response.status, `${path} ${message}`).toBe(status);
        expect(await readError(response)).toMatchObject({ code, message });
      }
      const multipartTooBig = await post(path, alice, form('file', noisy, 'image/png', 'big.png'));
      expect(multipartTooBig.status).toBe(413);
      expect((await readError(multipartTooBig)).message).toBe('The image file is larger than 0.2 MB.');
    }
  });

  it('maps provider failures: an invalid-media answer upstream is a 415, a rate limit a 503 with Retry-After', async () => {
    azure.failNext(415, { error: { code: 'BadArgument', message: 'Invalid Media Type.' } });
    const invalid = await post('/api/ai/face-detection', alice, png, 'image/png');
    expect(invalid.status).toBe(415);
    azure.failNext(429, { error: { code: '429', message: 'Too many' } }, { 'retry-after': '3' });
    const busy = await post('/api/ai/image-analysis', alice, png, 'image/png');
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('3');
  });

  it("runs a service on a file in the caller's own storage (?fileId=), never on someone else's", async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'red.png');
    const upload = await server.fetch('/api/files/upload?userId=alice', {
      method: 'POST',
      headers: { cookie: alice, accept: 'application/json' },
      body: form,
    });
    expect(upload.status).toBe(200);
    const { id } = await readJson<{ id: string }>(upload);

    const response = await post(`/api/ai/face-detection?fileId=${id}`, alice, Buffer.alloc(0), 'image/png');
    expect(response.status).toBe(200);
    expect(Buffer.compare(lastRequest(azure).body, png)).toBe(0);

    const bob = await server.signInAs({ owner_key: 'bob' });
    const others = await post(`/api/ai/face-detection?fileId=${id}`, bob, Buffer.alloc(0), 'image/png');
    expect(others.status).toBe(404);
    expect((await readError(others)).code).toBe('FILE_NOT_FOUND');
    const missing = await post('/api/ai/image-analysis?fileId=no-such-file', alice, Buffer.alloc(0), 'image/png');
    expect(missing.status).toBe(404);
  });

  it('?fileId= follows the file read rule: workspace editor and viewer, share recipient yes; others 404', async () => {
    const cookies = {
      owner: await server.signInAs({ owner_key: 'ws-owner' }),
      editor: await server.signInAs({ owner_key: 'ws-editor' }),
      viewer: await server.signInAs({ owner_key: 'ws-viewer' }),
      recipient: await server.signInAs({ owner_key: 'ws-recipient' }),
      stranger: await server.signInAs({ owner_key: 'ws-stranger' }),
      admin,
    };
    const json = (cookie: string, method: string, url: string, body: unknown) =>
      server.fetch(url, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const workspace = await readJson<{ id: string }>(
      await json(cookies.owner, 'POST', '/api/workspaces', { name: 'AI on files' }),
    );
    for (const [who, role] of [
      ['ws-editor', 'editor'],
      ['ws-viewer', 'viewer'],
    ] as const) {
      expect(
        (await json(cookies.owner, 'PUT', `/api/workspaces/${workspace.id}/members/${who}`, { role })).status,
      ).toBe(200);
    }
    const store = async (name: string, bytes: Buffer, type: string) => {
      const body = new FormData();
      body.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      const upload = await server.fetch(`/api/files/upload?workspaceId=${workspace.id}`, {
        method: 'POST',
        headers: { cookie: cookies.owner, accept: 'application/json' },
        body,
      });
      expect(upload.status).toBe(200);
      return (await readJson<{ id: string }>(upload)).id;
    };
    const image = await store('team.jpg', jpeg, 'image/jpeg');
    const wav = makeWav(1);
    const audio = await store('meeting.wav', wav, 'audio/wav');
    for (const id of [image, audio]) {
      const shared = await json(cookies.owner, 'PUT', `/api/files/${id}/shares/ws-recipient`, { role: 'viewer' });
      expect(shared.status).toBe(201);
    }

    for (const who of ['owner', 'editor', 'viewer', 'recipient'] as const) {
      for (const [url, bytes] of [
        [`/api/ai/face-detection?fileId=${image}`, jpeg],
        [`/api/ai/image-analysis?fileId=${image}`, jpeg],
        [`/api/ai/speech-to-text?fileId=${audio}`, wav],
      ] as const) {
        const before = azure.requests.length;
        const response = await post(url, cookies[who], undefined);
        expect(response.status, `${url} as ${who}`).toBe(200);
        // The stored bytes, not the (empty) request body, went to the engine.
        expect(azure.requests.length).toBe(before + 1);
        expect(lastRequest(azure).body.equals(bytes), `${url} as ${who}`).toBe(true);
      }
    }
    const transcript = await post(`/api/ai/speech-to-text?fileId=${audio}`, cookies.recipient, undefined);
    expect((await readJson<{ DisplayText: string }>(transcript)).DisplayText).toBe('Hello from Azure.');

    // A non-member and an admin outside the workspace learn nothing: the same 404 as a file that does not exist,
    // and nothing reaches the engine.
    for (const who of ['stranger', 'admin'] as const) {
      for (const url of [
        `/api/ai/face-detection?fileId=${image}`,
        `/api/ai/image-analysis?fileId=${image}`,
        `/api/ai/speech-to-text?fileId=${audio}`,
      ]) {
        const before = azure.requests.length;
        const response = await post(url, cookies[who], undefined);
        expect(response.status, `${url} as ${who}`).toBe(404);
        expect((await readError(response)).code).toBe('FILE_NOT_FOUND');
        expect(azure.requests.length).toBe(before);
      }
    }
    // Revoking the share closes the door again.
    const revoked = await server.fetch(`/api/files/${image}/shares/ws-recipient`, {
      method: 'DELETE',
      headers: { cookie: cookies.owner },
    });
    expect(revoked.status).toBe(200);
    expect((await post(`/api/ai/image-analysis?fileId=${image}`, cookies.recipient, undefined)).status).toBe(404);
    // Anonymous callers are refused before any file is looked at.
    expect((await post(`/api/ai/image-analysis?fileId=${image}`, undefined, undefined)).status).toBe(401);
  });

  it('documents the AI routes in the OpenAPI document', async () => {
    const doc = await readJson<{ paths: Record<string, unknown> }>(await server.fetch('/api/docs'));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/ai/speech-to-text',
        '/api/ai/text-to-speech',
        '/api/ai/face-detection',
        '/api/ai/image-analysis',
        '/api/ai/status',
        '/api/ai/keys',
        '/face/v1.0/detect',
        '/v1/audio/transcriptions',
      ]),
    );
  });

  it('status and /readyz report each service and its provider without any key', async () => {
    const status = await server.fetch('/api/ai/status', { headers: { cookie: alice } });
    const body = await readJson<AiStatusResponse>(status);
    expect(body.faceDetection).toEqual({ provider: 'azure', status: 'ok', message: 'Azure AI services' });
    expect(JSON.stringify(body)).not.toContain('server-');
    const ready = await readJson<{ checks: Record<string, { status: string }> }>(await server.fetch('/readyz'));
    for (const name of ['ai.speechToText', 'ai.textToSpeech', 'ai.faceDetection', 'ai.imageAnalysis'])
      expect(ready.checks[name]?.status).toBe('ok');
  });

  it('API keys: created by an admin and shown once, listed without the key, usable, then revoked', async () => {
    const created = await server.fetch('/api/ai/keys', {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'legacy client' }),
    });
    expect(created.status).toBe(201);
    const key = await readJson<CreatedApiKey>(created);
    expect(key.key).toMatch(/^atr_[\w-]{40,}$/);
    expect(key.prefix).toBe(key.key.slice(0, 10));
    const list = await readJson<ApiKeyRecord[]>(await server.fetch('/api/ai/keys', { headers: { cookie: admin } }));
    expect(list.map((k) => k.id)).toContain(key.id);
    expect(JSON.stringify(list)).not.toContain(key.key);
    const stored = await server.app.database.db
      .selectFrom('ai_api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.key_hash).not.toContain(key.key);

    // Azure-style with Ocp-Apim-Subscription-Key, OpenAI-style with a bearer token.
    const azureStyle = await server.fetch('/face/v1.0/detect?returnFaceAttributes=age,gender,emotion', {
      method: 'POST',
      headers: { 'ocp-apim-subscription-key': key.key, 'content-type': 'application/octet-stream' },
      body: png,
    });
    expect(azureStyle.status).toBe(200);
    expect(await azureStyle.json()).toEqual([AZURE_FACE]);
    const openaiStyle = await server.fetch('/v1/audio/speech', {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', input: 'Hello', voice: 'alloy' }),
    });
    expect(openaiStyle.status).toBe(200);
    expect(openaiStyle.headers.get('content-type')).toBe('audio/mpeg');
    const used = await readJson<ApiKeyRecord[]>(await server.fetch('/api/ai/keys', { headers: { cookie: admin } }));
    expect(used.find((k) => k.id === key.id)?.lastUsedAt).not.toBeNull();

    const revoked = await server.fetch(`/api/ai/keys/${key.id}`, { method: 'DELETE', headers: { cookie: admin } });
    expect(revoked.status).toBe(200);
    expect((await readJson<ApiKeyRecord>(revoked)).revokedAt).not.toBeNull();
    const after = await server.fetch('/vision/v3.2/analyze', {
      method: 'POST',
      headers: { 'ocp-apim-subscription-key': key.key, 'content-type': 'application/octet-stream' },
      body: png,
    });
    expect(after.status).toBe(401);
    expect((await server.fetch('/api/ai/keys/nope', { method: 'DELETE', headers: { cookie: admin } })).status).toBe(
      404,
    );
  });

  describe('compatibility endpoints', () => {
    let key: string;
    beforeAll(async () => {
      const created = await server.fetch('/api/ai/keys', {
        method: 'POST',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'compat' }),
      });
      key = (await readJson<CreatedApiKey>(created)).key;
    });

    it("answer 401 in Azure's shape without a valid key, and never accept the session cookie", async () => {
      for (const path of [
        '/speech/recognition/conversation/cognitiveservices/v1?language=en-US',
        '/cognitiveservices/v1',
        '/face/v1.0/detect',
        '/vision/v3.2/analyze',
      ]) {
        for (const headers of [{}, { 'ocp-apim-subscription-key': 'atr_wrong' }, { cookie: alice }] as Record<
          string,
          string
        >[]) {
          const response = await server.fetch(path, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/octet-stream' },
            body: png,
          });
          expect(response.status, path).toBe(401);
          const body = (await response.json()) as { error: { code: string; message: string } };
          expect(body.error.code).toBe('401');
          expect(body.error.message).toMatch(/^Access denied due to invalid subscription key/);
        }
      }
    });

    it("answer 401 in OpenAI's shape without a valid key", async () => {
      const missing = await server.fetch('/v1/audio/speech', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(missing.status).toBe(401);
      expect(await missing.json()).toEqual({
        error: {
          message: "You didn't provide an API key. Send it as Authorization: Bearer <key>.",
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
      const wrong = await server.fetch('/v1/audio/transcriptions', {
        method: 'POST',
        headers: { authorization: 'Bearer atr_nope' },
        body: form('file', makeWav(1), 'audio/wav', 'a.wav'),
      });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({
        error: { message: 'Incorrect API key provided.', code: 'invalid_api_key' },
      });
    });

    it('Azure speech recognition, TTS and analyze answer the Azure shapes; bad input is an Azure-shaped 4xx', async () => {
      const stt = await server.fetch(
        '/speech/recognition/conversation/cognitiveservices/v1?language=en-US&format=simple',
        {
          method: 'POST',
          headers: {
            'ocp-apim-subscription-key': key,
            'content-type': 'audio/wav; codecs=audio/pcm; samplerate=16000',
          },
          body: makeWav(1),
        },
      );
      expect(stt.status).toBe(200);
      expect(await stt.json()).toMatchObject({ RecognitionStatus: 'Success', DisplayText: 'Hello from Azure.' });

      const tts = await server.fetch('/cognitiveservices/v1', {
        method: 'POST',
        headers: {
          'ocp-apim-subscription-key': key,
          'content-type': 'application/ssml+xml',
          'x-microsoft-outputformat': 'audio-16khz-32kbitrate-mono-mp3',
        },
        body: "<speak version='1.0' xml:lang='en-US'><voice name='en-US-JennyNeural'>Hello</voice></speak>",
      });
      expect(tts.status).toBe(200);
      expect(tts.headers.get('content-type')).toBe('audio/mpeg');

      const gif = await server.fetch('/face/v1.0/detect', {
        method: 'POST',
        headers: { 'ocp-apim-subscription-key': key, 'content-type': 'application/octet-stream' },
        body: Buffer.from('GIF89a....'),
      });
      expect(gif.status).toBe(415);
      expect(await gif.json()).toEqual({
        error: { code: 'BadArgument', message: 'Please upload a PNG or JPG format image.' },
      });

      const french = await server.fetch('/speech/recognition/conversation/cognitiveservices/v1?language=fr-FR', {
        method: 'POST',
        headers: { 'ocp-apim-subscription-key': key, 'content-type': 'audio/wav' },
        body: makeWav(1),
      });
      expect(french.status).toBe(400);
      expect(await french.json()).toEqual({
        error: { code: 'BadArgument', message: 'Language fr-FR is not supported; use en-US.' },
      });
    });

    it('OpenAI transcriptions answer { text } (or text) and speech rejects other formats', async () => {
      const json = await server.fetch('/v1/audio/transcriptions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form('file', makeWav(1), 'audio/wav', 'a.wav', { model: 'whisper-1' }),
      });
      expect(json.status).toBe(200);
      expect(await json.json()).toEqual({ text: 'Hello from Azure.' });
      const text = await server.fetch('/v1/audio/transcriptions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form('file', makeWav(1), 'audio/wav', 'a.wav', { model: 'whisper-1', response_format: 'text' }),
      });
      expect(await text.text()).toBe('Hello from Azure.');
      const opus = await server.fetch('/v1/audio/speech', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'tts-1', input: 'hi', voice: 'alloy', response_format: 'opus' }),
      });
      expect(opus.status).toBe(400);
      expect(await opus.json()).toMatchObject({
        error: {
          message: 'response_format opus is not supported; use mp3.',
          type: 'invalid_request_error',
          code: 'bad_request',
        },
      });
    });
  });
});

function form(field: string, data: Buffer, type: string, name: string, fields: Record<string, string> = {}) {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  body.append(field, new Blob([new Uint8Array(data)], { type }), name);
  return body;
}
