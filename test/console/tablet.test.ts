import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
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
 * The console as store staff meet it: a tablet at 768×1024 and 1024×768, in German and in
 * English. On every screen: nothing scrolls sideways (the page, or a panel), every control a
 * finger can hit is at least 44 px each way, and axe-core finds no serious or critical
 * violation. The browser's language picks the console's; the switch overrides it and is
 * remembered. With CONSOLE_SCREENSHOTS=docs the screens go to docs/console/tablet/.
 */

const BREMEN = DEMO_STORE_GLNS[1];
const HANNOVER = DEMO_STORE_GLNS[2]; // every checkout draws a random control
const DOCS = process.env.CONSOLE_SCREENSHOTS === 'docs';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const VIEWPORTS = [
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
];
const LANGUAGES = [
  { language: 'de', locale: 'de-DE', carts: 'Warenkörbe', login: 'Anmelden' },
  { language: 'en', locale: 'en-GB', carts: 'Carts', login: 'Log in' },
] as const;

/** Each screen and what shows once it has loaded. */
const SCREENS = [
  { path: 'carts', ready: 'tr[data-cart] td' },
  { path: 'controls', ready: 'li[data-control] tr[data-part]' },
  { path: 'stores', ready: 'tr[data-day="monday"]' },
  { path: 'dashboard', ready: '[data-store-card] dd, table.comparison tr[data-store]' },
  { path: 'audit', ready: 'tr[data-event]' },
];

if (!HAVE_CHROMIUM) console.warn(`Tablet tests skipped: no Chromium at ${CHROMIUM}.`);

/** What the tests read of axe-core's answer. */
interface Axe {
  run(
    context: Document,
    options: { resultTypes: string[] },
  ): Promise<{
    violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  }>;
}

let h: Harness;
let cart: number;

/** What a finger, a screen reader and a sideways scroll would find wrong on the page. */
async function problems(page: Page) {
  // axe-core evaluated as the browser's own script (the console's content policy refuses an
  // injected script tag).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`;
    const overflow = {
      page: document.documentElement.scrollWidth - window.innerWidth,
      // What sticks out on the right, outermost first (to say what to fix).
      wide: [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .filter(
          (el) =>
            !el.parentElement ||
            el.parentElement.getBoundingClientRect().right <= window.innerWidth + 1,
        )
        .slice(0, 5)
        .map((el) => `${name(el.parentElement!)} > ${name(el)}`),
      panels: [...document.querySelectorAll<HTMLElement>('.panel, .topbar, .alert')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map(
          (el) =>
            `${el.className} ${el.querySelector('h1, h2')?.textContent ?? ''}: +${el.scrollWidth - el.clientWidth}px`,
        ),
    };
    const small = [
      ...document.querySelectorAll<HTMLElement>(
        'button, a[href], select, input, textarea, summary, [role="button"]',
      ),
    ]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width > 0 && box.height > 0) // shown
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(
        ({ el, box }) =>
          `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
      );
    const { axe } = window as unknown as { axe: Axe };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    const violations = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.impact} ${v.id}: ${v.help} (${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join('; ')})`,
      );
    return { overflow, small, violations };
  });
}

async function check(page: Page, name: string) {
  const found = await problems(page);
  expect(
    found.overflow.page,
    `${name}: the page scrolls sideways: ${found.overflow.wide}`,
  ).toBeLessThanOrEqual(0);
  expect(found.overflow.panels, `${name}: panels scroll sideways`).toEqual([]);
  expect(found.small, `${name}: touch targets under 44 px`).toEqual([]);
  expect(found.violations, `${name}: axe-core`).toEqual([]);
}

/** The viewport as staff see it; with `docs`, also into docs/console/tablet/ (the README). */
async function shot(page: Page, name: string, docs = true) {
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  if (DOCS && docs) {
    const dir = join(DOCS_SCREENSHOTS, 'tablet');
    mkdirSync(dir, { recursive: true });
    copyFileSync(file, join(dir, `${name}.png`));
  }
}

async function tablet(locale: string, viewport: { width: number; height: number }) {
  return h.browser.newContext({ viewport, locale, timezoneId: 'Europe/Berlin', hasTouch: true });
}

async function logIn(page: Page, username: string, submit: string) {
  await page.goto(`${h.url}/console/`);
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(PASSWORD[username]);
  await page.getByRole('button', { name: submit }).click();
  await page.locator('header.topbar').waitFor();
}

