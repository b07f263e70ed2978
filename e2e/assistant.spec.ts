import type { Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from './playwright.config';
import { expect, test } from './fixtures';
import { open } from './ready';

const signInAsAdmin = async (page: Page) => {
  const response = await page.request.post('/api/auth/login', {
    data: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  expect(response.status()).toBe(200);
};

const UNKNOWN = 'Sorry, I did not understand that command. Try saying help to see available commands';

test.describe('chat', () => {
  test('the overlay on public pages: quick commands, typed text, minimise, close', async ({ page }) => {
    await open(page, '/about');
    await page.getByRole('button', { name: 'Open the chat assistant' }).click();
    const chat = page.getByRole('region', { name: 'Chat with the Atrium assistant' });
    await expect(chat).toBeVisible();
    const quick = chat.getByRole('list', { name: 'Quick commands' }).getByRole('button');
    await expect(quick).toHaveCount(6);

    const log = chat.getByRole('list', { name: 'Conversation' });
    const typing = chat.getByTestId('typing-indicator');
    await chat.getByRole('button', { name: 'Who is the owner?' }).click();
    await expect(log.locator('[data-sender="bot"]').last()).toContainText(
      'Atrium is owned and maintained by the Atrium team.',
    );
    await expect(typing).toBeHidden();
    await expect(page.getByText('Response received!').first()).toBeVisible();

    await chat.getByRole('button', { name: 'When was it created?' }).click();
    await expect(log.locator('[data-sender="bot"]').last()).toContainText('28 April 2025');

    const input = chat.getByLabel('Message');
    const send = chat.getByRole('button', { name: 'Send' });
    await expect(send).toBeDisabled();
    await input.fill('   ');
    await expect(send).toBeDisabled();
    await input.fill('what is the weather');
    await expect(send).toBeEnabled();
    await send.click();
    await expect(input).toHaveValue('');
    await expect(log.locator('[data-sender="user"]').last()).toHaveText('You: what is the weather');
    await expect(log.locator('[data-sender="bot"]').last()).toHaveText(`Assistant: ${UNKNOWN}`);

    await chat.getByRole('button', { name: 'Minimise chat' }).click();
    await expect(log).toBeHidden();
    await chat.getByRole('button', { name: 'Expand chat' }).click();
    await expect(log).toBeVisible();
    // The conversation survives minimising.
    await expect(log.locator('[data-sender="bot"]').last()).toContainText('Sorry');

    await input.fill('go to pricing');
    await input.press('Enter');
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(chat).toBeVisible();

    await chat.getByRole('button', { name: 'Close chat' }).click();
    await expect(chat).toBeHidden();
  });

  test('replies come after 600 ms for quick commands and 800 ms for typed text', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-03-02T09:00:00') });
    await open(page, '/');
    await page.getByRole('button', { name: 'Open the chat assistant' }).click();
    const chat = page.getByRole('region', { name: 'Chat with the Atrium assistant' });
    await expect(chat).toBeVisible();
    await page.clock.pauseAt(new Date('2026-03-02T10:00:00'));
    const bots = chat.locator('[data-sender="bot"]');
    const typing = chat.getByTestId('typing-indicator');

    await chat.getByRole('button', { name: 'Say hello' }).click();
    await expect(typing).toBeVisible();
    await page.clock.runFor(599);
    await expect(typing).toBeVisible();
    await expect(bots).toHaveCount(1);
    await page.clock.runFor(1);
    await expect(bots).toHaveCount(2);
    await expect(typing).toBeHidden();
    // The greeting follows the user's local time (10:00 → morning).
    await expect(bots.last()).toContainText('Good Morning! I am the Atrium assistant');

    await chat.getByLabel('Message').fill('hello');
    await chat.getByRole('button', { name: 'Send' }).click();
    await expect(typing).toBeVisible();
    await page.clock.runFor(799);
    await expect(typing).toBeVisible();
    await expect(bots).toHaveCount(2);
    await page.clock.runFor(1);
    await expect(bots).toHaveCount(3);
    await expect(typing).toBeHidden();
  });

  test('on the dashboard the chat icon opens /dashboard/chatbot, and commands navigate', async ({ page }) => {
    await signInAsAdmin(page);
    await open(page, '/dashboard');
    await page.getByRole('link', { name: 'Open the chat assistant' }).click();
    await expect(page).toHaveURL(/\/dashboard\/chatbot$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('AI Assistant');
    const chat = page.getByRole('region', { name: 'Chat with the Atrium assistant' });
    await chat.getByRole('button', { name: 'Help' }).click();
    await expect(chat.locator('[data-sender="bot"]').last()).toContainText('I can open any page for you');
    await chat.getByLabel('Message').fill('take me to speech to text');
    await chat.getByRole('button', { name: 'Send' }).click();
    await expect(page).toHaveURL(/\/dashboard\/speech-to-text$/);
    await page.goBack();
    await page
      .getByRole('region', { name: 'Chat with the Atrium assistant' })
      .getByRole('button', { name: 'Open files' })
      .click();
    await expect(page).toHaveURL(/\/dashboard\/files$/);
  });
});

/**
 * A scripted SpeechRecognition, installed before the page's scripts. Each
 * instance records its settings and follows window.__voiceScript:
 * { kind: 'result', transcript } | { kind: 'error', error } | { kind: 'silent' }.
 * speechSynthesis.speak is recorded too.
 */
function installFakeVoice() {
  type Script = { kind: 'result'; transcript: string } | { kind: 'error'; error: string } | { kind: 'silent' };
  const w = window as unknown as Record<string, unknown> & {
    __voiceScript: Script;
    __recognitions: Record<string, unknown>[];
    __spoken: Record<string, unknown>[];
  };
  w.__voiceScript = { kind: 'silent' };
  w.__recognitions = [];
  w.__spoken = [];
  class FakeRecognition {
    lang = '';
    continuous = true;
    interimResults = true;
    maxAlternatives = 5;
    onresult: ((event: unknown) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    onend: (() => void) | null = null;
    record: Record<string, unknown> = { started: 0, aborted: 0 };
    constructor() {
      w.__recognitions.push(this.record);
    }
    start() {
      Object.assign(this.record, {
        started: (this.record.started as number) + 1,
        lang: this.lang,
        continuous: this.continuous,
        interimResults: this.interimResults,
      });
      const script = w.__voiceScript;
      if (script.kind === 'silent') return;
      setTimeout(() => {
        if (script.kind === 'result') this.onresult?.({ results: [[{ transcript: script.transcript }]] });
        else this.onerror?.({ error: script.error });
        this.onend?.();
      }, 200);
    }
    stop() {
      this.onend?.();
    }
    abort() {
      this.record.aborted = (this.record.aborted as number) + 1;
    }
  }
  w.SpeechRecognition = FakeRecognition;
  w.webkitSpeechRecognition = FakeRecognition;
  window.speechSynthesis.speak = (utterance: SpeechSynthesisUtterance) => {
    w.__spoken.push({
      text: utterance.text,
      lang: utterance.lang,
      rate: utterance.rate,
      pitch: utterance.pitch,
      volume: utterance.volume,
    });
  };
}

const setScript = (page: Page, script: unknown) =>
  page.evaluate((value) => {
    (window as unknown as { __voiceScript: unknown }).__voiceScript = value;
  }, script);
const spoken = (page: Page) =>
  page.evaluate(() => (window as unknown as { __spoken: { text: string }[] }).__spoken.map((entry) => entry.text));

test.describe('voice (scripted SpeechRecognition)', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(installFakeVoice);
  });

  test('a result runs the command, speaks the reply and ends', async ({ page }) => {
    await open(page, '/');
    const mic = page.getByRole('button', { name: 'Start voice assistant' });
    await setScript(page, { kind: 'result', transcript: 'go to pricing' });
    await mic.click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByTestId('voice-message')).toHaveText('Opening Pricing.');
    const button = page.getByRole('button', { name: /voice assistant|Stop listening/ });
    await expect(button).toHaveAttribute('data-state', 'idle');
    const recognitions = await page.evaluate(() => (window as unknown as { __recognitions: unknown[] }).__recognitions);
    expect(recognitions).toEqual([
      expect.objectContaining({ lang: 'en-US', continuous: false, interimResults: false, started: 1 }),
    ]);
    const utterances = await page.evaluate(() => (window as unknown as { __spoken: unknown[] }).__spoken);
    expect(utterances).toHaveLength(1);
    const [utterance] = utterances as { text: string; lang: string; rate: number; pitch: number; volume: number }[];
    expect(utterance).toMatchObject({ text: 'Opening Pricing.', lang: 'en-US', volume: 1 });
    // SpeechSynthesisUtterance stores floats: 0.9 and 1.1 come back as their nearest float32.
    expect(utterance?.rate).toBeCloseTo(0.9, 5);
    expect(utterance?.pitch).toBeCloseTo(1.1, 5);

    await setScript(page, { kind: 'result', transcript: 'when were you launched' });
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByTestId('voice-message')).toHaveText('Atrium was created and launched on 28 April 2025.');
    await setScript(page, { kind: 'result', transcript: 'make me a sandwich' });
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByTestId('voice-message')).toHaveText(UNKNOWN);
    expect(await spoken(page)).toContain(UNKNOWN);
  });

  test('the session ends 100 ms after a result', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-03-02T09:00:00') });
    await open(page, '/');
    await expect(page.getByRole('button', { name: 'Start voice assistant' })).toBeVisible();
    await page.clock.pauseAt(new Date('2026-03-02T19:00:00'));
    await setScript(page, { kind: 'result', transcript: 'hello' });
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByRole('button', { name: 'Stop listening' })).toBeVisible();
    await page.clock.runFor(200);
    await expect(page.getByTestId('voice-message')).toHaveText(
      'Good Evening! I am the Atrium assistant. How can I help you today?',
    );
    await page.clock.runFor(99);
    await expect(page.getByRole('button', { name: 'Stop listening' })).toHaveAttribute('data-state', 'listening');
    await page.clock.runFor(1);
    await expect(page.getByRole('button', { name: 'Start voice assistant' })).toHaveAttribute('data-state', 'idle');
  });

  test('nothing heard: it says it waits 5 s more, then ends', async ({ page }) => {
    await page.clock.install({ time: new Date('2026-03-02T09:00:00') });
    await open(page, '/');
    await expect(page.getByRole('button', { name: 'Start voice assistant' })).toBeVisible();
    await page.clock.pauseAt(new Date('2026-03-02T10:00:00'));
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    const stop = page.getByRole('button', { name: 'Stop listening' });
    await expect(stop).toHaveAttribute('data-state', 'listening');
    const message = page.getByTestId('voice-message');
    await expect(message).toContainText('Listening');
    await page.clock.runFor(4900);
    await expect(message).toContainText('Listening');
    await page.clock.runFor(200);
    await expect(message).toHaveText('I am still listening. I will wait another 5 seconds.');
    await expect(stop).toHaveAttribute('data-state', 'listening');
    await page.clock.runFor(5000);
    await expect(message).toHaveText('I did not hear anything. Please try again and speak clearly.');
    await expect(page.getByRole('button', { name: 'Start voice assistant' })).toHaveAttribute('data-state', 'idle');
    expect(await spoken(page)).toEqual([
      'I am still listening. I will wait another 5 seconds.',
      'I did not hear anything. Please try again and speak clearly.',
    ]);
  });

  test('clicking again while listening stops it', async ({ page }) => {
    await open(page, '/');
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await page.getByRole('button', { name: 'Stop listening' }).click();
    await expect(page.getByRole('button', { name: 'Start voice assistant' })).toHaveAttribute('data-state', 'idle');
    await expect(page.getByTestId('voice-message')).toHaveText('Stopped listening.');
    const recognitions = await page.evaluate(
      () => (window as unknown as { __recognitions: { aborted: number }[] }).__recognitions,
    );
    expect(recognitions[0]?.aborted).toBe(1);
  });

  for (const [error, text] of [
    ['no-speech', 'I did not hear anything. Please try again and speak clearly.'],
    ['bad-grammar', 'Voice recognition error. Please try again.'],
    [
      'not-allowed',
      "Microphone access is blocked. Allow it in your browser's site settings (the icon left of the address bar) and try again.",
    ],
  ] as const) {
    test(`the "${error}" error shows its message and ends after 1 s`, async ({ page }) => {
      await page.clock.install({ time: new Date('2026-03-02T09:00:00') });
      await open(page, '/');
      await expect(page.getByRole('button', { name: 'Start voice assistant' })).toBeVisible();
      await page.clock.pauseAt(new Date('2026-03-02T10:00:00'));
      await setScript(page, { kind: 'error', error });
      await page.getByRole('button', { name: 'Start voice assistant' }).click();
      // The voice code loads on first click: wait until it listens before moving the clock.
      await expect(page.getByRole('button', { name: 'Stop listening' })).toBeVisible();
      await page.clock.runFor(200); // the scripted recogniser reports its error
      await expect(page.getByTestId('voice-message')).toHaveText(text);
      // Still in the session for a second after the error, then idle.
      await page.clock.runFor(990);
      await expect(page.getByRole('button', { name: 'Stop listening' })).toHaveAttribute('data-state', 'listening');
      await page.clock.runFor(10);
      await expect(page.getByRole('button', { name: 'Start voice assistant' })).toHaveAttribute('data-state', 'idle');
      expect(await spoken(page)).toEqual([text]);
    });
  }

  test('a network error without a microphone fallback shows the network message', async ({ page }) => {
    await page.addInitScript(() => {
      delete (window as unknown as { MediaRecorder?: unknown }).MediaRecorder;
    });
    await open(page, '/');
    await setScript(page, { kind: 'error', error: 'network' });
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByTestId('voice-message')).toHaveText(
      'Network error. Please check your connection and try again.',
    );
  });

  test('a browser without speech recognition or a recorder is told so', async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      delete w.SpeechRecognition;
      delete w.webkitSpeechRecognition;
      delete w.MediaRecorder;
    });
    await open(page, '/');
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByTestId('voice-message')).toHaveText('Voice recognition is not supported in your browser.');
  });

  test('voice works on the dashboard too', async ({ page }) => {
    await signInAsAdmin(page);
    await open(page, '/dashboard');
    await setScript(page, { kind: 'result', transcript: 'open my profile' });
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page).toHaveURL(/\/dashboard\/profile$/);
  });
});

