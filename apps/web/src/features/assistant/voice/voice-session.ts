import { PUBLIC_ENDPOINTS } from '@atrium/contracts/public-endpoints';
import { VOICE_COMMAND_RATE_MESSAGE } from '@atrium/contracts/texts';
import {
  VOICE_MESSAGES,
  VOICE_SETTINGS,
  microphoneErrorCode,
  pickVoice,
  respondToSpeech,
  voiceErrorMessage,
  type AssistantReply,
  type FileCommand,
} from '@atrium/assistant';
import type { AskResponse } from '@atrium/contracts';
import { toSpeechWav } from '../../../lib/audio/wav';
import { isApiError } from '../../../lib/api-error';
import { send } from '../../../lib/http';

/** The parts of the Web Speech API this module uses (not in every TypeScript DOM lib). */
interface RecognitionResultEvent {
  results: ArrayLike<ArrayLike<{ transcript: string }>>;
}
interface RecognitionErrorEvent {
  error: string;
}
interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: RecognitionResultEvent) => void) | null;
  onerror: ((event: RecognitionErrorEvent) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionConstructor = new () => Recognition;

export type VoiceState = 'idle' | 'listening' | 'transcribing';
export type VoiceTone = 'info' | 'heard' | 'reply' | 'error';

export interface VoiceCallbacks {
  onState(state: VoiceState): void;
  /** A line to show (and, for replies and errors, say); an answer from the files comes with its citations. */
  onMessage(text: string, tone: VoiceTone, ask?: AskResponse): void;
  onNavigate(path: string): void;
  /**
   * Runs a file command heard ("search files for …", "open …", "what is in …") as the signed-in user: what to say,
   * and where to go. Without it, the command's progress line is all that is said.
   */
  onFileCommand?(command: FileCommand): Promise<{ spoken: string; voiceNavigateTo?: string }>;
  /**
   * Asks the files a question no rule answers (docs/PRODUCT.md#ask-your-files); null when it may not (a visitor).
   * An answer without citations, or a failure, leaves the rule's reply in place, as in the chat.
   */
  onAsk?(question: string, signal: AbortSignal): Promise<AskResponse | null>;
}

/** Shown while a spoken question is looked up in the files. */
export const ASKING_FILES_MESSAGE = 'Looking in your files…';

/** What is said of an answer from the files: its text without the `[n]` citation marks (they are shown). */
export const spokenAnswer = (answer: string) =>
  answer
    .replace(/\s*\[\d+\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The server's speech-to-text for spoken commands (the Azure short-audio answer shape). Public and
 * rate-limited, so the assistant also works for visitors who are not signed in.
 */
const VOICE_COMMAND = PUBLIC_ENDPOINTS.assistant.voiceCommand;
/** Shown when the server refuses more commands for now (HTTP 429). */
export const TOO_MANY_COMMANDS_MESSAGE = VOICE_COMMAND_RATE_MESSAGE;

/**
 * Microphone settings for speech recognition: the browser's automatic gain control drives ordinary
 * speech into clipping (measured: a flite recording peaking at 0.43 came out of Chromium peaking at
 * 1.0 with an RMS of 0.26), and clipped audio is what the recogniser misreads; it normalises
 * loudness itself. Echo cancellation and noise suppression stay on.
 */
const SPEECH_CAPTURE: MediaTrackConstraints = { channelCount: 1, autoGainControl: false };

/** Recorder fallback: loudness above this counts as speech… */
const SPEECH_RMS = 0.015;
/** …and this much quiet after speech ends the utterance. */
const END_OF_SPEECH_SILENCE_MS = 1200;
/** The longest utterance recorded. */
const MAX_RECORDING_MS = 15_000;

/**
 * SpeechRecognition errors after which the recorder and the server's
 * speech-to-text are tried: offline ('network'), no vendor service, and
 * headless or sandboxed browsers whose recogniser cannot open the microphone
 * that getUserMedia can ('audio-capture'; a real microphone failure then fails again, with the message).
 */
const FALLBACK_ERRORS = new Set(['network', 'service-not-allowed', 'language-not-supported', 'audio-capture']);

const recognitionConstructor = (): RecognitionConstructor | undefined => {
  const scope = window as unknown as {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
};

const canRecord = () =>
  typeof MediaRecorder !== 'undefined' &&
  typeof navigator.mediaDevices?.getUserMedia === 'function' &&
  typeof AudioContext !== 'undefined';

/** Speaks a reply: rate 0.9, pitch 1.1, volume 1, a male en-US voice preferred. */
export function speak(text: string) {
  if (typeof window.speechSynthesis === 'undefined' || typeof SpeechSynthesisUtterance === 'undefined') return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = VOICE_SETTINGS.lang;
  utterance.rate = VOICE_SETTINGS.rate;
  utterance.pitch = VOICE_SETTINGS.pitch;
  utterance.volume = VOICE_SETTINGS.volume;
  const voice = pickVoice(window.speechSynthesis.getVoices());
  if (voice) utterance.voice = voice;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(utterance);
}

interface SpeechToTextAnswer {
  RecognitionStatus?: string;
  DisplayText?: string;
}

/**
 * One voice session at a time: click → listening; click again → stop.
 * Uses the browser's SpeechRecognition (en-US, not continuous, no interim
 * results); where it is missing or fails with a network error (always, offline),
 * records with MediaRecorder and asks the server's speech-to-text instead.
 */
export function createVoiceSession(
  callbacks: VoiceCallbacks,
  answer: (text: string) => AssistantReply = respondToSpeech,
) {
  let state: VoiceState = 'idle';
  let generation = 0;
  let heard = false;
  let recognition: Recognition | undefined;
  let recorder: MediaRecorder | undefined;
  let stream: MediaStream | undefined;
  let audioContext: AudioContext | undefined;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let meter: ReturnType<typeof setInterval> | undefined;
  let asking: AbortController | undefined;

  const setState = (next: VoiceState) => {
    state = next;
    callbacks.onState(next);
  };
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };
  const say = (text: string, tone: VoiceTone) => {
    callbacks.onMessage(text, tone);
    speak(text);
  };

  /** Releases the microphone, timers and recogniser; the session is idle again. */
  const teardown = () => {
    generation++;
    asking?.abort();
    asking = undefined;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    if (meter) clearInterval(meter);
    meter = undefined;
    if (recognition) {
      recognition.onresult = null;
      recognition.onerror = null;
      recognition.onend = null;
      try {
        recognition.abort();
      } catch {
        // already ended
      }
    }
    recognition = undefined;
    if (recorder && recorder.state !== 'inactive') {
      recorder.ondataavailable = null;
      recorder.onstop = null;
      recorder.stop();
    }
    recorder = undefined;
    stream?.getTracks().forEach((track) => track.stop());
    stream = undefined;
    void audioContext?.close().catch(() => undefined);
    audioContext = undefined;
    if (state !== 'idle') setState('idle');
  };

  const closeAfter = (ms: number) => {
    const current = generation;
    later(ms, () => {
      if (current === generation) teardown();
    });
  };

  const fail = (code: string) => {
    say(voiceErrorMessage(code), 'error');
    closeAfter(VOICE_SETTINGS.closeAfterErrorMs);
  };

  const handleTranscript = (transcript: string) => {
    callbacks.onMessage(`You said: "${transcript}"`, 'heard');
    const reply = answer(transcript);
    if (reply.fileCommand && callbacks.onFileCommand) return void answerFileCommand(reply.fileCommand, reply.text);
    if (reply.intent === 'unknown' && callbacks.onAsk) return void askFiles(transcript, reply.text);
    say(reply.text, 'reply');
    if (reply.navigateTo) callbacks.onNavigate(reply.navigateTo);
    closeAfter(VOICE_SETTINGS.closeAfterResultMs);
  };

  /** A file command: looked up as the signed-in user, then the short answer is said (and its page opened). */
  async function answerFileCommand(command: FileCommand, progress: string) {
    const current = generation;
    const run = callbacks.onFileCommand;
    if (!run) return;
    setState('transcribing');
    callbacks.onMessage(progress, 'info');
    let found: { spoken: string; voiceNavigateTo?: string };
    try {
      found = await run(command);
    } catch {
      if (current === generation) fail('server');
      return;
    }
    if (current !== generation) return;
    say(found.spoken, 'reply');
    if (found.voiceNavigateTo) callbacks.onNavigate(found.voiceNavigateTo);
    closeAfter(VOICE_SETTINGS.closeAfterResultMs);
  }

  /**
   * A question no rule answers, asked of the files: the answer is shown with its citations and said without the
   * citation marks; no answer from the files (a visitor, nothing cited, a failure) says the rule's reply.
   */
  async function askFiles(question: string, ruleReply: string) {
    const current = generation;
    const run = callbacks.onAsk;
    if (!run) return;
    setState('transcribing');
    callbacks.onMessage(ASKING_FILES_MESSAGE, 'info');
    const controller = new AbortController();
    asking = controller;
    let found: AskResponse | null;
    try {
      found = await run(question, controller.signal);
    } catch {
      found = null;
    }
    if (current !== generation) return;
    asking = undefined;
    if (found && found.citations.length > 0) {
      callbacks.onMessage(found.answer, 'reply', found);
      speak(spokenAnswer(found.answer));
    } else say(ruleReply, 'reply');
    closeAfter(VOICE_SETTINGS.closeAfterResultMs);
  }

  /** 5 s with nothing heard: say so and wait 5 s more; then end the session. */
  const startIdleTimers = (onGiveUp: () => void) => {
    const current = generation;
    later(VOICE_SETTINGS.idleTimeoutMs, () => {
      if (current !== generation || heard) return;
      say(VOICE_MESSAGES.stillWaiting, 'info');
      later(VOICE_SETTINGS.extraWaitMs, () => {
        if (current !== generation || heard) return;
        onGiveUp();
      });
    });
  };

  const giveUp = () => {
    say(VOICE_MESSAGES.noSpeech, 'error');
    teardown();
  };

  async function transcribe(recording: Blob) {
    const current = generation;
    setState('transcribing');
    callbacks.onMessage('Transcribing…', 'info');
    try {
      const wav = await toSpeechWav(recording);
      const response = await send(VOICE_COMMAND.path, {
        method: VOICE_COMMAND.method,
        headers: { 'content-type': 'audio/wav', accept: 'application/json' },
        body: wav,
      });
      if (current !== generation) return;
      if (response.status === 429) {
        say(TOO_MANY_COMMANDS_MESSAGE, 'error');
        return closeAfter(VOICE_SETTINGS.closeAfterErrorMs);
      }
      if (!response.ok) return fail('server');
      const result = (await response.json()) as SpeechToTextAnswer;
      if (current !== generation) return;
      const text = result.DisplayText?.trim();
      if (result.RecognitionStatus === 'Success' && text) handleTranscript(text);
      else fail('no-speech');
    } catch (error) {
      if (current !== generation) return;
      fail(isApiError(error) && error.code === 'NETWORK_ERROR' ? 'network' : 'server');
    }
  }

  async function startRecorder() {
    const current = generation;
    heard = false;
    if (state === 'idle') setState('listening');
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: SPEECH_CAPTURE });
    } catch (error) {
      if (current === generation)
        fail(microphoneErrorCode(error instanceof DOMException || error instanceof Error ? error.name : undefined));
      return;
    }
    if (current !== generation) {
      stream.getTracks().forEach((track) => track.stop());
      return;
    }
    const chunks: Blob[] = [];
    const activeRecorder = new MediaRecorder(stream);
    recorder = activeRecorder;
    activeRecorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    activeRecorder.onstop = () => {
      if (current !== generation) return;
      if (meter) clearInterval(meter);
      meter = undefined;
      stream?.getTracks().forEach((track) => track.stop());
      void transcribe(new Blob(chunks, { type: activeRecorder.mimeType }));
    };

    // A simple voice-activity detector: speech, then a pause, ends the utterance.
    audioContext = new AudioContext();
    const analyser = audioContext.createAnalyser();
    analyser.fftSize = 2048;
    audioContext.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const startedAt = performance.now();
    let lastVoiceAt = 0;
    meter = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      const rms = Math.sqrt(sum / samples.length);
      const now = performance.now();
      if (rms > SPEECH_RMS) {
        heard = true;
        lastVoiceAt = now;
      }
      const pauseAfterSpeech = heard && now - lastVoiceAt > END_OF_SPEECH_SILENCE_MS;
      if ((pauseAfterSpeech || now - startedAt > MAX_RECORDING_MS) && activeRecorder.state === 'recording') {
        activeRecorder.stop();
      }
    }, 100);

    activeRecorder.start();
    setState('listening');
    callbacks.onMessage(VOICE_MESSAGES.listening, 'info');
    startIdleTimers(giveUp);
  }

  function startBrowserRecognition(Constructor: RecognitionConstructor) {
    const current = generation;
    heard = false;
    const active = new Constructor();
    recognition = active;
    active.lang = VOICE_SETTINGS.lang;
    active.continuous = VOICE_SETTINGS.continuous;
    active.interimResults = VOICE_SETTINGS.interimResults;
    active.maxAlternatives = 1;
    active.onresult = (event) => {
      if (current !== generation) return;
      const transcript = event.results[0]?.[0]?.transcript.trim() ?? '';
      heard = true;
      if (transcript) handleTranscript(transcript);
      else fail('no-speech');
    };
    active.onerror = (event) => {
      if (current !== generation) return;
      if (event.error === 'aborted') return;
      if (FALLBACK_ERRORS.has(event.error) && canRecord()) {
        // Offline, or the browser's speech service cannot work here: record and use the server's speech-to-text.
        active.onresult = null;
        active.onerror = null;
        active.onend = null;
        recognition = undefined;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        void startRecorder();
        return;
      }
      heard = true;
      fail(event.error);
    };
    active.onend = () => {
      // Not continuous: the browser may end before our 10 s are up; listen again meanwhile.
      if (current !== generation || heard || recognition !== active) return;
      try {
        active.start();
      } catch {
        // cannot restart: the idle timers end the session
      }
    };
    try {
      active.start();
    } catch {
      fail('start');
      return;
    }
    setState('listening');
    callbacks.onMessage(VOICE_MESSAGES.listening, 'info');
    startIdleTimers(giveUp);
  }

  return {
    get state() {
      return state;
    },
    /** Click: start listening, or stop when already listening. */
    toggle() {
      if (state !== 'idle') {
        // Clicking while listening stops it; a recording made so far is still transcribed.
        if (state === 'listening' && recorder?.state === 'recording' && heard) {
          recorder.stop();
          return;
        }
        teardown();
        callbacks.onMessage('Stopped listening.', 'info');
        return;
      }
      generation++;
      const Constructor = recognitionConstructor();
      if (Constructor) startBrowserRecognition(Constructor);
      else if (canRecord()) void startRecorder();
      else say(VOICE_MESSAGES.unsupported, 'error');
    },
    dispose: teardown,
  };
}

export type VoiceSession = ReturnType<typeof createVoiceSession>;
