import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { open } from './ready';
import { shot, WIDTHS } from './screens';
import { signInAsUser } from './users';

// The assistant on files (docs/PRODUCT.md#assistant-file-commands): typed "search files for <word>", "open <name>" and
// "what is in <name>" through the real server, for the file's owner; someone else (signed in, or a visitor) learns
// nothing about it.

const baseURL = () => String(test.info().project.use.baseURL);
const run = () => `${Date.now().toString(36)}${test.info().retry}${test.info().repeatEachIndex}`;

async function signedIn(browser: Browser, ownerKey: string, width: number, height: number) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width, height } });
  await signInAsUser(context, baseURL(), { ownerKey });
  return context.newPage();
}

/** Uploads a text file into the personal root and waits until background analysis has read it. */
async function uploadAnalysed(page: Page, name: string, body: string) {
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
  return id;
}

async function ask(page: Page, text: string) {
  const chat = page.getByRole('region', { name: 'Chat with the Atrium assistant' });
  const bots = chat.locator('[data-sender="bot"]');
  // The welcome message is there once the chat is: count the answers from then on.
  await expect(bots.first()).toBeVisible({ timeout: 30_000 });
  const before = await bots.count();
  await chat.getByLabel('Message').fill(text);
  await chat.getByLabel('Message').press('Enter');
  await expect(bots).toHaveCount(before + 1, { timeout: 15_000 });
  return bots.last();
}

for (const size of WIDTHS) {
  test(`the assistant searches files by a word inside, opens one and tells what is in it (${size.name})`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const tag = run();
    const word = `quokkaword${tag}`;
    const name = `field notes ${tag}.txt`;
    const page = await signedIn(browser, `e2e-assistant-files-${size.name}-${tag}`, size.width, size.height);
    const fileId = await uploadAnalysed(
      page,
      name,
      `Observations from the island. The ${word} was seen near the harbour at dawn, eating leaves.`,
    );

    await page.goto('/dashboard/chatbot');
    const found = await ask(page, `Search files for "${word}"`);
    await expect(found).toContainText(`I found 1 file for “${word}”.`);
    const fileLink = found.getByRole('link', { name: new RegExp(name.replace(/\./g, '\\.')) });
    await expect(fileLink).toBeVisible();
    await expect(found.getByRole('link', { name: 'See all results' })).toHaveAttribute(
      'href',
      `/dashboard/search?q=${word}`,
    );
    await shot(page, `assistant-files-search-${size.name}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);

    // What is in it: the first words of its text, with a link to open it.
    const contents = await ask(page, `what is in ${name}?`);
    await expect(contents).toContainText(`“${name}” reads: “Observations from the island. The ${word} was seen`);
    await expect(contents.getByRole('link', { name: new RegExp(`Open ${name.replace(/\./g, '\\.')}`) })).toBeVisible();

    // The result opens the folder that holds the file.
    await fileLink.click();
    await expect(page).toHaveURL(/\/dashboard\/spaces\/personal\/folders\/[^/]+$/);
    await expect(page.getByRole('checkbox', { name: `Select ${name}` })).toBeVisible();

    // "open <name>" goes there by itself.
    await page.goto('/dashboard/chatbot');
    // (The chat answers "Opening “…”." and leaves at once: the folder is what the user sees.)
    const chat = page.getByRole('region', { name: 'Chat with the Atrium assistant' });
    await expect(chat.getByLabel('Message')).toBeVisible({ timeout: 30_000 });
    await chat.getByLabel('Message').fill(`open ${name}`);
    await chat.getByLabel('Message').press('Enter');
    await expect(page).toHaveURL(/\/dashboard\/spaces\/personal\/folders\/[^/]+$/);
    await expect(page.getByRole('checkbox', { name: `Select ${name}` })).toBeVisible();

    // Nothing matches a word that is in no file.
    await page.goto('/dashboard/chatbot');
    await expect(await ask(page, `find files nowordlike${tag}`)).toContainText(`No files match “nowordlike${tag}”.`);

    // Someone else, signed in, finds nothing of it, through the chat and through the API the chat uses.
    const other = await signedIn(browser, `e2e-assistant-other-${size.name}-${tag}`, size.width, size.height);
    await other.goto('/dashboard/chatbot');
    await expect(await ask(other, `search files for ${word}`)).toContainText(`No files match “${word}”.`);
    await expect(await ask(other, `what is in ${name}`)).toContainText(`I could not find a file named “${name}”.`);
    const search = await other.request.get(`/api/search?q=${word}`);
    expect(search.status()).toBe(200);
    expect(((await search.json()) as { items: unknown[] }).items).toEqual([]);
    expect((await other.request.get(`/api/files/${fileId}/insights`)).status()).toBe(404);

    await page.context().close();
    await other.context().close();
  });
}

test('a visitor is asked to sign in and learns nothing about files', async ({ page }) => {
  await open(page, '/about');
  await page.getByRole('button', { name: 'Open the chat assistant' }).click();
  const answer = await ask(page, 'search files for quokkaword');
  await expect(answer).toContainText('Please sign in first: then I can search, open and describe your files.');
  await expect(answer.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  // Without a session the API the chat uses answers 401.
  expect((await page.request.get('/api/search?q=quokkaword')).status()).toBe(401);
  // "open <something>" that names no page stays a command a visitor's assistant does not understand.
  await expect(await ask(page, 'open the door')).toContainText('Sorry, I did not understand that command.');
});
