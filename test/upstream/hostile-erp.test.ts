import { Writable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT, DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import type { SimRoute } from '../../erp-simulator/faults.js';
import { startSimulator } from '../../erp-simulator/server.js';
import { checkouts, memberships, organizations, restoreCodes, users } from '../../src/db/schema.js';
import { ANSWER_BYTES, UpstreamClient } from '../../src/upstream/client.js';
import { UpstreamFailure } from '../../src/upstream/errors.js';
import {
  type Answer,
  PASSWORDS,
  type Session,
  startTestApp,
  type TestContext,
} from '../helpers/app.js';
import {
  cartWith,
  checkout,
  createStore,
  organizationsOf,
  postItem,
  restoreJobsDone,
} from '../helpers/fixtures.js';
import { type HostileErp, type Spoil, startHostileErp } from '../helpers/hostile-erp.js';
import { codeIn, type SmtpReceiver, startSmtpReceiver } from '../mail/smtp.js';

/**
 * Issue 29, "also required": a hostile ERP (test/helpers/hostile-erp.ts, in front of the
 * simulator) spoils one answer at a time on every upstream route the service calls, driven
 * through the service's HTTP API as a client would. Each is a clean 502 `upstream_error`
 * (504 `upstream_timeout` for a body that drips past the timeout), never a 500; logged
 * without the body; the connection of an oversized answer closed before the answer is read;
 * nothing stored; the service answers the next call; a cart frozen only after an order
 * call, and then checked out exactly once when the ERP is healthy again (decision 0001).
 */

const TIMEOUT_MS = 1_500;
const MB = 1024 * 1024;
const PRODUCT = '10001234';
const GLN = DEMO_STORE_GLNS[0];
const NEW_PASSWORD = 'Hostile-Erp-Pass-7731';

let ctx: TestContext;
let hostile: HostileErp;
let smtp: SmtpReceiver;
let anna: Session;
let organization: string;
/** bruno's live restore code (variant A): an upstream failure gives it back unspent. */
let brunoCode: string;
const logLines: {
  msg?: string;
  upstream?: { route?: string; cause?: string };
  err?: { message?: string };
}[] = [];
let logText = '';

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  const sim = await startSimulator();
  hostile = await startHostileErp(sim.url);
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logText += String(chunk);
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  ctx = await startTestApp({
    sim,
    upstreamUrl: hostile.url,
    logStream,
    env: {
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'shop@example.com',
    },
  });
  await createStore(ctx, GLN);
  anna = await ctx.login('anna');
  organization = (await organizationsOf(ctx, anna.userId))[0];
  // The service account logged in (categories without an upstream token): spoiling
  // auth.token below spoils anna's login only.
  expect((await ctx.request('GET', '/api/v1/categories/', { token: anna.token })).status).toBe(200);
  const seen = smtp.messages.length;
  expect((await post('request-restore-code/', { username: 'bruno' })).status).toBe(202);
  brunoCode = codeIn(await smtp.next('bruno@example.com', seen))!;
  expect(brunoCode).toMatch(/^\d{6}$/);
}, 60_000);
afterEach(() => hostile.clear());
afterAll(async () => {
  await ctx?.close();
  await hostile?.close();
  await smtp?.close();
});

const post = (path: string, body: unknown) => ctx.request('POST', `/api/v1/${path}`, { body });
const withUpstream = () => ({
  token: anna.token,
  headers: { 'authorization-upstream': `Bearer ${anna.upstreamToken}` },
});
const simUser = (username: string) => ctx.sim.data.users.find((u) => u.username === username)!;

/** Anna as stored: her user row and her memberships with their organizations. */
async function annaAsStored() {
  const { db } = ctx.database;
  const [user] = await db.select().from(users).where(eq(users.id, anna.userId));
  const orgs = await db
    .select({ organization: organizations })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, anna.userId))
    .orderBy(asc(organizations.organizationId));
  return { user, orgs };
}

const allCodes = () => ctx.database.db.select().from(restoreCodes).orderBy(asc(restoreCodes.id));

/**
 * How the service is driven to call a route, and what must be unchanged after a spoilt
 * answer. `background`: the call runs after the answer (restore look-ups), whose status is
 * always its success; the job must end, logged, with nothing issued.
 */
interface Drive {
  call(): Promise<Answer>;
  background?: boolean;
  /** A snapshot of what must not change (compared before and after). */
  state?(): Promise<unknown>;
  /** Puts the simulator back (a password set by a call passed through before its answer was spoilt). */
  undo?(): void;
}

