import { z } from 'zod';
import type { AiConfig } from '../../config';
import { ssmlToText, wavSeconds } from './media';
import { callUpstream, upstreamJson } from './remote';
import type { SpeechToTextProvider, TextToSpeechProvider } from './types';

type OpenAiConfig = NonNullable<AiConfig['openai']>;
const ready = () => ({ status: 'ok' as const, message: 'OpenAI-compatible server' });
const authorization = (config: OpenAiConfig): Record<string, string> =>
  config.apiKey ? { Authorization: `Bearer ${config.apiKey}` } : {};

const Transcription = z.object({ text: z.string() });
const TICKS_PER_SECOND = 10_000_000;

/**
 * Any OpenAI-compatible transcription server (OpenAI, whisper.cpp server,
 * LocalAI, …): multipart `file` + `model`, answer `{ text }`, mapped to
 * Azure's short-audio shape (Offset 0, Duration = the audio's length).
 */
export function createOpenAiSpeechToText(config: OpenAiConfig, timeoutMs: number): SpeechToTextProvider {
  return {
    name: 'openai',
    state: ready,
    async transcribe(wav) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'audio.wav');
      form.append('model', config.sttModel);
      form.append('response_format', 'json');
      form.append('language', 'en');
      const response = await callUpstream(
        'speechToText',
        'openai',
        `${config.baseUrl}/v1/audio/transcriptions`,
        { method: 'POST', headers: authorization(config), body: form },
        timeoutMs,
      );
      const { text } = await upstreamJson(response, (value) => Transcription.safeParse(value), 'Speech to text');
      const displayText = text.trim();
      const seconds = wavSeconds(wav);
      return {
        RecognitionStatus: displayText ? 'Success' : 'NoMatch',
        DisplayText: displayText,
        Offset: 0,
        Duration: Math.round(seconds * TICKS_PER_SECOND),
      };
    },
  };
}

/**
 * OpenAI-compatible speech: JSON `{ model, input, voice, response_format: 'mp3' }`.
 * SSML is reduced to its text (these servers do not read SSML). The MP3 is
 * returned as the server made it (its sample rate and bit rate).
 */
export function createOpenAiTextToSpeech(config: OpenAiConfig, timeoutMs: number): TextToSpeechProvider {
  return {
    name: 'openai',
    state: ready,
    async synthesize(input) {
      const text = input.ssml !== undefined ? ssmlToText(input.ssml) : (input.text ?? '');
      const response = await callUpstream(
        'textToSpeech',
        'openai',
        `${config.baseUrl}/v1/audio/speech`,
        {
          method: 'POST',
          headers: { ...authorization(config), 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: config.ttsModel, input: text, voice: config.voice, response_format: 'mp3' }),
        },
        timeoutMs,
      );
      return Buffer.from(await response.arrayBuffer());
    },
  };
}