describe.skipIf(!HAVE_CHROMIUM)('staff console on a tablet, in German and English', () => {
  beforeAll(async () => {
    h = await startHarness();
    // Something on every screen: an open cart, a checked-out one, a chosen and a random
    // control (with lines), a store change in the trail.
    const anna = await new Phone(h.url, 'anna').logIn();
    const bruno = await new Phone(h.url, 'bruno').logIn();
    const carla = await new Phone(h.url, 'carla').logIn();
    cart = await bruno.cart(BREMEN, [
      ['10001234', 12],
      ['10001241', 2500],
    ]);
    await bruno.checkout(cart);
    await anna.cart(BREMEN, [['10001234', 3]], 'PO-anna');
    const bremen = await carla.call('GET', `stores/${BREMEN}/`);
    const { id: brunoId } = await bruno.call('GET', 'users/me/');
    await carla.call('POST', 'controls/', { user: brunoId, store: bremen.id, status: 'pending' });
    const random = await anna.cart(HANNOVER, [['10001241', 1]], 'PO-random');
    await anna.checkout(random);
    await carla.call('PATCH', `stores/${BREMEN}/`, { active_period: '02:30:00' });
  }, 90_000);
  afterAll(async () => {
    await h?.close();
  });

  for (const { language, locale, carts, login } of LANGUAGES) {
    for (const viewport of VIEWPORTS) {
      const size = `${viewport.width}x${viewport.height}`;
      it(`${language} at ${size}: every screen fits, is touchable and passes axe-core`, async () => {
        const context: BrowserContext = await tablet(locale, viewport);
        try {
          const page = await context.newPage();
          page.setDefaultTimeout(15_000);
          await page.goto(`${h.url}/console/`);
          // The browser's language picked the console's.
          await page.getByRole('button', { name: login }).waitFor();
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
          await check(page, `${language} ${size} login`);
          await shot(page, `${language}-${size}-login`, false);
          await logIn(page, 'carla', login);
          await page.getByRole('link', { name: carts, exact: true }).waitFor();
          for (const screen of SCREENS) {
            await page.goto(`${h.url}/console/#/${screen.path}`);
            if (screen.path === 'carts') {
              await page.locator('main select').first().selectOption(BREMEN);
            }
            await page.locator(screen.ready).filter({ visible: true }).first().waitFor();
            await check(page, `${language} ${size} ${screen.path}`);
            await shot(page, `${language}-${size}-${screen.path}`);
          }
        } finally {
          await context.close();
        }
      }, 120_000);
    }
  }

  it('formats for the language: dates, numbers, names and sentences', async () => {
    const context = await tablet('de-DE', VIEWPORTS[1]);
    try {
      const page = await context.newPage();
      await logIn(page, 'carla', 'Anmelden');
      await page.locator('main select').first().selectOption(BREMEN);
      const row = page.locator(`tr[data-cart="${cart}"]`);
      await row.waitFor();
      // "27.11.2026, 15:46": day first, 24 hours, no AM/PM.
      expect(await row.textContent()).toMatch(/\d\d\.\d\d\.\d{4}, \d\d:\d\d/);
      expect(await row.textContent()).toContain('2.512'); // 12 + 2500, German grouping
      expect(await row.textContent()).toContain('Bruno Berger (bruno)');
      await row.getByRole('button', { name: `Öffnen Warenkorb #${cart}` }).click();
      const detail = page.locator(`#cart-${cart}-detail`);
      await detail.locator('tr[data-part="10001234"]').getByText('Copper pipe').waitFor();
      // Dates are typed as the language writes them.
      const from = page.getByLabel('Angelegt ab');
      expect(await from.getAttribute('placeholder')).toBe('TT.MM.JJJJ');
      await from.fill('31.01.2020');
      await page.getByLabel('Angelegt bis').fill('01.02.2020');
      await page.getByText('Keine aktiven Warenkörbe gefunden.').waitFor();

      // The control card: who, which store, each cart's lines with the product names.
      await page.getByRole('link', { name: 'Kontrollen' }).click();
      const card = page.locator('li[data-control]', { hasText: 'Bruno Berger (bruno)' });
      await card.waitFor();
      expect(await card.textContent()).toContain('Trade store Bremen-Hemelingen');
      await card.locator('tr[data-part="10001241"]').waitFor();
      expect(await card.locator('tr[data-part="10001241"]').textContent()).toContain('2.500');
      await card.getByText('Copper pipe').first().waitFor();

      // The random control's alert names the store, not its GLN; the audit trail speaks.
      await page.getByRole('link', { name: 'Protokoll' }).click();
      const rows = page.locator('tr[data-event]');
      await rows.first().waitFor();
      const trail = (await rows.allTextContents()).join('\n');
      expect(trail).toContain('Carla Lindqvist (carla) hat Kontrolle');
      expect(trail).toContain('für Bruno Berger (bruno) angelegt (1 Warenkorb).');
      expect(trail).toContain('Aktiver Zeitraum:');
      expect(trail).toContain('2 Stunden 30 Minuten');
      expect(trail).not.toContain(BREMEN);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('switches language, remembers the choice, and says a random control by names', async () => {
    const context = await tablet('en-GB', VIEWPORTS[0]);
    try {
      const page = await context.newPage();
      await logIn(page, 'carla', 'Log in');
      await page.getByLabel('Language').selectOption('de');
      await page.getByRole('link', { name: 'Warenkörbe' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      await page.reload();
      await page.getByRole('link', { name: 'Warenkörbe' }).waitFor();
      await page.getByLabel('Sprache').selectOption('en');
      await page.getByRole('link', { name: 'Carts' }).waitFor();

      const anna = await new Phone(h.url, 'anna').logIn();
      await expect.poll(() => page.locator('.live').textContent()).toBe('Live');
      const drawn = await anna.cart(HANNOVER, [['10001234', 1]], 'PO-alert');
      await anna.checkout(drawn);
      const alert = page.locator('.alert');
      await alert
        .getByText('Stop Anna Hoffmann (anna) at the exit of Trade store Hannover-Linden')
        .waitFor();
      expect(await alert.textContent()).not.toContain(HANNOVER);
      await check(page, 'en alert');
      await shot(page, 'en-768x1024-random-control');
    } finally {
      await context.close();
    }
  }, 60_000);
});