const DRIVES: Record<Exclude<SimRoute, 'auth.refresh' | 'orders'>, Drive> = {
  'auth.token': {
    call: () => post('auth/jwt/token/', { username: 'anna', password: PASSWORDS.anna }),
    state: annaAsStored,
  },
  me: {
    call: () => post('auth/jwt/token/', { username: 'anna', password: PASSWORDS.anna }),
    state: annaAsStored,
  },
  'me.password': {
    call: () =>
      ctx.request('PATCH', '/api/v1/users/me/change-password/', {
        ...withUpstream(),
        body: { password: PASSWORDS.anna, new_password: NEW_PASSWORD },
      }),
    // The sessions are not ended: anna's token still works.
    state: async () =>
      (await ctx.request('GET', '/api/v1/users/me/', { token: anna.token })).status,
    undo: () => {
      simUser('anna').password = PASSWORDS.anna;
    },
  },
  'admin.user': {
    call: () => post('request-restore-code/', { username: 'bruno' }),
    background: true,
    state: async () => ({ codes: await allCodes(), mails: smtp.messages.length }),
  },
  'admin.users': {
    call: () => post('request_restore_code/', { email: 'bruno@example.com' }),
    background: true,
    state: async () => ({ codes: await allCodes(), mails: smtp.messages.length }),
  },
  'admin.password': {
    call: () =>
      post('restore-password/', { username: 'bruno', code: brunoCode, password: NEW_PASSWORD }),
    // The code is given back unspent, the sessions stay.
    state: async () => (await allCodes()).map(({ usedAt, username }) => ({ usedAt, username })),
    undo: () => {
      simUser('bruno').password = PASSWORDS.bruno;
    },
  },
  'products.get': {
    call: () => ctx.request('GET', `/api/v1/products/${PRODUCT}/`, withUpstream()),
  },
  'products.price': {
    call: () => ctx.request('GET', `/api/v1/products/${PRODUCT}/price/`, withUpstream()),
  },
  'products.stock': {
    call: () =>
      ctx.request('GET', `/api/v1/products/${PRODUCT}/stock/?location_id=${GLN}`, withUpstream()),
  },
  categories: { call: () => ctx.request('GET', '/api/v1/categories/', withUpstream()) },
  credit: {
    call: () => ctx.request('GET', `/api/v1/credit-check/${organization}/`, withUpstream()),
  },
  // The telephone number stored at login, the service account's token.
  shipments: {
    call: () => ctx.request('GET', '/api/v1/users/me/shipments/', { token: anna.token }),
  },
};

/** The spoils every route gets; `text` ones only where the real answer has strings. */
function spoilsFor(route: SimRoute): [string, Spoil][] {
  const spoils: [string, Spoil][] = [
    ['64 MB with Content-Length', { type: 'oversize', bytes: 64 * MB, contentLength: true }],
    [
      '64 MB chunked (no Content-Length)',
      { type: 'oversize', bytes: 64 * MB, contentLength: false },
    ],
    ['a body dripping a byte pair every 100 ms', { type: 'drip', everyMs: 100 }],
    ['wrong JSON types', { type: 'wrong-types' }],
    [
      'a huge array at the byte bound',
      { type: 'huge-array', bytes: ANSWER_BYTES[route as keyof typeof ANSWER_BYTES] },
    ],
    ['a redirect (307) to the real answer', { type: 'redirect', status: 307 }],
    ['an HTML 200', { type: 'html' }],
    ['truncated JSON', { type: 'truncated' }],
    ['a connection reset mid-body', { type: 'reset' }],
  ];
  // Answers with strings: not the 204s, not credit's `{"credit": true}`. The order answer's
  // strings are checked by placeOrder (test/carts/checkout-answers.test.ts).
  if (!['me.password', 'admin.password', 'credit', 'orders'].includes(route)) {
    spoils.push(['NUL inside strings', { type: 'text', what: 'nul' }]);
    spoils.push(['lone surrogates inside strings', { type: 'text', what: 'surrogate' }]);
  }
  return spoils;
}

const UPSTREAM_ERROR = { detail: expect.any(String), code: 'upstream_error' };
const UPSTREAM_TIMEOUT = { detail: expect.any(String), code: 'upstream_timeout' };

/** The log lines written since `from` that report a failed call of `route`. */
function failuresLogged(from: number, route: SimRoute) {
  return logLines
    .slice(from)
    .filter(
      (l) =>
        (l.msg === 'upstream call failed' && l.upstream?.route === route) ||
        (typeof l.err?.message === 'string' && l.err.message.startsWith(`upstream ${route}:`)),
    );
}

