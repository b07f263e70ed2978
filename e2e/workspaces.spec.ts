import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { WIDTHS } from './screens';
import { signInAsUser } from './users';

const SHOTS = path.resolve(import.meta.dirname, '../test-results');

interface Person {
  ownerKey: string;
  name: string;
  context: BrowserContext;
  page: Page;
}

const EXPECTED_CLIENT_ERROR = /^Failed to load resource: the server responded with a status of 4\d\d /;

/** A person signed in in a browser context of their own; their page's console errors land in `errors`. */
async function person(
  browser: Browser,
  baseURL: string,
  ownerKey: string,
  name: string,
  errors: string[],
): Promise<Person> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await signInAsUser(context, baseURL, { ownerKey, name });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' && !EXPECTED_CLIENT_ERROR.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { ownerKey, name, context, page };
}

const sidebar = (page: Page) => page.getByTestId('sidebar');

test('two people share a workspace: members, folders, upload, rename; a viewer only reads', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const run = `${Date.now().toString(36)}${test.info().retry}${test.info().repeatEachIndex}`;
  const base = String(baseURL);
  const errors: string[] = [];
  const alice = await person(browser, base, `e2e-ws-alice-${run}`, `Alice ${run}`, errors);
  const bob = await person(browser, base, `e2e-ws-bob-${run}`, `Bob ${run}`, errors);
  const carol = await person(browser, base, `e2e-ws-carol-${run}`, `Carol ${run}`, errors);
  const workspace = `Launch ${run}`;

  // Alice creates a workspace from the switcher; an empty name is refused inline.
  await alice.page.goto('/dashboard');
  await sidebar(alice.page).getByRole('button', { name: 'New workspace' }).click();
  const create = alice.page.getByRole('dialog', { name: 'New workspace' });
  await create.getByRole('button', { name: 'Create workspace' }).click();
  await expect(create.getByRole('alert')).toHaveText('Give the workspace a name.');
  await create.getByLabel('Workspace name').fill(workspace);
  await create.getByLabel('Workspace name').press('Enter');
  await expect(alice.page.getByRole('heading', { level: 1, name: workspace })).toBeVisible();
  await expect(alice.page.getByText('This folder is empty.')).toBeVisible();

  // A folder, then a file uploaded into it with the Upload button.
  await alice.page.getByRole('button', { name: 'New folder' }).click();
  await alice.page.getByLabel('Folder name').fill('Specs');
  await alice.page.getByLabel('Folder name').press('Enter');
  await alice.page.getByRole('link', { name: 'Specs' }).click();
  await expect(alice.page.getByRole('heading', { level: 1, name: 'Specs' })).toBeVisible();
  await alice.page.getByTestId('upload-input').setInputFiles({
    name: 'plan.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('the launch plan\n'),
  });
  await expect(alice.page.getByTestId('upload-total')).toContainText('1 of 1 uploaded: plan.txt');
  await expect(alice.page.getByRole('link', { name: 'plan.txt' })).toBeVisible();
  const specsUrl = alice.page.url();

  // Alice adds Bob as editor and Carol as viewer from the directory.
  await sidebar(alice.page)
    .getByRole('link', { name: `Members of ${workspace}` })
    .click();
  await expect(alice.page.getByRole('heading', { level: 1, name: `Members of ${workspace}` })).toBeVisible();
  await alice.page.getByLabel('Search people').fill(`Bob ${run}`);
  await alice.page.getByRole('button', { name: `Add Bob ${run} as editor` }).click();
  await expect(alice.page.getByLabel(`Role of Bob ${run}`)).toHaveValue('editor');
  await alice.page
    .getByRole('region', { name: 'Add a member' })
    .getByLabel('Role', { exact: true })
    .selectOption('viewer');
  await alice.page.getByLabel('Search people').fill(`carol-${run}`);
  await alice.page.getByRole('button', { name: `Add Carol ${run} as viewer` }).click();
  const members = alice.page.getByRole('list', { name: 'Members' });
  await expect(members.getByRole('listitem')).toHaveCount(3);
  await expect(alice.page.getByLabel(`Role of Bob ${run}`)).toHaveValue('editor');
  await expect(alice.page.getByLabel(`Role of Carol ${run}`)).toHaveValue('viewer');
  // The last owner cannot leave: the server's refusal is shown.
  await members.getByRole('button', { name: 'Leave' }).click();
  await alice.page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
  await expect(alice.page.getByRole('alert').first()).toContainText(/owner/i);
  // A workspace's messages reach a member once they opened it (docs/PRODUCT.md#workspace-members): Bob opens it.
  await bob.page.goto(specsUrl);
  await expect(bob.page.getByRole('link', { name: 'plan.txt' })).toBeVisible();
  // The owner messages the members: a notification only they get, live in Bob's open dashboard.
  const streamOpen = bob.page.waitForResponse(
    (r) => r.url().includes('/public/api/notifications/stream') && r.status() === 200,
  );
  await bob.page.goto('/dashboard/notifications');
  await streamOpen;
  const standup = `Standup moved to 10:00 (${run})`;
  await alice.page.getByLabel('Notification to everyone in this workspace').fill(standup);
  await alice.page.getByRole('button', { name: 'Send to members' }).click();
  await expect(alice.page.getByRole('status').filter({ hasText: 'Sent to the members.' })).toBeVisible();
  await expect(bob.page.getByRole('list', { name: 'Notifications' })).toContainText(standup);

  for (const { name, width, height } of WIDTHS) {
    await alice.page.setViewportSize({ width, height });
    await alice.page.reload();
    await expect(alice.page.getByRole('list', { name: 'Members' })).toBeVisible();
    expect(await alice.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await alice.page.screenshot({ path: path.join(SHOTS, `workspace-members-${name}.png`), fullPage: true });
  }
  await alice.page.setViewportSize({ width: 1366, height: 900 });

  // Bob finds the workspace in his switcher, the file in the folder, and renames it.
  await bob.page.goto('/dashboard');
  await sidebar(bob.page).getByRole('link', { name: workspace, exact: true }).click();
  await bob.page.getByRole('link', { name: 'Specs' }).click();
  await expect(bob.page.getByRole('link', { name: 'plan.txt' })).toBeVisible();
  await bob.page.getByRole('button', { name: 'Actions for plan.txt' }).click();
  await bob.page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = bob.page.getByRole('dialog', { name: 'Rename file' });
  await rename.getByLabel('New name').fill('launch-plan.txt');
  await rename.getByLabel('New name').press('Enter');
  await expect(rename).toBeHidden();
  await expect(bob.page.getByRole('link', { name: 'launch-plan.txt' })).toBeVisible();

  // Bob drops a file onto the open folder.
  await bob.page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['dropped notes\n'], 'notes.txt', { type: 'text/plain' }));
    const target = document.querySelector('[data-testid="file-browser"]');
    target?.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    target?.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(bob.page.getByRole('link', { name: 'notes.txt' })).toBeVisible();

  // Alice sees the rename and the dropped file.
  await alice.page.goto(specsUrl);
  await expect(alice.page.getByRole('link', { name: 'launch-plan.txt' })).toBeVisible();
  await expect(alice.page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
  for (const { name, width, height } of WIDTHS) {
    await alice.page.setViewportSize({ width, height });
    await expect(alice.page.getByRole('link', { name: 'notes.txt' })).toBeVisible();
    expect(await alice.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await alice.page.screenshot({ path: path.join(SHOTS, `workspace-browser-${name}.png`), fullPage: true });
  }

  // The move dialog on a phone: a folder picker that fits, Escape closes it and focus returns to the menu button.
  await alice.page.getByRole('button', { name: 'Actions for notes.txt' }).click();
  await alice.page.getByRole('menuitem', { name: 'Move' }).click();
  const move = alice.page.getByRole('dialog', { name: 'Move “notes.txt”' });
  await expect(move.getByRole('navigation', { name: 'Destination' })).toContainText('Specs');
  expect(await alice.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await alice.page.screenshot({ path: path.join(SHOTS, 'workspace-move-mobile.png') });
  await alice.page.keyboard.press('Escape');
  await expect(move).toBeHidden();
  await expect(alice.page.getByRole('button', { name: 'Actions for notes.txt' })).toBeFocused();

  // On a phone the switcher is in the drawer.
  await alice.page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = alice.page.getByTestId('drawer');
  await expect(drawer.getByRole('link', { name: workspace, exact: true })).toBeVisible();
  await alice.page.screenshot({ path: path.join(SHOTS, 'workspace-switcher-mobile.png') });
  await drawer.getByRole('link', { name: 'Personal', exact: true }).click();
  await expect(alice.page.getByRole('heading', { level: 1, name: 'Personal' })).toBeVisible();

  // Carol (viewer) reads and downloads, but sees no upload, new folder or rename.
  await carol.page.goto(specsUrl);
  await expect(carol.page.getByRole('link', { name: 'launch-plan.txt' })).toBeVisible();
  // Upload and New folder are shown disabled, with the reason (menus.spec.ts / roles.spec.ts test more).
  await expect(carol.page.getByRole('button', { name: 'Upload', exact: true })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await expect(carol.page.getByRole('button', { name: 'New folder' })).toHaveAttribute('aria-disabled', 'true');
  await carol.page.getByRole('button', { name: 'Actions for launch-plan.txt' }).click();
  await expect(carol.page.getByRole('menuitem')).toHaveText(['Open', 'Download', 'Versions', 'Details', 'Star']);
  await carol.page.keyboard.press('Escape');
  await expect(carol.page.getByRole('menu')).toBeHidden();

  for (const who of [alice, bob, carol]) await who.context.close();
  expect(errors, 'console errors in the three browsers').toEqual([]);
});