/** Parses a WAV header: what the server's speech-to-text will read. */
function parseWav(body: Buffer) {
  return {
    riff: body.toString('ascii', 0, 4),
    wave: body.toString('ascii', 8, 12),
    format: body.readUInt16LE(20),
    channels: body.readUInt16LE(22),
    sampleRate: body.readUInt32LE(24),
    bitsPerSample: body.readUInt16LE(34),
    dataTag: body.toString('ascii', 36, 40),
    dataBytes: body.readUInt32LE(40),
  };
}

/** The largest sample of a 16-bit PCM WAV (after its 44-byte header). */
function peakOf(wav: Buffer) {
  let peak = 0;
  for (let offset = 44; offset + 1 < wav.length; offset += 2) peak = Math.max(peak, Math.abs(wav.readInt16LE(offset)));
  return peak;
}

/** Removes the browser's SpeechRecognition before the page's scripts run: the recorder fallback takes over. */
const withoutSpeechRecognition = (page: Page) =>
  page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    delete w.SpeechRecognition;
    delete w.webkitSpeechRecognition;
  });

/** The voice assistant's server speech-to-text (public, rate-limited). */
const VOICE_COMMAND_URL = '/api/assistant/voice-command';

test.describe('voice fallback: MediaRecorder and the server speech-to-text @fake-audio', () => {
  const answerSpeechToText = async (page: Page, bodies: Buffer[]) => {
    await page.route(VOICE_COMMAND_URL, async (route) => {
      const request = route.request();
      expect(request.method()).toBe('POST');
      expect(request.headers()['content-type']).toBe('audio/wav');
      bodies.push(request.postDataBuffer() ?? Buffer.alloc(0));
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          RecognitionStatus: 'Success',
          DisplayText: 'Go to pricing.',
          Offset: 0,
          Duration: 12_000_000,
        }),
      });
    });
  };

  const expectSpeechWav = (received: Buffer | undefined) => {
    expect(received).toBeDefined();
    const body = received ?? Buffer.alloc(44);
    const wav = parseWav(body);
    expect(wav).toMatchObject({
      riff: 'RIFF',
      wave: 'WAVE',
      format: 1,
      channels: 1,
      sampleRate: 16_000,
      bitsPerSample: 16,
      dataTag: 'data',
    });
    expect(wav.dataBytes).toBe(body.length - 44);
    // At least half a second of audio was captured from the fake microphone.
    expect(wav.dataBytes / 2 / 16_000).toBeGreaterThan(0.5);
    // …and it is not silence.
    expect(peakOf(body)).toBeGreaterThan(1000);
  };

  test('without SpeechRecognition it records, posts a 16 kHz mono WAV and runs the transcript', async ({ page }) => {
    await withoutSpeechRecognition(page);
    const bodies: Buffer[] = [];
    await answerSpeechToText(page, bodies);
    await open(page, '/about');
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByRole('button', { name: 'Stop listening' })).toBeVisible();
    await expect(page).toHaveURL(/\/pricing$/, { timeout: 20_000 });
    await expect(page.getByTestId('voice-message')).toHaveText('Opening Pricing.');
    expect(bodies).toHaveLength(1);
    expectSpeechWav(bodies[0]);
  });

  test('a network error from SpeechRecognition falls back to recording', async ({ page }) => {
    await page.addInitScript(installFakeVoice);
    const bodies: Buffer[] = [];
    await answerSpeechToText(page, bodies);
    await open(page, '/features');
    await setScript(page, { kind: 'error', error: 'network' });
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page).toHaveURL(/\/pricing$/, { timeout: 20_000 });
    expect(bodies).toHaveLength(1);
    expectSpeechWav(bodies[0]);
  });

  // Headless Chromium's recogniser fails here ('audio-capture'; offline it would be 'network').
  test("Chromium's own SpeechRecognition fails and the recorder takes over", async ({ page }) => {
    const bodies: Buffer[] = [];
    await answerSpeechToText(page, bodies);
    await open(page, '/about');
    expect(await page.evaluate(() => 'webkitSpeechRecognition' in window || 'SpeechRecognition' in window)).toBe(true);
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page).toHaveURL(/\/pricing$/, { timeout: 20_000 });
    expect(bodies).toHaveLength(1);
    expectSpeechWav(bodies[0]);
  });

  test('a failing speech-to-text service ends with the error message', async ({ page }) => {
    await withoutSpeechRecognition(page);
    await page.route(VOICE_COMMAND_URL, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ RecognitionStatus: 'NoMatch' }),
      }),
    );
    await open(page, '/');
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByTestId('voice-message')).toHaveText(
      'I did not hear anything. Please try again and speak clearly.',
      { timeout: 20_000 },
    );
    await expect(page.getByRole('button', { name: 'Start voice assistant' })).toHaveAttribute('data-state', 'idle');
  });

  test('a visitor who is not signed in is understood by the real server, offline', async ({ page }) => {
    await withoutSpeechRecognition(page);
    // No stub: the recording goes to the real server (pocketsphinx); the route only keeps a copy.
    const bodies: Buffer[] = [];
    await page.route(VOICE_COMMAND_URL, async (route) => {
      bodies.push(route.request().postDataBuffer() ?? Buffer.alloc(0));
      await route.continue();
    });
    const answered = page.waitForResponse((response) => response.url().endsWith(VOICE_COMMAND_URL), {
      timeout: 30_000,
    });
    await open(page, '/about');
    expect((await page.request.get('/api/me')).status()).toBe(401);
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    const result = (await answer.json()) as { RecognitionStatus: string; DisplayText: string };
    expect(result.RecognitionStatus).toBe('Success');
    // The fake microphone says "go to pricing"; the general language model hears the page name.
    expect(result.DisplayText.toLowerCase()).toContain('pricing');
    await expect(page).toHaveURL(/\/pricing$/, { timeout: 10_000 });
    await expect(page.getByTestId('voice-message')).toHaveText('Opening Pricing.');
    expectSpeechWav(bodies[0]);
    // Captured without the browser's automatic gain control: the speech is not clipped.
    expect(peakOf(bodies[0] ?? Buffer.alloc(44))).toBeLessThan(32_000);
  });

  test('too many commands from one network get a clear message', async ({ page }) => {
    await withoutSpeechRecognition(page);
    await page.route(VOICE_COMMAND_URL, (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '42' },
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many', requestId: 'x' } }),
      }),
    );
    await open(page, '/');
    await page.getByRole('button', { name: 'Start voice assistant' }).click();
    await expect(page.getByTestId('voice-message')).toHaveText(
      'Too many voice commands. Please wait a minute and try again.',
      { timeout: 20_000 },
    );
    await expect(page.getByRole('button', { name: 'Start voice assistant' })).toHaveAttribute('data-state', 'idle');
  });
});
