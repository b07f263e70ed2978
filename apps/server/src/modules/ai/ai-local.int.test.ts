import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiStatusResponse, FaceDetectionResult, ImageAnalysisResult, SpeechToTextResult } from '@atrium/contracts';
import { readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';

const require = createRequire(import.meta.url);
const facePhoto = () =>
  readFileSync(path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg'));

/** The default provider: the real offline engines, on fixtures generated here or shipped by packages. */
describe('AI module with the local engines', () => {
  let server: TestServer;
  let cookie: string;
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'atrium-ai-local-'));
    server = await startTestServer({ env: { AI_MAX_AUDIO_SECONDS: '20' } });
    cookie = await server.signInAs({ owner_key: 'alice' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const post = (url: string, body: Buffer | string, type: string) =>
    server.fetch(url, { method: 'POST', headers: { cookie, 'content-type': type }, body });
  const speak = (text: string, name: string) => {
    const file = path.join(work, name);
    execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', file]);
    return readFileSync(file);
  };

  it('speech-to-text: flite speech comes back as text containing its words', { timeout: 120_000 }, async () => {
    const response = await post(
      '/api/ai/speech-to-text',
      speak('please call me tomorrow morning', 'call.wav'),
      'audio/wav',
    );
    expect(response.status).toBe(200);
    const result = SpeechToTextResult.parse(await response.json());
    expect(result.RecognitionStatus).toBe('Success');
    expect(result.DisplayText.toLowerCase()).toContain('tomorrow');
    expect(result.Duration).toBeGreaterThan(0);
  });

  it(
    'voice commands: a visitor without a session is understood by the offline engine',
    { timeout: 120_000 },
    async () => {
      const response = await server.fetch('/api/assistant/voice-command', {
        method: 'POST',
        headers: { 'content-type': 'audio/wav' },
        body: speak('open the files page', 'command.wav'),
      });
      expect(response.status).toBe(200);
      const result = SpeechToTextResult.parse(await response.json());
      expect(result.RecognitionStatus).toBe('Success');
      expect(result.DisplayText.toLowerCase()).toMatch(/\bfiles?\b/);
    },
  );

  it('speech-to-text: a 44.1 kHz stereo file is resampled first', { timeout: 120_000 }, async () => {
    const source = path.join(work, 'hello.wav');
    writeFileSync(source, speak('hello world', 'hello-16k.wav'));
    const stereo = path.join(work, 'stereo.wav');
    execFileSync('sox', [source, '-r', '44100', '-c', '2', stereo]);
    const response = await post('/api/ai/speech-to-text', readFileSync(stereo), 'audio/wav');
    expect(response.status).toBe(200);
    expect((await readJson<SpeechToTextResult>(response)).DisplayText.toLowerCase()).toMatch(/hello|world/);
  });

  it('text-to-speech: MP3 that ffprobe reads as 16 kHz mono at about 32 kbit/s', { timeout: 120_000 }, async () => {
    const response = await post(
      '/api/ai/text-to-speech',
      JSON.stringify({ text: 'Good morning, this is Atrium.' }),
      'application/json',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const mp3 = path.join(work, 'out.mp3');
    writeFileSync(mp3, Buffer.from(await response.arrayBuffer()));
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', mp3], { encoding: 'utf8' }),
    ) as { streams: { codec_name: string; sample_rate: string; channels: number; bit_rate: string }[] };
    const [stream] = probe.streams;
    expect(stream).toMatchObject({ codec_name: 'mp3', sample_rate: '16000', channels: 1 });
    expect(Number(stream?.bit_rate)).toBeGreaterThanOrEqual(30_000);
    expect(Number(stream?.bit_rate)).toBeLessThanOrEqual(34_000);
  });

  it(
    'face detection: the demo photo gives boxes inside the image with age, gender and emotion',
    { timeout: 120_000 },
    async () => {
      const photo = facePhoto();
      const { width = 0, height = 0 } = await sharp(photo).metadata();
      const response = await post('/api/ai/face-detection', photo, 'image/jpeg');
      expect(response.status).toBe(200);
      const faces = FaceDetectionResult.parse(await response.json());
      expect(faces.length).toBeGreaterThanOrEqual(2);
      for (const face of faces) {
        const { top, left, width: w, height: h } = face.faceRectangle;
        expect(left).toBeGreaterThanOrEqual(0);
        expect(top).toBeGreaterThanOrEqual(0);
        expect(left + w).toBeLessThanOrEqual(width);
        expect(top + h).toBeLessThanOrEqual(height);
        expect(face.faceAttributes.age).toBeGreaterThan(5);
        expect(['male', 'female']).toContain(face.faceAttributes.gender);
        const total = Object.values(face.faceAttributes.emotion).reduce((a, b) => a + b, 0);
        expect(total).toBeGreaterThan(0.9);
      }
      const blank = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#88aacc' } })
        .png()
        .toBuffer();
      const none = await post('/api/ai/face-detection', blank, 'image/png');
      expect(await none.json()).toEqual([]);
    },
  );

  it(
    'image analysis: a photo of people is captioned from what was detected; a black-and-white image is isBWImg',
    { timeout: 120_000 },
    async () => {
      const response = await post('/api/ai/image-analysis', facePhoto(), 'application/octet-stream');
      expect(response.status).toBe(200);
      const analysis = ImageAnalysisResult.parse(await response.json());
      expect(analysis.description.tags).toContain('person');
      expect(analysis.description.captions[0]?.text).toMatch(/person|people/);
      expect(analysis.description.captions[0]?.confidence).toBeGreaterThan(0);
      expect(analysis.color.isBWImg).toBe(false);

      const bw = await sharp({ create: { width: 200, height: 120, channels: 3, background: '#000000' } })
        .composite([
          { input: { create: { width: 100, height: 120, channels: 3, background: '#ffffff' } }, left: 0, top: 0 },
        ])
        .jpeg()
        .toBuffer();
      const grey = ImageAnalysisResult.parse(await (await post('/api/ai/image-analysis', bw, 'image/jpeg')).json());
      expect(grey.color.isBWImg).toBe(true);
      expect(grey.metadata).toMatchObject({ width: 200, height: 120 });
    },
  );

  it('a damaged image or WAV body past a valid header is a 4xx, never a 500', { timeout: 120_000 }, async () => {
    const photo = facePhoto();
    const truncated = Buffer.concat([photo.subarray(0, 2000), Buffer.alloc(2000, 0x41)]);
    for (const url of ['/api/ai/face-detection', '/api/ai/image-analysis']) {
      const response = await post(url, truncated, 'image/jpeg');
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(response.status, url).toBeLessThan(500);
      expect((await readError(response)).message).toMatch(/\S/);
    }
    const wav = speak('testing', 'noise.wav');
    wav.writeUInt16LE(3, 20); // float format tag with 16-bit samples: not decodable as declared
    const audio = await post('/api/ai/speech-to-text', wav, 'audio/wav');
    expect(audio.status).toBeLessThan(500);
    const ssml = await post('/api/ai/text-to-speech', '<speak><voice>never closed', 'application/ssml+xml');
    expect(ssml.status).toBe(400);
  });

  it('status and /readyz report the engines after use', async () => {
    const status = AiStatusResponse.parse(await (await server.fetch('/api/ai/status', { headers: { cookie } })).json());
    for (const service of ['speechToText', 'textToSpeech', 'faceDetection', 'imageAnalysis'] as const) {
      expect(status[service]).toMatchObject({ provider: 'local', status: 'ok' });
    }
    const ready = await server.fetch('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ checks: { 'ai.faceDetection': { status: 'ok' } } });
  });
});
