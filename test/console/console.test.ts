import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import {
  CHROMIUM,
  DOCS_SCREENSHOTS,
  HAVE_CHROMIUM,
  type Harness,
  PASSWORD,
  Phone,
  SCREENSHOTS,
  startHarness,
} from './harness.js';

/*
 * The staff console in Debian's Chromium against the service as `npm start` runs it. One
 * browser and one page for the file; the scenarios follow each other as a person would use
 * the console. Screenshots go to .tmp/screenshots/; with CONSOLE_SCREENSHOTS=docs the main
 * screens are also copied to docs/console/ (the README shows them).
 */

const BREMEN = DEMO_STORE_GLNS[1]; // carts_for_random_control = 0: no random draw
const HANNOVER = DEMO_STORE_GLNS[2]; // carts_for_random_control = 1: every checkout draws
const DOCS = process.env.CONSOLE_SCREENSHOTS === 'docs';

if (!HAVE_CHROMIUM) {
  console.warn(
    `Console end-to-end tests skipped: no Chromium at ${CHROMIUM} ` +
      '(apt-get install chromium, or set CHROMIUM_PATH).',
  );
}

let h: Harness;
let page: Page;

async function shot(name: string, docs = false): Promise<void> {
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (docs && DOCS) {
    mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
    copyFileSync(file, join(DOCS_SCREENSHOTS, `${name}.png`));
  }
}

