/** The voice assistant's constants and messages (docs/PRODUCT.md#voice-assistant). */
export const VOICE_SETTINGS = {
  lang: 'en-US',
  continuous: false,
  interimResults: false,
  rate: 0.9,
  pitch: 1.1,
  volume: 1,
  /** With nothing heard for this long, it says it is waiting once more. */
  idleTimeoutMs: 5000,
  /** …and after this further wait, it ends the session. */
  extraWaitMs: 5000,
  /** The session closes this long after a result… */
  closeAfterResultMs: 100,
  /** …and this long after an error. */
  closeAfterErrorMs: 1000,
} as const;

export const VOICE_MESSAGES = {
  unsupported: 'Voice recognition is not supported in your browser.',
  noSpeech: 'I did not hear anything. Please try again and speak clearly.',
  network: 'Network error. Please check your connection and try again.',
  other: 'Voice recognition error. Please try again.',
  /** Added: no microphone (SpeechRecognition `audio-capture`, getUserMedia `NotFoundError`). */
  noMicrophone:
    'No microphone was found. Connect a microphone (or check that your system lets the browser use it) and try again.',
  /** Added: the user or the browser refused the microphone (`not-allowed`, `NotAllowedError`). */
  microphoneBlocked:
    "Microphone access is blocked. Allow it in your browser's site settings (the icon left of the address bar) and try again.",
  stillWaiting: 'I am still listening. I will wait another 5 seconds.',
  listening: 'Listening… say a command, for example "open files".',
} as const;

/**
 * The message for a SpeechRecognition error code (`no-speech`, `network`, `not-allowed`, `audio-capture`,
 * anything else).
 */
export function voiceErrorMessage(code: string): string {
  if (code === 'no-speech') return VOICE_MESSAGES.noSpeech;
  if (code === 'network') return VOICE_MESSAGES.network;
  if (code === 'not-supported') return VOICE_MESSAGES.unsupported;
  if (code === 'not-allowed') return VOICE_MESSAGES.microphoneBlocked;
  if (code === 'audio-capture') return VOICE_MESSAGES.noMicrophone;
  return VOICE_MESSAGES.other;
}

/**
 * The SpeechRecognition error code that matches a `getUserMedia` failure (its DOMException `name`), so
 * both ways of listening explain a missing or blocked microphone the same way.
 */
export function microphoneErrorCode(errorName: string | undefined): string {
  switch (errorName) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError': // older Chromium
      return 'not-allowed';
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'DevicesNotFoundError': // older Chromium
      return 'audio-capture';
    default:
      return 'microphone';
  }
}

/** The fields of SpeechSynthesisVoice the choice looks at. */
export interface VoiceLike {
  name: string;
  lang: string;
  default?: boolean;
}

const MALE_NAMES =
  /\b(male|man|david|daniel|alex|fred|george|mark|guy|james|john|tom|thomas|aaron|arthur|rishi|bruce|ralph|eddy|reed|rocko|grandpa)\b/i;
const FEMALE_NAMES =
  /\b(female|woman|zira|samantha|susan|victoria|karen|moira|tessa|fiona|hazel|aria|jenny|linda|heather|catherine|allison|ava|serena|kate|flo|sandy|shelley|grandma)\b/i;

/**
 * A male voice is preferred, with fallbacks: a male en-US voice, then a male
 * English one, then any en-US voice not known to be female, any en-US voice,
 * any English voice, the default voice, and finally none (the browser's own).
 */
export function pickVoice<T extends VoiceLike>(voices: readonly T[]): T | undefined {
  const isEnUs = (voice: T) => voice.lang.replace('_', '-').toLowerCase() === 'en-us';
  const isEnglish = (voice: T) => voice.lang.toLowerCase().startsWith('en');
  const isMale = (voice: T) => MALE_NAMES.test(voice.name) && !FEMALE_NAMES.test(voice.name);
  return (
    voices.find((voice) => isEnUs(voice) && isMale(voice)) ??
    voices.find((voice) => isEnglish(voice) && isMale(voice)) ??
    voices.find((voice) => isEnUs(voice) && !FEMALE_NAMES.test(voice.name)) ??
    voices.find(isEnUs) ??
    voices.find(isEnglish) ??
    voices.find((voice) => voice.default) ??
    voices[0]
  );
}
