import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWav, startFakeOpenAi, type FakeServer } from '../../../test/fake-ai';
import { createAiApiKey, readError, startTestServer, type TestServer } from '../../../test/helpers';
import { VOICE_COMMAND_PATH } from './ai.routes';

/** Offsets in the fmt chunk of the WAV files `makeWav` writes (RIFF header, then "fmt "). */
const FMT = { sampleRate: 24, byteRate: 28, blockAlign: 32 };

/** A copy of `wav` with one header field rewritten. */
function withHeader(wav: Buffer, field: keyof typeof FMT, value: number): Buffer {
  const copy = Buffer.from(wav);
  if (field === 'blockAlign') copy.writeUInt16LE(value, FMT[field]);
  else copy.writeUInt32LE(value, FMT[field]);
  return copy;
}

/**
 * Audio length limits hold whatever the WAV header claims: the length is computed from the
 * audio bytes present, and a header whose fields disagree with each other is refused.
 * Speech-to-text is the OpenAI-compatible provider pointed at a fake, which counts what reaches it.
 */
describe('WAV headers that lie', () => {
  let openai: FakeServer;
  let server: TestServer;
  let alice: string;
  let apiKey: string;

  beforeAll(async () => {
    openai = await startFakeOpenAi();
    server = await startTestServer({
      env: {
        AI_SPEECH_TO_TEXT_PROVIDER: 'openai',
        OPENAI_BASE_URL: openai.url,
        AI_VOICE_COMMANDS_PER_MINUTE: '1000',
        AI_MAX_AUDIO_SECONDS: '5',
      },
    });
    alice = await server.signInAs({ owner_key: 'alice' });
    apiKey = await createAiApiKey(server);
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });

  const voiceCommand = (wav: Buffer) =>
    server.fetch(VOICE_COMMAND_PATH, { method: 'POST', headers: { 'content-type': 'audio/wav' }, body: wav });
  const speechToText = (wav: Buffer) =>
    server.fetch('/api/ai/speech-to-text', {
      method: 'POST',
      headers: { cookie: alice, 'content-type': 'audio/wav' },
      body: wav,
    });
  const transcription = (wav: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([wav], { type: 'audio/wav' }), 'a.wav');
    form.append('model', 'whisper-1');
    return server.fetch('/v1/audio/transcriptions', {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    });
  };

  it('refuses 30 s of audio whose header claims a huge byte rate on the public voice command', async () => {
    const before = openai.requests.length;
    const lying = withHeader(makeWav(30), 'byteRate', 0xffffffff);
    const response = await voiceCommand(lying);
    expect(response.status).toBe(400);
    expect(await readError(response)).toMatchObject({
      code: 'INVALID_MEDIA',
      message: 'The WAV file could not be read. It may be damaged.',
    });
    expect(openai.requests.length).toBe(before);
  });

  it('refuses headers whose block alignment, byte rate and sample rate disagree, and counts the real length', async () => {
    const before = openai.requests.length;
    const wav = makeWav(30);
    // Every field consistent with the others but the sample rate: the length follows from the bytes.
    const consistentButLong = withHeader(withHeader(wav, 'sampleRate', 24000), 'byteRate', 48000);
    for (const [route, send] of [
      ['voice command', voiceCommand],
      ['speech-to-text', speechToText],
      ['transcriptions', transcription],
    ] as const) {
      for (const lying of [
        withHeader(wav, 'byteRate', 0xffffffff),
        withHeader(wav, 'byteRate', 32000 * 8),
        withHeader(withHeader(wav, 'blockAlign', 64), 'byteRate', 16000 * 64),
      ]) {
        const response = await send(lying);
        expect({ route, status: response.status }).toEqual({ route, status: 400 });
      }
      const long = await send(consistentButLong);
      expect({ route, status: long.status }).toEqual({ route, status: 413 });
      // AI_MAX_AUDIO_SECONDS (5) is below the voice command's own 20 s, so it applies to all three.
      expect(JSON.stringify(await long.json())).toContain('The audio is 20.0 seconds long; the limit is 5 seconds.');
    }
    expect(openai.requests.length).toBe(before);
  });

  it('still accepts an honest recording', async () => {
    expect((await voiceCommand(makeWav(2))).status).toBe(200);
    expect((await speechToText(makeWav(2))).status).toBe(200);
    expect((await transcription(makeWav(2))).status).toBe(200);
  });
});
