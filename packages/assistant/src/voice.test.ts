import { describe, expect, it } from 'vitest';
import { VOICE_MESSAGES, VOICE_SETTINGS, microphoneErrorCode, pickVoice, voiceErrorMessage } from './voice';

describe('voice constants', () => {
  it('matches docs/PRODUCT.md#constants', () => {
    const { lang, continuous, interimResults, rate, pitch, volume } = VOICE_SETTINGS;
    // voice idle wait, further wait: 5 s, 5 s
    expect([VOICE_SETTINGS.idleTimeoutMs, VOICE_SETTINGS.extraWaitMs]).toEqual([5000, 5000]);
    // voice session closes after a reply, after an error: 100 ms, 1 s
    expect([VOICE_SETTINGS.closeAfterResultMs, VOICE_SETTINGS.closeAfterErrorMs]).toEqual([100, 1000]);
    // voice speech: en-US, not continuous, no interim results; rate 0.9, pitch 1.1, volume 1
    expect([lang, continuous, interimResults]).toEqual(['en-US', false, false]);
    expect([rate, pitch, volume]).toEqual([0.9, 1.1, 1]);
  });

  it('maps recognition errors to the messages of docs/PRODUCT.md#voice-messages', () => {
    expect(voiceErrorMessage('no-speech')).toBe('I did not hear anything. Please try again and speak clearly.');
    expect(voiceErrorMessage('network')).toBe('Network error. Please check your connection and try again.');
    expect(voiceErrorMessage('aborted-by-service')).toBe('Voice recognition error. Please try again.');
    expect(VOICE_MESSAGES.unsupported).toBe('Voice recognition is not supported in your browser.');
  });

  it('says that the microphone is missing or blocked, and how to allow it', () => {
    expect(voiceErrorMessage('audio-capture')).toMatch(/^No microphone was found\./);
    expect(voiceErrorMessage('not-allowed')).toBe(
      "Microphone access is blocked. Allow it in your browser's site settings (the icon left of the address bar) and try again.",
    );
    expect(voiceErrorMessage(microphoneErrorCode('NotFoundError'))).toBe(voiceErrorMessage('audio-capture'));
    expect(voiceErrorMessage(microphoneErrorCode('NotAllowedError'))).toBe(voiceErrorMessage('not-allowed'));
    expect(voiceErrorMessage(microphoneErrorCode('NotReadableError'))).toBe(
      'Voice recognition error. Please try again.',
    );
  });
});

describe('pickVoice', () => {
  const zira = { name: 'Microsoft Zira - English (United States)', lang: 'en-US' };
  const david = { name: 'Microsoft David - English (United States)', lang: 'en-US' };
  const daniel = { name: 'Daniel', lang: 'en-GB' };
  const samantha = { name: 'Samantha', lang: 'en-US' };
  const neutral = { name: 'English (America)', lang: 'en_US' };
  const french = { name: 'Thomas', lang: 'fr-FR', default: true };
  const german = { name: 'Anna', lang: 'de-DE', default: true };

  it('prefers a male en-US voice', () => {
    expect(pickVoice([zira, daniel, david])).toBe(david);
  });
  it('then a male English voice', () => {
    expect(pickVoice([zira, daniel])).toBe(daniel);
  });
  it('then an en-US voice not known to be female', () => {
    expect(pickVoice([samantha, neutral])).toBe(neutral);
  });
  it('then any en-US voice, then the default, then none', () => {
    expect(pickVoice([german, samantha])).toBe(samantha);
    expect(pickVoice([{ name: 'Anna', lang: 'de-DE' }, german])).toBe(german);
    expect(pickVoice([french])).toBe(french);
    expect(pickVoice([])).toBeUndefined();
  });
});
