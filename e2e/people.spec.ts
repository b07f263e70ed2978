import type { Page } from '@playwright/test';
import { knownPeoplePhotos } from '../apps/server/test/people-fixtures';
import { expect, test } from './fixtures';
import { shot, WIDTHS } from './screens';
import { signInAsNewUser } from './users';

// People (docs/PRODUCT.md#people) through the real server and its face engine: photos of two known people (face-api's
// demo photos, test/people-fixtures.ts) become two people, one is named and found by the name, split and merged back.

const PEOPLE = '/dashboard/spaces/personal/people';

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

for (const { name: screen, width, height } of WIDTHS) {
  test.describe(`People at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('turned on, photos of two people make two people; one is named, found by the name, split and merged back', async ({
      context,
      page,
      baseURL,
    }) => {
      // Four photos analysed in the background (objects, text, faces) on a shared machine.
      test.slow();
      const { ownerKey, run } = await signInAsNewUser(context, baseURL, `e2e-people-${screen}`, 'Pia');

      await page.goto(PEOPLE);
      await expect(page.getByRole('heading', { name: 'People is off for this space' })).toBeVisible();
      await expect(page.getByText(/face data never leaves this server/)).toBeVisible();
      await page.getByRole('button', { name: 'Turn People on' }).click();
      await expect(page.getByText(/No people found yet/)).toBeVisible();

      // Two photos of each of two people.
      const photos = await knownPeoplePhotos(2, 2);
      for (const photo of photos) {
        const answer = await page.request.post(`/api/files/upload?userId=${encodeURIComponent(ownerKey)}`, {
          headers: { accept: 'application/json', origin: String(baseURL) },
          multipart: { file: { name: photo.name, mimeType: 'image/jpeg', buffer: photo.jpeg } },
        });
        expect(answer.status()).toBe(200);
      }

      // The page shows what the background analysis has found so far: reload until both people are there.
      const cards = page.getByRole('list', { name: 'People' }).getByRole('button');
      await expect(async () => {
        await page.reload();
        await expect(cards).toHaveText([/Unnamed person2 photos/, /Unnamed person2 photos/], { timeout: 3000 });
      }).toPass({ timeout: 120_000, intervals: [2000] });
      expect(await noSidewaysScroll(page)).toBe(true);
      await shot(page, `people-${screen}`);

      // Name the first person; their photos are of one known person.
      await cards.first().click();
      const album = page.getByRole('list', { name: 'Photos of Unnamed person' });
      await expect(album.getByRole('img')).toHaveCount(2);
      const names = await album.getByRole('img').evaluateAll((images) => images.map((i) => i.getAttribute('alt')));
      const person = photos.find((photo) => photo.name === names[0])?.person;
      expect(photos.filter((photo) => photo.person === person).map((photo) => photo.name)).toEqual([...names].sort());
      const name = `Ana ${run}`;
      await page.getByRole('textbox', { name: 'Name' }).fill(name);
      await page.getByRole('button', { name: 'Save name' }).click();
      await expect(page.getByRole('heading', { name })).toBeVisible();
      expect(await noSidewaysScroll(page)).toBe(true);
      await shot(page, `person-${screen}`);

      // Search finds both of her photos by her name, and nobody else's.
      await page.goto(`/dashboard/search?q=${encodeURIComponent(name)}`);
      for (const photo of names) await expect(page.getByRole('link', { name: photo ?? '' }).first()).toBeVisible();
      const others = photos.filter((photo) => photo.person !== person);
      for (const photo of others) await expect(page.getByRole('link', { name: photo.name })).toHaveCount(0);

      // Split one face off: a new, unnamed person opens with that photo.
      await page.goto(PEOPLE);
      await page
        .getByRole('list', { name: 'People' })
        .getByRole('button', { name: new RegExp(name) })
        .click();
      await page.getByRole('button', { name: 'Split…' }).click();
      await page.getByRole('checkbox', { name: `Choose the face in ${names[1]}` }).check();
      await expect(page.getByRole('group', { name: 'Split' })).toContainText('1 face chosen.');
      await shot(page, `person-split-${screen}`);
      await page.getByRole('button', { name: 'Move to a new person' }).click();
      await expect(page.getByRole('heading', { name: 'Unnamed person' })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Photos of Unnamed person' }).getByRole('img')).toHaveCount(1);

      // Merged back with her (the merged person keeps her name): two photos again, and three people become two.
      await page.getByRole('button', { name: 'Merge…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Merge into Unnamed person' });
      await dialog.getByRole('radio', { name: new RegExp(name) }).check();
      await dialog.getByRole('button', { name: 'Merge' }).click();
      await expect(page.getByText('People merged.')).toBeVisible();
      await expect(page.getByRole('heading', { name })).toBeVisible();
      await page.getByRole('button', { name: 'All people' }).click();
      await expect(cards).toHaveCount(2);
      await expect(cards.filter({ hasText: name })).toHaveText(new RegExp(`${name}2 photos`));
    });
  });
}
