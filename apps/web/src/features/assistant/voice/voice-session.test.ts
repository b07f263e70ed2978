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

describe('voice session: questions no rule answers go to the files', () => {
  const ANSWER = {
    answer: 'Either party may terminate it with ninety days written notice [1].',
    citations: [
      {
        n: 1,
        fileId: 'f1',
        fileName: 'supplier contract.txt',
        text: 'Either party may terminate the supplier contract with ninety days written notice.',
        highlights: [],
      },
    ],
  };

  /** A session hearing `transcript` whose Ask answers `found`; what it shows and says is collected. */
  function asking(transcript: string, found: () => Promise<unknown>) {
    for (const [name, value] of Object.entries(recognitionHearing(transcript))) vi.stubGlobal(name, value);
    const said: string[] = [];
    vi.stubGlobal('SpeechSynthesisUtterance', function Utterance(this: { text: string }, text: string) {
      this.text = text;
    });
    vi.stubGlobal('speechSynthesis', {
      getVoices: () => [],
      cancel: () => {},
      speak: (utterance: { text: string }) => said.push(utterance.text),
    });
    const messages: { text: string; tone: VoiceTone; cited?: string[] }[] = [];
    const questions: string[] = [];
    const states: string[] = [];
    const voice = createVoiceSession({
      onState: (state) => states.push(state),
      onMessage: (text, tone, ask) =>
        messages.push({ text, tone, ...(ask ? { cited: ask.citations.map((c) => c.fileName) } : {}) }),
      onNavigate: () => {},
      onAsk: async (question) => {
        questions.push(question);
        return (await found()) as never;
      },
    });
    return { voice, said, messages, questions, states };
  }

  it('shows the answer with its citations and says it without the citation marks', async () => {
    const { voice, said, messages, questions, states } = asking('how can the supplier contract be ended', async () =>
      structuredClone(ANSWER),
    );
    voice.toggle();
    await vi.waitFor(() => expect(said).toHaveLength(1));
    expect(questions).toEqual(['how can the supplier contract be ended']);
    expect(messages.slice(1)).toEqual([
      { text: 'You said: "how can the supplier contract be ended"', tone: 'heard' },
      { text: 'Looking in your files…', tone: 'info' },
      { text: ANSWER.answer, tone: 'reply', cited: ['supplier contract.txt'] },
    ]);
    expect(said).toEqual(['Either party may terminate it with ninety days written notice.']);
    expect(states).toContain('transcribing');
    await vi.waitFor(() => expect(states.at(-1)).toBe('idle'));
  });

  it("says the spec's reply when the files have no answer, Ask fails, or the question has a rule", async () => {
    const UNKNOWN = 'Sorry, I did not understand that command. Try saying help to see available commands';
    for (const found of [
      async () => ({ answer: 'I found nothing about that in your files.', citations: [] }),
      async () => null,
      async () => {
        throw new Error('503');
      },
    ]) {
      const { voice, said, messages } = asking('make me a sandwich', found);
      voice.toggle();
      await vi.waitFor(() => expect(said).toEqual([UNKNOWN]));
      expect(messages.at(-1)).toEqual({ text: UNKNOWN, tone: 'reply' });
      voice.dispose();
      vi.unstubAllGlobals();
    }
    const { voice, said, questions } = asking('who is the owner', async () => structuredClone(ANSWER));
    voice.toggle();
    await vi.waitFor(() => expect(said).toEqual(['Atrium is owned and maintained by the Atrium team.']));
    expect(questions).toEqual([]);
    voice.dispose();
  });

  it('clicking while the files are asked stops the question', async () => {
    let aborted = false;
    for (const [name, value] of Object.entries(recognitionHearing('what did the board decide'))) {
      vi.stubGlobal(name, value);
    }
    const messages: string[] = [];
    const voice = createVoiceSession({
      onState: () => {},
      onMessage: (text) => messages.push(text),
      onNavigate: () => {},
      onAsk: (_question, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
    });
    voice.toggle();
    await vi.waitFor(() => expect(messages).toContain('Looking in your files…'));
    expect(voice.state).toBe('transcribing');
    voice.toggle();
    expect(aborted).toBe(true);
    expect(voice.state).toBe('idle');
    expect(messages.at(-1)).toBe('Stopped listening.');
  });
});
