import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { buildConsole } from '../../console/scripts/build.js';
import { DEMO_USERS } from '../../erp-simulator/data.js';
import { createPostgresDatabase } from '../helpers/db.js';
import { freePort, startServiceProcess } from '../helpers/process.js';

/*
 * The console's end-to-end tests: the service started as `npm start` starts it (its own
 * process, bundled simulator, demo data), Debian's Chromium driven by playwright-core (no
 * browser download), and "phones" that are plain HTTP calls.
 */

/** Debian's Chromium (`apt-get install chromium`), or the one CHROMIUM_PATH names. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** Screenshots of every run; `npm run console:screenshots` also copies the main screens to docs/. */
export const SCREENSHOTS = join(process.cwd(), '.tmp', 'screenshots');
export const DOCS_SCREENSHOTS = join(process.cwd(), 'docs', 'console');

export const PASSWORD = Object.fromEntries(DEMO_USERS.map((u) => [u.username, u.password]));

export interface Harness {
  url: string;
  browser: Browser;
  page: Page;
  output(): string;
  close(): Promise<void>;
}

/** Builds the console, starts the service and a browser with one tablet-sized page. */
export async function startHarness(): Promise<Harness> {
  await buildConsole();
  mkdirSync(SCREENSHOTS, { recursive: true });
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // The bundled simulator and its demo data run only outside production (src/config.ts).
    NODE_ENV: 'development',
    JWT_SECRET: randomBytes(24).toString('hex'),
    LOG_LEVEL: 'warn',
    // Many logins from one address in a few seconds.
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    // The tests make their own carts and expect to see only those.
    DEMO_CARTS: 'false',
  };
  let dataDir: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (process.env.TEST_DATABASE_URL) {
    const database = await createPostgresDatabase({ empty: true });
    dropDatabase = database.drop;
    env.DATABASE_URL = database.url;
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'ordering-console-'));
    env.DATA_DIR = dataDir;
  }
  if (process.env.TEST_REDIS_URL) env.REDIS_URL = process.env.TEST_REDIS_URL;
  let child: ChildProcess | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close().catch(() => {});
    if (child && child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await dropDatabase?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const service = await startServiceProcess(env, port, '/readyz');
    child = service.child;
    browser = await launchChromium(['--lang=en-GB']); // dates as a store in Europe shows them
    return await openPage(service.url, browser, service.output, close);
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Debian's Chromium, headless, with a fresh, empty profile of its own (playwright-core), and
 * without the background connections this machine's closed network refuses.
 */
export function launchChromium(more: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...more,
    ],
  });
}

async function openPage(
  url: string,
  browser: Browser,
  serviceOutput: () => string,
  close: () => Promise<void>,
): Promise<Harness> {
  const context = await browser.newContext({
    viewport: { width: 1180, height: 820 }, // a tablet held landscape
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000); // generous: CI runs the suite's files in parallel on 2 cores
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A 4xx the page shows as a field error is logged by Chromium too: not a problem.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  return {
    url,
    browser,
    page,
    output: () => `${serviceOutput()}\n${problems.join('\n')}`,
    close,
  };
}

/** A phone: the customer app's calls over plain HTTP. */
export class Phone {
  private token = '';
  constructor(
    private readonly url: string,
    readonly username: string,
  ) {}

  async call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${this.url}/api/v1/${path}`, {
      method,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  async logIn(): Promise<this> {
    const answer = await this.call('POST', 'auth/jwt/token/', {
      username: this.username,
      password: PASSWORD[this.username],
    });
    this.token = answer.token;
    return this;
  }

  /** A cart in the store with the lines given, not checked out: its id. */
  async cart(store: string, lines: [string, number][], order = 'PO-1'): Promise<number> {
    const [organization] = (await this.call('GET', 'organizations/')).results;
    const cart = await this.call('POST', 'carts/', {
      store,
      organization: organization.organization_id,
      customer_order_number: order,
      order_mark: 'Site B',
    });
    for (const [part_number, quantity] of lines) {
      await this.call('POST', 'items/', { cart: cart.id, part_number, quantity });
    }
    return cart.id;
  }

  checkout(cart: number): Promise<{ order_number: string }> {
    return this.call('PATCH', `carts/${cart}/checkout/`);
  }
}