/** What holds after every spoilt answer: the size bound kept, no body logged, the service up. */
async function afterSpoil(route: SimRoute, spoil: Spoil, logFrom: number, textFrom: number) {
  const served = hostile.served.at(-1)!;
  expect(served.route).toBe(route);
  if (spoil.type === 'oversize') {
    // Refused or cut at the bound: the connection was closed long before 64 MB were read.
    await served.finished;
    expect(served.cut).toBe(true);
    // The reason in the log (a background job logs the failure's kind only).
    const logged = JSON.stringify(failuresLogged(logFrom, route));
    expect(logged).toMatch(
      DRIVES[route as keyof typeof DRIVES]?.background ? /bad_response/ : /answer over \d+ bytes/,
    );
  }
  // Logged without the body.
  expect(logText.slice(textFrom)).not.toContain('aaaaaaaaaaaaaaaa');
  expect(logText.slice(textFrom)).not.toContain('{},{},{}');
  // The service is up and answers the next call from a healthy ERP.
  const next = await ctx.request('GET', `/api/v1/products/${PRODUCT}/`, withUpstream());
  expect(next.status, next.text).toBe(200);
}

describe('every upstream route the service calls, spoilt: a clean 502 or 504', () => {
  for (const [route, drive] of Object.entries(DRIVES) as [keyof typeof DRIVES, Drive][]) {
    describe(route, () => {
      it.each(spoilsFor(route))('%s', async (_what, spoil) => {
        const before = await drive.state?.();
        const logFrom = logLines.length;
        const textFrom = logText.length;
        const served = hostile.served.length;
        hostile.spoil(route, spoil);
        const answer = await drive.call();
        if (drive.background) {
          expect(answer.status).toBe(route === 'admin.users' ? 201 : 202);
          await restoreJobsDone(ctx);
          // The job ended, its failure logged (never the answer's text).
          expect(failuresLogged(logFrom, route)).not.toHaveLength(0);
        } else if (spoil.type === 'drip') {
          expect(answer.status, answer.text).toBe(504);
          expect(answer.body).toEqual(UPSTREAM_TIMEOUT);
        } else {
          expect(answer.status, answer.text).toBe(502);
          expect(answer.body).toEqual(UPSTREAM_ERROR);
          expect(failuresLogged(logFrom, route)).not.toHaveLength(0);
        }
        expect(hostile.served.length, 'the route was called and spoilt').toBe(served + 1);
        drive.undo?.();
        if (drive.state) expect(await drive.state()).toEqual(before);
        await afterSpoil(route, spoil, logFrom, textFrom);
      });
    });
  }
});

describe('answers that parse, but must not be used: a 502, nothing stored', () => {
  const login = () => post('auth/jwt/token/', { username: 'anna', password: PASSWORDS.anna });
  const profileWith = (real: string, extra: string) =>
    Buffer.from(`${real.slice(0, -1)},${extra}}`);
  it.each<[string, (real: string) => Buffer, RegExp]>([
    [
      'a profile with a __proto__ key (prototype poisoning)',
      (real) => profileWith(real, '"__proto__":{"is_admin":true}'),
      /prototype key/,
    ],
    [
      'a profile with constructor.prototype',
      (real) => profileWith(real, '"constructor":{"prototype":{"is_admin":true}}'),
      /prototype key/,
    ],
    [
      'a profile with a field nested 20,000 deep (a stack overflow in the checks)',
      (real) => profileWith(real, `"x":${'['.repeat(20_000)}${']'.repeat(20_000)}`),
      /nested over 64 levels/,
    ],
    [
      'a profile whose first_name is not UTF-8 (would be stored as U+FFFD)',
      (real) => {
        const profile = JSON.parse(real);
        const [before, after] = JSON.stringify({ ...profile, first_name: '#' }).split('#');
        return Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
      },
      /not UTF-8/,
    ],
  ])('%s', async (_what, body, reason) => {
    const before = await annaAsStored();
    const logFrom = logLines.length;
    hostile.spoil('me', { type: 'raw', body });
    const answer = await login();
    expect(answer.status, answer.text).toBe(502);
    expect(answer.body).toEqual(UPSTREAM_ERROR);
    expect(JSON.stringify(failuresLogged(logFrom, 'me'))).toMatch(reason);
    expect(await annaAsStored()).toEqual(before);
  });
});

