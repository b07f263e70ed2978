import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { open } from './ready';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

// "Ask your files" in the web app (docs/PRODUCT.md#ask-your-files): Ask on the search page with sources that open the
// viewer, a question in the chat overlay that no rule answers, and Summarise in the viewer — through the real server.

const baseURL = () => String(test.info().project.use.baseURL);
const run = () => `${Date.now().toString(36)}${test.info().retry}${test.info().repeatEachIndex}`;

async function signedIn(browser: Browser, ownerKey: string, width: number, height: number) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width, height } });
  await signInAsUser(context, baseURL(), { ownerKey });
  return context.newPage();
}

/** Uploads a text file and waits until analysis has read it and Ask can cite it. */
async function uploadAskable(page: Page, name: string, body: string, question: string) {
  const response = await page.request.post('/api/files/upload', {
    headers: { accept: 'application/json', origin: baseURL() },
    multipart: { file: { name, mimeType: 'text/plain', buffer: Buffer.from(body) } },
  });
  expect(response.status()).toBe(200);
  const { id } = (await response.json()) as { id: string };
  await expect
    .poll(
      async () => ((await (await page.request.get(`/api/files/${id}/insights`)).json()) as { status: string }).status,
      { timeout: 60_000 },
    )
    .toBe('done');
  // Passages are cut once analysis is done: wait until the question finds the file.
  await expect
    .poll(
      async () => {
        const asked = await page.request.post('/api/ask', {
          headers: { origin: baseURL() },
          data: { question },
        });
        const answer = (await asked.json()) as { citations?: { fileId: string }[] };
        return (answer.citations ?? []).some((citation) => citation.fileId === id);
      },
      { timeout: 30_000, intervals: [500, 1000, 2000] },
    )
    .toBe(true);
  return id;
}

/** The question both tests ask, and the contract that answers it (uploaded and answerable before it returns). */
const CONTRACT_QUESTION = 'How can the supplier contract be terminated?';
const uploadContract = (page: Page, name: string) =>
  uploadAskable(
    page,
    name,
    [
      'This supplier contract covers the delivery of office furniture to the Leeds office.',
      'Either party may terminate the supplier contract with ninety days written notice.',
      'Invoices are paid within thirty days of delivery.',
    ].join(' '),
    CONTRACT_QUESTION,
  );

for (const size of WIDTHS) {
  test(`asks the files on the search page, in the chat and summarises in the viewer (${size.name})`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const tag = run();
    const name = `supplier contract ${tag}.txt`;
    const question = CONTRACT_QUESTION;
    const page = await signedIn(browser, `e2e-ask-${size.name}-${tag}`, size.width, size.height);
    const fileId = await uploadContract(page, name);

    // The search page: Ask answers the query, with its source.
    await open(page, `/dashboard/search?q=${encodeURIComponent(question)}`);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const answer = page.getByRole('region', { name: 'Answer' });
    await expect(answer).toContainText('ninety days written notice', { timeout: 30_000 });
    const source = answer.getByRole('list', { name: 'Sources' }).getByRole('link', { name: new RegExp(name) });
    await expect(source).toBeVisible();
    await expect(source.locator('mark').filter({ hasText: 'terminate the supplier contract' })).toHaveCount(1);
    // No name matches the question: a quiet line under the answer, not the empty page's verdict.
    await expect(page.getByText(`No file or folder name matches “${question}”.`)).toBeVisible();
    await expect(page.getByText(`Nothing matches “${question}”.`)).toBeHidden();
    await shot(page, `ask-search-${size.name}`);

    // A source opens the viewer on the file, with the keyboard.
    await source.focus();
    await page.keyboard.press('Enter');
    const viewer = page.getByRole('dialog', { name });
    await expect(viewer).toBeVisible();
    expect(new URL(page.url()).searchParams.get('file')).toBe(fileId);

    // Summarise in the viewer.
    await viewer.getByRole('button', { name: 'Summarise' }).click();
    const summary = viewer.getByRole('region', { name: 'Summary' });
    await expect(summary).toContainText('office furniture', { timeout: 30_000 });
    await expect(summary.getByRole('link', { name: new RegExp(name) })).toBeVisible();
    await shot(page, `ask-summary-${size.name}`);
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();

    // The chat overlay on a public page: a question no rule answers is answered from the files.
    await open(page, '/about');
    await page.getByRole('button', { name: 'Open the chat assistant' }).click();
    const chat = page.getByRole('region', { name: 'Chat with the Atrium assistant' });
    const bots = chat.locator('[data-sender="bot"]');
    await expect(bots.first()).toBeVisible({ timeout: 30_000 });
    await chat.getByLabel('Message').fill(question);
    await chat.getByLabel('Message').press('Enter');
    await expect(bots).toHaveCount(2, { timeout: 30_000 });
    await expect(bots.last()).toContainText('ninety days written notice');
    const chatSource = bots.nth(1).getByRole('link', { name: new RegExp(name) });
    await expect(chatSource).toHaveAttribute('href', `/dashboard?file=${fileId}`);
    await shot(page, `ask-chat-${size.name}`);
    // A rule still answers first.
    await chat.getByLabel('Message').fill('who owns this');
    await chat.getByLabel('Message').press('Enter');
    await expect(bots).toHaveCount(3, { timeout: 30_000 });
    await expect(bots.last()).toContainText('the Atrium team');

    await chatSource.click();
    await expect(page.getByRole('dialog', { name })).toBeVisible();
    await page.context().close();
  });
}

