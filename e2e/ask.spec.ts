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

for (const size of WIDTHS) {
  test(`asks the files on the search page, in the chat and summarises in the viewer (${size.name})`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const tag = run();
    const name = `supplier contract ${tag}.txt`;
    const question = 'How can the supplier contract be terminated?';
    const page = await signedIn(browser, `e2e-ask-${size.name}-${tag}`, size.width, size.height);
    const fileId = await uploadAskable(
      page,
      name,
      [
        'This supplier contract covers the delivery of office furniture to the Leeds office.',
        'Either party may terminate the supplier contract with ninety days written notice.',
        'Invoices are paid within thirty days of delivery.',
      ].join(' '),
      question,
    );

    // The search page: Ask answers the query, with its source.
    await open(page, `/dashboard/search?q=${encodeURIComponent(question)}`);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    const answer = page.getByRole('region', { name: 'Answer' });
    await expect(answer).toContainText('ninety days written notice', { timeout: 30_000 });
    const source = answer.getByRole('list', { name: 'Sources' }).getByRole('link', { name: new RegExp(name) });
    await expect(source).toBeVisible();
    await expect(source.locator('mark').filter({ hasText: 'terminate the supplier contract' })).toHaveCount(1);
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
