import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DetectedFace, FaceDetectionResult, ImageAnalysisResult, SpeechToTextResult } from '@atrium/contracts';
import { loadConfig } from '../../config';
import { AppError } from '../../errors';
import {
  AZURE_ANALYSIS,
  AZURE_FACE,
  FAKE_MP3,
  lastRequest,
  makeWav,
  startFakeAzure,
  startFakeOpenAi,
  type FakeServer,
} from '../../../test/fake-ai';
import { createAiProviders, type AiProviders } from '.';
import { loadLocalEngines } from './local-engines';

/** The one contract every provider of every service meets (shapes from @atrium/contracts). */
async function expectContract(providers: AiProviders, image: Buffer, { visual }: { visual: boolean }) {
  SpeechToTextResult.parse(await providers.speechToText.transcribe(makeWav(1)));
  const mp3 = await providers.textToSpeech.synthesize({ text: 'hello' });
  expect(mp3.length).toBeGreaterThan(0);
  if (!visual) return;
  DetectedFace.array().parse(await providers.faceDetection.detectFaces(image));
  ImageAnalysisResult.parse(await providers.imageAnalysis.analyzeImage(image));
}

const noLocal = () => Promise.reject(new Error('local engines must not be loaded by remote providers'));

describe('remote AI providers against fake servers speaking their wire formats', () => {
  let azure: FakeServer;
  let openai: FakeServer;
  let png: Buffer;
  beforeAll(async () => {
    [azure, openai] = await Promise.all([startFakeAzure(), startFakeOpenAi()]);
    png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await Promise.all([azure?.close(), openai?.close()]);
  });

  const azureEnv = () => ({
    DATA_DIR: '/tmp/atrium-unused',
    SESSION_SECRET: 'x'.repeat(32),
    AI_PROVIDER: 'azure',
    AZURE_SPEECH_KEY: 'speech-key-123',
    AZURE_SPEECH_STT_ENDPOINT: azure.url,
    AZURE_SPEECH_TTS_ENDPOINT: `${azure.url}/`,
    AZURE_FACE_ENDPOINT: azure.url,
    AZURE_FACE_KEY: 'face-key-456',
    AZURE_VISION_ENDPOINT: azure.url,
    AZURE_VISION_KEY: 'vision-key-789',
  });

  it('azure: speech-to-text posts the WAV with the key, language and PCM content type', async () => {
    const providers = createAiProviders(loadConfig(azureEnv()).ai, noLocal);
    const wav = makeWav(1);
    const result = await providers.speechToText.transcribe(wav);
    expect(SpeechToTextResult.parse(result)).toEqual({
      RecognitionStatus: 'Success',
      DisplayText: 'Hello from Azure.',
      Offset: 300000,
      Duration: 12000000,
    });
    const request = lastRequest(azure);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/speech/recognition/conversation/cognitiveservices/v1');
    expect(request.query.get('language')).toBe('en-US');
    expect(request.headers['ocp-apim-subscription-key']).toBe('speech-key-123');
    expect(request.headers['content-type']).toBe('audio/wav; codecs=audio/pcm; samplerate=16000');
    expect(request.body.equals(wav)).toBe(true);
    expect(providers.speechToText.name).toBe('azure');
  });

  it('azure: text-to-speech sends SSML with a female en-US voice and asks for 16 kHz 32 kbit/s mono MP3', async () => {
    const providers = createAiProviders(loadConfig(azureEnv()).ai, noLocal);
    const audio = await providers.textToSpeech.synthesize({ text: 'Fish & chips <today>' });
    expect(audio.equals(FAKE_MP3)).toBe(true);
    const request = lastRequest(azure);
    expect(request.path).toBe('/cognitiveservices/v1');
    expect(request.headers['ocp-apim-subscription-key']).toBe('speech-key-123');
    expect(request.headers['content-type']).toBe('application/ssml+xml');
    expect(request.headers['x-microsoft-outputformat']).toBe('audio-16khz-32kbitrate-mono-mp3');
    const ssml = request.body.toString('utf8');
    expect(ssml).toContain('<speak');
    expect(ssml).toContain('xml:gender="Female"');
    expect(ssml).toContain('name="en-US-JennyNeural"');
    expect(ssml).toContain('Fish &amp; chips &lt;today&gt;');

    const given = '<speak version="1.0" xml:lang="en-US"><voice name="en-US-AriaNeural">Hi</voice></speak>';
    await providers.textToSpeech.synthesize({ ssml: given });
    expect(lastRequest(azure).body.toString('utf8')).toBe(given);
  });

  it('azure: face detection posts octet-stream bytes and asks for age, gender and emotion', async () => {
    const providers = createAiProviders(loadConfig(azureEnv()).ai, noLocal);
    const faces = await providers.faceDetection.detectFaces(png);
    expect(FaceDetectionResult.parse(faces)).toEqual([AZURE_FACE]);
    const request = lastRequest(azure);
    expect(request.path).toBe('/face/v1.0/detect');
    expect(request.query.get('returnFaceAttributes')).toBe('age,gender,emotion');
    expect(request.query.get('returnFaceId')).toBe('true');
    expect(request.headers['ocp-apim-subscription-key']).toBe('face-key-456');
    expect(request.headers['content-type']).toBe('application/octet-stream');
    expect(request.body.equals(png)).toBe(true);
  });

  it('azure: image analysis asks for Categories, Description and Color with the vision key', async () => {
    const providers = createAiProviders(loadConfig(azureEnv()).ai, noLocal);
    const analysis = await providers.imageAnalysis.analyzeImage(png);
    expect(ImageAnalysisResult.parse(analysis)).toEqual(AZURE_ANALYSIS);
    const request = lastRequest(azure);
    expect(request.path).toBe('/vision/v3.2/analyze');
    expect(request.query.get('visualFeatures')).toBe('Categories,Description,Color');
    expect(request.headers['ocp-apim-subscription-key']).toBe('vision-key-789');
  });

  it('azure: upstream failures become clear AppErrors without leaking the key', async () => {
    const providers = createAiProviders(loadConfig(azureEnv()).ai, noLocal);
    azure.failNext(415, { error: { code: 'BadArgument', message: 'Invalid Media Type.' } });
    await expect(providers.faceDetection.detectFaces(png)).rejects.toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Invalid Media Type.',
    });
    azure.failNext(401, { error: { code: '401', message: 'Access denied' } });
    const denied = await providers.imageAnalysis.analyzeImage(png).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(AppError);
    expect(denied).toMatchObject({ code: 'UPSTREAM_FAILED', statusCode: 502 });
    expect((denied as Error).message).not.toContain('vision-key-789');
    azure.failNext(429, { error: { code: '429', message: 'Rate limit' } }, { 'retry-after': '7' });
    await expect(providers.speechToText.transcribe(makeWav(1))).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      headers: { 'retry-after': '7' },
    });
    azure.failNext(200, { unexpected: true });
    await expect(providers.faceDetection.detectFaces(png)).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
  });

  it('openai: transcription posts multipart file + model with the bearer key and maps to the Azure shape', async () => {
    const env = { ...azureEnv(), AI_PROVIDER: 'openai', OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-test-1' };
    const config = loadConfig(env).ai;
    expect(config.providers).toEqual({
      speechToText: 'openai',
      textToSpeech: 'openai',
      faceDetection: 'local',
      imageAnalysis: 'local',
    });
    const providers = createAiProviders(config, noLocal);
    const wav = makeWav(2.5);
    const result = await providers.speechToText.transcribe(wav);
    expect(result).toEqual({
      RecognitionStatus: 'Success',
      DisplayText: 'Hello from whisper.',
      Offset: 0,
      Duration: 25_000_000,
    });
    const request = lastRequest(openai);
    expect(request.path).toBe('/v1/audio/transcriptions');
    expect(request.headers.authorization).toBe('Bearer sk-test-1');
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(request.body, {
      headers: { 'content-type': request.headers['content-type'] ?? '' },
    }).formData();
    expect(form.get('model')).toBe('whisper-1');
    const file = form.get('file') as File;
    expect(file.name).toBe('audio.wav');
    expect(Buffer.from(await file.arrayBuffer()).equals(wav)).toBe(true);
  });

  it('openai: speech posts JSON { model, input, voice, response_format: mp3 } and returns the audio', async () => {
    const env = { ...azureEnv(), AI_PROVIDER: 'openai', OPENAI_BASE_URL: `${openai.url}/`, OPENAI_TTS_VOICE: 'nova' };
    const providers = createAiProviders(loadConfig(env).ai, noLocal);
    const audio = await providers.textToSpeech.synthesize({
      ssml: '<speak><voice name="x">Hello &amp; bye</voice></speak>',
    });
    expect(audio.equals(FAKE_MP3)).toBe(true);
    const request = lastRequest(openai);
    expect(request.path).toBe('/v1/audio/speech');
    expect(request.headers.authorization).toBeUndefined();
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({
      model: 'tts-1',
      input: 'Hello & bye',
      voice: 'nova',
      response_format: 'mp3',
    });
  });

  it('openai: speaks what the SSML says: numeric entities, CDATA and <sub alias> read as the local engine reads them', async () => {
    const env = { ...azureEnv(), AI_PROVIDER: 'openai', OPENAI_BASE_URL: `${openai.url}/` };
    const providers = createAiProviders(loadConfig(env).ai, noLocal);
    await providers.textToSpeech.synthesize({
      ssml: '<speak>Caf&#233; &#x2014; <sub alias="World Wide Web">WWW</sub><break/><![CDATA[a < b & c]]></speak>',
    });
    const { input } = JSON.parse(lastRequest(openai).body.toString('utf8')) as { input: string };
    expect(input).toBe('Café — World Wide Web, a < b & c');
    await expect(providers.textToSpeech.synthesize({ ssml: '<speak>x < y</speak>' })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('openai: an unreachable server is a 502', async () => {
    const dead = { ...azureEnv(), AI_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:9' };
    const providers = createAiProviders(loadConfig(dead).ai, noLocal);
    await expect(providers.textToSpeech.synthesize({ text: 'hi' })).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
  });

  it('selects providers per service and refuses impossible or incomplete choices at start-up', () => {
    const mixed = loadConfig({
      ...azureEnv(),
      AI_PROVIDER: 'local',
      AI_FACE_DETECTION_PROVIDER: 'azure',
      AI_TEXT_TO_SPEECH_PROVIDER: 'disabled',
    });
    expect(mixed.ai.providers).toEqual({
      speechToText: 'local',
      textToSpeech: 'disabled',
      faceDetection: 'azure',
      imageAnalysis: 'local',
    });
    const providers = createAiProviders(mixed.ai, noLocal);
    expect(providers.faceDetection.name).toBe('azure');
    expect(providers.textToSpeech.state()).toMatchObject({ status: 'disabled' });
    expect(() =>
      loadConfig({ DATA_DIR: '/tmp/x', SESSION_SECRET: 'x'.repeat(32), AI_IMAGE_ANALYSIS_PROVIDER: 'openai' }),
    ).toThrow(/AI_IMAGE_ANALYSIS_PROVIDER: OpenAI-compatible servers have no imageAnalysis API/);
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', SESSION_SECRET: 'x'.repeat(32), AI_PROVIDER: 'azure' })).toThrow(
      /AZURE_SPEECH_KEY: required[\s\S]*AZURE_FACE_KEY: required[\s\S]*AZURE_VISION_ENDPOINT: required/,
    );
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', SESSION_SECRET: 'x'.repeat(32), AI_PROVIDER: 'openai' })).toThrow(
      /OPENAI_BASE_URL: required/,
    );
  });

  it('the contract holds for the remote providers', async () => {
    await expectContract(createAiProviders(loadConfig(azureEnv()).ai, noLocal), png, { visual: true });
    await expectContract(
      createAiProviders(loadConfig({ ...azureEnv(), AI_PROVIDER: 'openai', OPENAI_BASE_URL: openai.url }).ai, noLocal),
      png,
      { visual: false },
    );
  });
});

describe('local provider (the offline engines)', () => {
  it('meets the same contract', { timeout: 120_000 }, async () => {
    const config = loadConfig({ DATA_DIR: '/tmp/atrium-unused', SESSION_SECRET: 'x'.repeat(32) }).ai;
    const providers = createAiProviders(config, () => loadLocalEngines(config));
    try {
      expect(providers.faceDetection.state()).toMatchObject({ status: 'ok', loaded: false });
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      await expectContract(providers, png, { visual: true });
      expect(providers.faceDetection.state()).toEqual({ status: 'ok', loaded: true });
      expect((await providers.speechToText.transcribe(makeWav(1))).RecognitionStatus).toBe('InitialSilenceTimeout');
    } finally {
      await providers.close();
    }
  });
});