/** A SpeechRecognition that hears `window.__heard`, and a speechSynthesis that records what it says. */
function installHearing() {
  const w = window as unknown as Record<string, unknown> & { __heard: string; __spoken: string[] };
  w.__heard = '';
  w.__spoken = [];
  class HearingRecognition {
    lang = '';
    continuous = false;
    interimResults = false;
    maxAlternatives = 1;
    onresult: ((event: unknown) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    onend: (() => void) | null = null;
    start() {
      setTimeout(() => {
        this.onresult?.({ results: [[{ transcript: w.__heard }]] });
        this.onend?.();
      }, 200);
    }
    stop() {}
    abort() {}
  }
  w.SpeechRecognition = HearingRecognition;
  w.webkitSpeechRecognition = HearingRecognition;
  window.speechSynthesis.speak = (utterance: SpeechSynthesisUtterance) => void w.__spoken.push(utterance.text);
}

test('a spoken question is answered from the files; the chat streams its answer and Cancel stops one', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const tag = run();
  const name = `supplier contract ${tag}.txt`;
  const question = CONTRACT_QUESTION;
  const page = await signedIn(browser, `e2e-askvoice-${tag}`, 1366, 900);
  await page.addInitScript(installHearing);
  const fileId = await uploadContract(page, name);

  // Voice: the question no rule answers goes to Ask; the answer is shown with its source and said without marks.
  await open(page, '/dashboard');
  await page.evaluate((heard) => ((window as unknown as { __heard: string }).__heard = heard), question);
  await page.getByRole('button', { name: 'Start voice assistant' }).click();
  const voice = page.getByTestId('voice-message');
  await expect(voice).toContainText('ninety days written notice', { timeout: 30_000 });
  await expect(voice.getByRole('link', { name: new RegExp(name) })).toHaveAttribute(
    'href',
    `/dashboard?file=${fileId}`,
  );
  const spoken = await page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken);
  expect(spoken).toHaveLength(1);
  expect(spoken[0]).toContain('ninety days written notice');
  expect(spoken[0]).not.toMatch(/\[\d+\]/);
  await expect(page.getByRole('button', { name: 'Start voice assistant' })).toHaveAttribute('data-state', 'idle');
  await shot(page, 'ask-voice-desktop');
  // A rule still answers first, with the spec's reply.
  await page.evaluate(() => ((window as unknown as { __heard: string }).__heard = 'who is the owner'));
  await page.getByRole('button', { name: 'Start voice assistant' }).click();
  await expect(voice).toHaveText('Atrium is owned and maintained by the Atrium team.');

  // The chat asks for the answer as a stream.
  await open(page, '/dashboard/chatbot');
  const chat = page.getByRole('region', { name: 'Chat with the Atrium assistant' });
  const bots = chat.locator('[data-sender="bot"]');
  const streamed = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/ask');
  await chat.getByLabel('Message').fill(question);
  await chat.getByLabel('Message').press('Enter');
  const response = await streamed;
  expect(response.request().headers()['accept']).toBe('text/event-stream');
  expect(response.headers()['content-type']).toContain('text/event-stream');
  await expect(bots.last()).toContainText('ninety days written notice', { timeout: 30_000 });
  await expect(bots.last().getByRole('link', { name: new RegExp(name) })).toBeVisible();
  await expect(bots).toHaveCount(2);

  // Cancel while the answer is on its way (the network holds the request back): it stops, and no answer comes.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/ask', async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  await chat.getByLabel('Message').fill('What notice does the supplier contract need?');
  await chat.getByLabel('Message').press('Enter');
  const asking = chat.getByTestId('chat-asking');
  await expect(asking).toContainText('Looking in your files…');
  await asking.getByRole('button', { name: 'Cancel' }).click();
  await expect(asking).toBeHidden();
  await expect(bots.last()).toHaveText('Assistant: Stopped. Ask again whenever you like.');
  release();
  await page.unroute('**/api/ask');
  await chat.getByLabel('Message').fill('who owns this');
  await chat.getByLabel('Message').press('Enter');
  await expect(bots.last()).toContainText('the Atrium team');
  await expect(bots).toHaveCount(4);
  await expect(bots.filter({ hasText: 'ninety days' })).toHaveCount(1);
  await page.context().close();
});