describe('the bounds are where the table says', () => {
  const routes = [
    'me',
    'products.get',
    'products.price',
    'products.stock',
    'categories',
    'credit',
    'shipments',
  ] as const;
  it.each(routes)(
    '%s: the real answer padded to its bound is used; one byte more is a 502',
    async (route) => {
      const bound = ANSWER_BYTES[route];
      // JSON allows whitespace after the value: the same answer, `size` bytes long.
      const padded = (size: number) => (real: string) => Buffer.from(real.padEnd(size, ' '));
      hostile.spoil(route, { type: 'raw', body: padded(bound) });
      const atBound = await DRIVES[route].call();
      expect(atBound.status, atBound.text).toBe(200);
      const logFrom = logLines.length;
      hostile.spoil(route, { type: 'raw', body: padded(bound + 1) });
      const over = await DRIVES[route].call();
      expect(over.status, over.text).toBe(502);
      expect(JSON.stringify(failuresLogged(logFrom, route))).toContain(
        `answer over ${bound} bytes`,
      );
    },
  );

  it('brackets and escaped quotes inside strings do not count as nesting', async () => {
    const name = `${'['.repeat(100)}\\"${'{'.repeat(100)}`;
    hostile.spoil('me', {
      type: 'raw',
      body: (real) => Buffer.from(JSON.stringify({ ...JSON.parse(real), first_name: name })),
    });
    const answer = await post('auth/jwt/token/', { username: 'anna', password: PASSWORDS.anna });
    expect(answer.status, answer.text).toBe(200);
    expect((await annaAsStored()).user.firstName).toBe(name);
    // The real profile back.
    expect(
      (await post('auth/jwt/token/', { username: 'anna', password: PASSWORDS.anna })).status,
    ).toBe(200);
  });
});

describe('orders: a spoilt answer after the ERP placed the order', () => {
  it.each(spoilsFor('orders'))(
    '%s: the cart stays frozen, then checks out exactly once',
    async (_what, spoil) => {
      const cart = await cartWith(ctx, anna, { store: GLN }, [[PRODUCT, 2]]);
      const logFrom = logLines.length;
      const textFrom = logText.length;
      hostile.spoil('orders', { ...spoil, after: true });
      const answer = await checkout(ctx, anna, cart);
      if (spoil.type === 'drip') {
        expect(answer.status, answer.text).toBe(504);
        expect(answer.body).toEqual(UPSTREAM_TIMEOUT);
      } else {
        expect(answer.status, answer.text).toBe(502);
        expect(answer.body).toEqual(UPSTREAM_ERROR);
      }
      const placed = () =>
        ctx.sim.orders.filter((o) => o.idempotency_key.startsWith(`cart-${cart}-`));
      expect(placed()).toHaveLength(1);
      // Nothing recorded, and the lines frozen: the order may have been placed (decision 0001).
      const recorded = () =>
        ctx.database.db.select().from(checkouts).where(eq(checkouts.cartId, cart));
      expect(await recorded()).toHaveLength(0);
      expect((await postItem(ctx, anna, cart, 'P-2')).status).toBe(409);
      await afterSpoil('orders', spoil, logFrom, textFrom);
      // The ERP healthy again: the retry completes, with the order placed the first time.
      const retry = await checkout(ctx, anna, cart);
      expect(retry.status, retry.text).toBe(200);
      expect(retry.body.order_id).toBe(placed()[0].order_id);
      expect(placed()).toHaveLength(1);
      expect(await recorded()).toHaveLength(1);
      expect((await checkout(ctx, anna, cart)).status).toBe(200);
      expect(placed()).toHaveLength(1);
    },
  );
});

describe('auth.refresh (the client method; no service route calls it today)', () => {
  it.each(spoilsFor('auth.refresh'))(
    '%s: an UpstreamFailure, never a token',
    async (_what, spoil) => {
      const client = new UpstreamClient({
        url: hostile.url,
        timeoutMs: TIMEOUT_MS,
        serviceAccount: DEMO_SERVICE_ACCOUNT,
      });
      try {
        const pair = await client.login('carla', PASSWORDS.carla);
        hostile.spoil('auth.refresh', spoil);
        const failure = await client.refresh(pair!.refresh_token).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(UpstreamFailure);
        expect((failure as UpstreamFailure).kind).toBe(
          spoil.type === 'drip' ? 'timeout' : 'bad_response',
        );
        if (spoil.type === 'oversize') {
          await hostile.served.at(-1)!.finished;
          expect(hostile.served.at(-1)!.cut).toBe(true);
          expect(String(((failure as UpstreamFailure).cause as Error).message)).toMatch(
            /^answer over 16384 bytes/,
          );
        }
        // The next refresh, unspoilt, works (a fresh pair: one passed through was spent).
        const fresh = await client.login('carla', PASSWORDS.carla);
        expect(await client.refresh(fresh!.refresh_token)).not.toBeNull();
      } finally {
        await client.close();
      }
    },
  );
});