async function logIn(username: string): Promise<void> {
  await page.goto(`${h.url}/console/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(PASSWORD[username]);
  await page.getByLabel('Password').press('Enter'); // the keyboard alone submits
}

const row = (cart: number) => page.locator(`tr[data-cart="${cart}"]`);

describe.skipIf(!HAVE_CHROMIUM)('staff console in Chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
    page = h.page;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('turns a customer away at the login page', async () => {
    await logIn('anna');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('This console is for store staff');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.getByText('Loading the staff console').count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Log in' }).isVisible()).toBe(true);
    await shot('login-refused', true);
  });

  it('logs in the demo admin and shows the active carts of a store', async () => {
    await logIn('carla');
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
    expect(await page.getByRole('link', { name: 'Controls' }).isVisible()).toBe(true);
    await page.getByLabel('Store', { exact: true }).selectOption(BREMEN);
    await expect.poll(() => page.locator('.live').textContent()).toBe('Live');
    // A token kept for the tab; a reload keeps the session.
    await page.reload();
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  });

  it('shows a cart the moment a phone checks it out, and opens it to its lines and checkout', async () => {
    const bruno = await new Phone(h.url, 'bruno').logIn();
    const anna = await new Phone(h.url, 'anna').logIn();
    const annaCart = await anna.cart(BREMEN, [['10001241', 1]], 'PO-anna-open');
    const cart = await bruno.cart(BREMEN, [
      ['10001234', 3],
      ['10001241', 2],
    ]);
    await expect.poll(() => page.locator('.live').textContent()).toBe('Live');
    expect(await row(cart).count()).toBe(0); // not listed before an event: nothing reloaded yet
    const { order_number } = await bruno.checkout(cart);
    await row(cart).waitFor();
    expect(await row(cart).textContent()).toContain('Checked out');
    expect(await row(cart).textContent()).toContain(`Order ${order_number}`);
    expect(await row(cart).textContent()).toContain('New');
    expect(await row(cart).locator('td').nth(0).textContent()).toContain('Bruno');
    // Newest activity first: the checkout moved bruno's cart above anna's.
    expect(await page.locator('tr[data-cart]').first().getAttribute('data-cart')).toBe(
      String(cart),
    );
    await shot('carts', true);
    // Held upright, the same screen: the table scrolls sideways inside its panel.
    await page.setViewportSize({ width: 820, height: 1180 });
    expect(
      await row(cart)
        .getByRole('button', { name: `Open cart #${cart}` })
        .isVisible(),
    ).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      820,
    );
    await shot('carts-portrait');
    await page.setViewportSize({ width: 1180, height: 820 });

    await row(cart)
      .getByRole('button', { name: `Open cart #${cart}` })
      .click();
    const detail = page.locator(`#cart-${cart}-detail`);
    await detail.getByText(order_number).waitFor();
    expect(await detail.textContent()).toContain('10001234');
    expect(await detail.textContent()).toContain('Timed out');
    await shot('cart-detail', true);

    // The filters narrow the list through the API's own filters.
    const shown = () =>
      page
        .locator('tr[data-cart]')
        .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-cart')));
    const open = String(annaCart); // still in the store
    await page.getByLabel('Checked out', { exact: true }).selectOption('False');
    await expect.poll(shown).toEqual([open]);
    await page.getByLabel('Checked out', { exact: true }).selectOption('');
    await expect.poll(shown).toEqual([String(cart), open]);
    await page
      .getByLabel('Customer', { exact: true })
      .selectOption({ label: 'Bruno Berger (bruno)' });
    await expect.poll(shown).toEqual([String(cart)]);
    await page.getByLabel('Customer', { exact: true }).selectOption('');
    // Dates typed as the language writes them (en-GB: day first).
    expect(await page.getByLabel('Created to').getAttribute('placeholder')).toBe('DD/MM/YYYY');
    await page.getByLabel('Created to').fill('31/01/2020');
    await page.getByText('No active carts match.').waitFor();
    await page.getByLabel('Created to').fill('');
    await expect.poll(shown).toEqual([String(cart), open]);
  });

  it('creates a control, verifies one and rejects another', async () => {
    await page.getByRole('link', { name: 'Controls' }).click();
    await page.getByLabel('Store', { exact: true }).selectOption(BREMEN);
    const customer = page.getByLabel('Customer with an active cart');
    await expect
      .poll(() => customer.locator('option').allTextContents())
      .toContain('Anna Hoffmann (anna)');
    await customer.selectOption({ label: 'Anna Hoffmann (anna)' });
    await page.getByRole('button', { name: 'Create control' }).click();
    const notice = page.locator('.notice-ok');
    await notice.getByText(/Control #\d+ created/).waitFor();
    const created = Number((await notice.textContent())!.match(/Control #(\d+)/)![1]);
    const pending = page.locator(`li[data-control="${created}"]`);
    await pending.waitFor();
    expect(await pending.textContent()).toContain('Anna Hoffmann');
    await shot('controls', true);

    await pending.getByRole('button', { name: `Verify control #${created}` }).click();
    await page.locator(`tr[data-control="${created}"]`).waitFor();
    await expect.poll(() => pending.count()).toBe(0);

    // A second one, for bruno, rejected.
    await customer.selectOption({ label: 'Bruno Berger (bruno)' });
    await page.getByRole('button', { name: 'Create control' }).click();
    await notice.getByText(/Control #\d+ created/).waitFor();
    const second = Number((await notice.textContent())!.match(/Control #(\d+)/)![1]);
    expect(second).not.toBe(created);
    await page.getByRole('button', { name: `Reject control #${second}` }).click();
    await notice.getByText(`Control #${second} rejected.`).waitFor();
    expect(await page.locator(`[data-control="${second}"]`).count()).toBe(0);
  });

  it('alerts at once when a checkout draws a random control', async () => {
    const anna = await new Phone(h.url, 'anna').logIn();
    const cart = await anna.cart(HANNOVER, [['10001234', 1]]);
    await anna.checkout(cart);
    const alert = page.locator('.alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Random control #');
    expect(await alert.textContent()).toContain(`carts #${cart}`);
    await alert.getByText('Stop Anna Hoffmann (anna) at the exit').waitFor();
    const drawn = page.locator('li.control', { hasText: `#${cart}` });
    await drawn.waitFor();
    expect(await drawn.locator('.badge.warn').textContent()).toBe('Random');
    await shot('random-control', true);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    expect(await alert.count()).toBe(0);
  });

  it('edits a store and its hours, showing the API field errors next to the fields', async () => {
    await page.getByRole('link', { name: 'Stores' }).click();
    await page.getByLabel('Store', { exact: true }).selectOption(BREMEN);
    const period = page.getByLabel('Active period');
    await period.fill('two hours');
    await page.getByRole('button', { name: 'Save store' }).click();
    const periodError = page.locator(`#${await period.getAttribute('id')}-error`);
    await periodError.waitFor();
    expect(await periodError.textContent()).toContain('Enter a valid duration');
    expect(await period.getAttribute('aria-invalid')).toBe('true');

    await period.fill('03:00:00');
    await page.getByLabel('Name').fill('Trade store Bremen');
    await page.getByRole('button', { name: 'Save store' }).click();
    await page.getByText('Store saved.').waitFor();
    expect(await periodError.count()).toBe(0);

    const monday = page.locator('tr[data-day="monday"]');
    await monday.getByLabel('Monday closed').uncheck();
    await monday.getByLabel('Monday opens').fill('18:00');
    await monday.getByLabel('Monday closes').fill('07:00');
    await page.getByRole('button', { name: 'Save opening hours' }).click();
    const hoursError = page.locator('#close-monday-error');
    await hoursError.waitFor();
    expect(await hoursError.textContent()).toBe('Closing time must be after opening time.');
    await shot('stores', true);

    await monday.getByLabel('Monday closes').fill('20:00');
    await page.getByRole('button', { name: 'Save opening hours' }).click();
    await page.getByText('Opening hours saved.').waitFor();
    const answer = await fetch(`${h.url}/api/v1/stores/${BREMEN}/`, {
      headers: {
        authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('ordering-console.token'))}`,
      },
    }).then((r) => r.json());
    expect(answer).toMatchObject({ name: 'Trade store Bremen', active_period: '03:00:00' });
  });

  it('draws the dashboard chart from the time series, with the totals and the ranking', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    const carts = page.locator('[data-total="carts"]');
    await expect.poll(async () => Number(await carts.textContent())).toBeGreaterThanOrEqual(3);
    expect(Number(await page.locator('[data-total="quantity"]').textContent())).toBeGreaterThan(0);
    // Bars were painted: the carts colour (#1d4ed8) is on the canvas (drawn after the render).
    const painted = () =>
      page.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let blue = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i] === 0x1d && data[i + 1] === 0x4e && data[i + 2] === 0xd8) blue++;
        }
        return blue;
      });
    await expect.poll(painted).toBeGreaterThan(2000); // a bar, not only the legend's swatch
    // Checkouts and their rate beside the carts; the last 14 days, each one, empty ones as 0.
    const figure = async (name: string) =>
      Number((await page.locator(`[data-total="${name}"]`).textContent())!.replace(/\D/g, ''));
    await expect.poll(() => figure('checkouts')).toBeGreaterThanOrEqual(2);
    expect(await figure('left')).toBe((await figure('carts')) - (await figure('checkouts')));
    expect(await page.locator('[data-total="rate"]').textContent()).toMatch(/%$/);
    expect(await figure('random')).toBeGreaterThanOrEqual(1);
    expect(await figure('verified')).toBeGreaterThanOrEqual(1);
    expect(await figure('rejected')).toBeGreaterThanOrEqual(1);
    // Controls by outcome and kind, from GET controls/stats/: the rejected ones with their kind.
    const cell = async (outcome: string, kind: string) =>
      Number(
        (await page
          .locator(`table.control-kinds tr[data-outcome="${outcome}"] [data-kind="${kind}"]`)
          .textContent())!.replace(/\D/g, ''),
      );
    expect(await cell('rejected', 'chosen')).toBeGreaterThanOrEqual(1);
    expect(await cell('created', 'random')).toBe(await figure('random'));
    expect(await cell('rejected', 'all')).toBe(await figure('rejected'));
    for (const kind of ['random', 'chosen', 'all']) {
      expect(await cell('created', kind)).toBe(
        (await cell('verified', kind)) +
          (await cell('rejected', kind)) +
          (await cell('pending', kind)),
      );
    }
    expect(await page.locator('figure.chart tbody tr').count()).toBe(14);
    expect(await page.locator('figure.chart tbody').textContent()).toContain('0');
    // Every store compared, by name.
    expect(await page.locator('table.comparison').textContent()).toContain(
      'Trade store Hannover-Linden',
    );
    // The ranking: customers who checked out, not the admin looking at it.
    await page.locator('table.ranking').getByText('Bruno Berger (bruno)').waitFor();
    expect(await page.locator('table.ranking').textContent()).not.toContain('(carla)');
    await page.getByLabel('Per', { exact: true }).selectOption('M');
    await page.getByText('Carts and checkouts per month').waitFor();
    await shot('dashboard', true);
  });

  it('shows the audit trail: who verified, rejected and changed what, filtered', async () => {
    await page.getByRole('link', { name: 'Audit' }).click();
    const rows = page.locator('tr[data-event]');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(4);
    // The earlier tests' actions, newest first: hours and store settings, the random draw,
    // the rejected and the verified control.
    const text = (await rows.allTextContents()).join('\n');
    expect(text).toContain('Store hours changed');
    // Sentences with names and formatted values, not ids and raw fields.
    expect(text).toContain('Name: Trade store Bremen-Hemelingen → Trade store Bremen');
    expect(text).toContain('Active period:');
    expect(text).toMatch(/A checkout drew control \d+ for Anna Hoffmann \(anna\) \(1 cart\)/);
    expect(text).toMatch(
      /Carla Lindqvist \(carla\) verified control \d+ of Anna Hoffmann \(anna\)/,
    );
    expect(text).not.toMatch(/verified_at|customer #/);
    expect(text).toContain('Control rejected');
    expect(text).toContain('Control verified');
    await shot('audit', true);
    await page.getByLabel('Kind', { exact: true }).selectOption('control.rejected');
    await expect
      .poll(async () => (await rows.allTextContents()).every((t) => t.includes('Control rejected')))
      .toBe(true);
    expect(await rows.first().textContent()).toContain('carla');
    await page.getByLabel('Kind', { exact: true }).selectOption('');
    await page.getByLabel('Store', { exact: true }).selectOption(HANNOVER);
    await expect
      .poll(async () =>
        (await rows.allTextContents()).every((t) => t.includes('Trade store Hannover-Linden')),
      )
      .toBe(true);
    await page.getByLabel('To', { exact: true }).fill('31/01/2020');
    await page.getByText('No events match.').waitFor();
  });

  it('refreshes the token a minute before it expires', async () => {
    // A tab of its own with a fake clock: an hour passes in an instant.
    const context = await h.browser.newContext({ locale: 'en-GB', timezoneId: 'UTC' });
    try {
      await context.clock.install();
      const tab = await context.newPage();
      await tab.goto(`${h.url}/console/`);
      await tab.getByLabel('Username').fill('carla');
      await tab.getByLabel('Password').fill(PASSWORD.carla);
      await tab.getByRole('button', { name: 'Log in' }).click();
      await tab.getByRole('navigation', { name: 'Screens' }).waitFor();
      const token = () => tab.evaluate(() => sessionStorage.getItem('ordering-console.token'));
      const first = await token();
      const refreshed = tab.waitForResponse(
        (r) => r.url().endsWith('/api/v1/auth/jwt/refresh/') && r.status() === 200,
      );
      await tab.clock.fastForward('58:00'); // JWT_TTL_SECONDS is 3600: not yet
      expect(await token()).toBe(first);
      await tab.clock.fastForward('01:01');
      await refreshed;
      await expect.poll(token).not.toBe(first);
      await tab.reload();
      await tab.getByRole('navigation', { name: 'Screens' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('logs out and forgets the token', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.getByText('You are logged out.').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('ordering-console.token'))).toBeNull();
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(h.output()).not.toMatch(/page error|console: /);
  });
});
