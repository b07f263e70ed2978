import { afterEach, describe, expect, it, vi } from 'vitest';
import { createVoiceSession, type VoiceTone } from './voice-session';

const BLOCKED =
  "Microphone access is blocked. Allow it in your browser's site settings (the icon left of the address bar) and try again.";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A session whose messages are collected; the browser offers what `globals` stubs. */
function session(globals: Record<string, unknown>) {
  for (const [name, value] of Object.entries(globals)) vi.stubGlobal(name, value);
  const messages: { text: string; tone: VoiceTone }[] = [];
  const voice = createVoiceSession({
    onState: () => {},
    onMessage: (text, tone) => messages.push({ text, tone }),
    onNavigate: () => {},
  });
  return { voice, errors: () => messages.filter((m) => m.tone === 'error').map((m) => m.text) };
}

/** A recorder-capable browser (no SpeechRecognition) whose getUserMedia fails with `name`. */
const recorderFailingWith = (name: string) => ({
  MediaRecorder: function MediaRecorder() {},
  AudioContext: function AudioContext() {},
  navigator: {
    ...navigator,
    mediaDevices: { getUserMedia: () => Promise.reject(new DOMException('no', name)) },
  },
});

/** A browser with SpeechRecognition only, whose recogniser fails with `code`. */
function recognitionFailingWith(code: string) {
  class Recognition {
    onerror: ((event: { error: string }) => void) | null = null;
    onresult = null;
    onend = null;
    start() {
      queueMicrotask(() => this.onerror?.({ error: code }));
    }
    stop() {}
    abort() {}
  }
  return { SpeechRecognition: Recognition, MediaRecorder: undefined };
}

describe('voice session: a missing or blocked microphone', () => {
  it('getUserMedia NotFoundError says no microphone was found', async () => {
    const { voice, errors } = session(recorderFailingWith('NotFoundError'));
    voice.toggle();
    await vi.waitFor(() => expect(errors()).toHaveLength(1));
    expect(errors()[0]).toMatch(/^No microphone was found\./);
  });

  it('getUserMedia NotAllowedError says access is blocked and how to allow it', async () => {
    const { voice, errors } = session(recorderFailingWith('NotAllowedError'));
    voice.toggle();
    await vi.waitFor(() => expect(errors()).toEqual([BLOCKED]));
  });

  it("SpeechRecognition's not-allowed and audio-capture errors say the same", async () => {
    const blocked = session(recognitionFailingWith('not-allowed'));
    blocked.voice.toggle();
    await vi.waitFor(() => expect(blocked.errors()).toEqual([BLOCKED]));
    blocked.voice.dispose();

    const missing = session(recognitionFailingWith('audio-capture'));
    missing.voice.toggle();
    await vi.waitFor(() => expect(missing.errors()).toHaveLength(1));
    expect(missing.errors()[0]).toMatch(/^No microphone was found\./);
    missing.voice.dispose();
  });

  it("keeps the spec's message for other errors", async () => {
    const { voice, errors } = session(recognitionFailingWith('bad-grammar'));
    voice.toggle();
    await vi.waitFor(() => expect(errors()).toEqual(['Voice recognition error. Please try again.']));
    voice.dispose();
  });
});

/** A browser whose SpeechRecognition hears `transcript`. */
function recognitionHearing(transcript: string) {
  class Recognition {
    onerror = null;
    onresult: ((event: { results: { transcript: string }[][] }) => void) | null = null;
    onend = null;
    start() {
      queueMicrotask(() => this.onresult?.({ results: [[{ transcript }]] }));
    }
    stop() {}
    abort() {}
  }
  return { SpeechRecognition: Recognition, MediaRecorder: undefined };
}

describe('voice session: file commands', () => {
  it('runs a spoken file command, says the short answer and opens where it leads', async () => {
    for (const [name, value] of Object.entries(recognitionHearing('search files for zebrafish'))) {
      vi.stubGlobal(name, value);
    }
    const messages: { text: string; tone: VoiceTone }[] = [];
    const navigations: string[] = [];
    const commands: unknown[] = [];
    const voice = createVoiceSession({
      onState: () => {},
      onMessage: (text, tone) => messages.push({ text, tone }),
      onNavigate: (path) => navigations.push(path),
      onFileCommand: async (command) => {
        commands.push(command);
        return {
          spoken: 'I found 2 files for “zebrafish”. The first is notes.txt.',
          voiceNavigateTo: '/dashboard/search?q=zebrafish',
        };
      },
    });
    voice.toggle();
    await vi.waitFor(() => expect(navigations).toEqual(['/dashboard/search?q=zebrafish']));
    expect(commands).toEqual([{ kind: 'search', query: 'zebrafish' }]);
    expect(messages.map((message) => [message.tone, message.text])).toEqual([
      ['info', 'Listening… say a command, for example "open files".'],
      ['heard', 'You said: "search files for zebrafish"'],
      ['info', 'Searching your files for “zebrafish”…'],
      ['reply', 'I found 2 files for “zebrafish”. The first is notes.txt.'],
    ]);
    voice.dispose();
  });
});
