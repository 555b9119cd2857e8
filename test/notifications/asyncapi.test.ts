import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AsyncAPIDocumentInterface, Parser } from '@asyncapi/parser';
import Value from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import { CLOSE_CODES } from '../../src/notifications/asyncapi.js';
import { NOTIFICATION_TYPES } from '../../src/notifications/notifier.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { cartWith, checkedOutCart, createStore } from '../helpers/fixtures.js';
import { type Client, connect, type Message } from './client.js';

/**
 * The AsyncAPI document of the notification WebSocket (`/api/asyncapi/`), as a phone app's
 * developers generate from it: valid for @asyncapi/parser, listing every message type with
 * its payload schema and every close code; checked against the messages the service really
 * sends and the close codes and types its source uses.
 */

const DRAWN = DEMO_STORE_GLNS[1];
const PLAIN = DEMO_STORE_GLNS[0];

let ctx: TestContext;
let raw: Record<string, unknown>;
let document: AsyncAPIDocumentInterface;
const clients: Client[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  const answer = await ctx.request('GET', '/api/asyncapi/');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  raw = answer.body;
  const parsed = await new Parser().parse(JSON.stringify(raw));
  // Errors and warnings (severity 0 and 1) are what a regression brings; only the
  // information that a newer AsyncAPI version exists is let through.
  const problems = parsed.diagnostics.filter((d) => d.severity <= 1);
  expect(problems.map((d) => `${d.code} at ${d.path.join('.')}: ${d.message}`)).toEqual([]);
  document = parsed.document!;
});
afterAll(async () => {
  for (const client of clients) client.close();
  await ctx?.close();
});

/** The .ts files of src/, recursively. */
function sources(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('the AsyncAPI document', () => {
  it('is AsyncAPI 3, served beside the OpenAPI document, on the service’s address', () => {
    expect(raw.asyncapi).toMatch(/^3\./);
    const server = document.servers().all()[0]!;
    expect(server.protocol()).toBe('ws');
    expect(`http://${server.host()}`).toBe(ctx.url);
    const channel = document.channels().all()[0]!;
    expect(channel.address()).toBe('/ws/notifications/');
  });

  it('lists every message type the service sends, each with a payload schema', () => {
    const names = document
      .messages()
      .all()
      .map((m) => m.name());
    expect(names.sort()).toEqual([...NOTIFICATION_TYPES].sort());
    for (const message of document.messages().all()) {
      const payload = message.payload()!.json() as { properties?: Record<string, unknown> };
      expect(Object.keys(payload.properties ?? {}), message.name()).toEqual([
        'type',
        'data',
        'created',
      ]);
    }
    // A type the source sends is one of them (the subscribers' calls).
    const sent = sources().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/emit\(\s*deps,\s*log,[^']*'([\w.]+)'/g)].map(
        (m) => m[1],
      ),
    );
    expect(new Set(sent)).toEqual(new Set(NOTIFICATION_TYPES));
  });

  it('lists every close code the source closes a socket with', () => {
    const documented = (raw.channels as Record<string, { 'x-close-codes': { code: number }[] }>)
      .notifications['x-close-codes'];
    expect(documented).toEqual(CLOSE_CODES);
    const known = new Map<string, number>();
    for (const file of sources()) {
      const text = readFileSync(file, 'utf8');
      for (const [, name, value] of text.matchAll(/const (\w+) = (\d{4});/g)) {
        known.set(name!, Number(value));
      }
    }
    const used = new Set<number>();
    for (const file of sources()) {
      const text = readFileSync(file, 'utf8');
      for (const [, argument] of text.matchAll(/\.close\(\s*(\w+)\s*,/g)) {
        const code = /^\d+$/.test(argument!) ? Number(argument) : known.get(argument!);
        expect(code, `${file}: close(${argument})`).toBeDefined();
        used.add(code!);
      }
    }
    expect([...used].sort()).toEqual(documented.map((c) => c.code).sort());
  });
});

describe('the messages the service sends', () => {
  let anna: Session;
  let admin: Session;
  beforeAll(async () => {
    await createStore(ctx, PLAIN, { cartsForRandomControl: 0 });
    await createStore(ctx, DRAWN, { cartsForRandomControl: 1 });
    anna = await ctx.login('anna');
    admin = await ctx.loginAs('carla', 'admin');
  });

  /** The message's payload schema in the document (references resolved by the parser). */
  const payloadOf = (type: string) =>
    document
      .messages()
      .all()
      .find((m) => m.name() === type)!
      .payload()!
      .json();

  it('each of the four types matches its payload schema in the document', async () => {
    const socket = await connect(ctx, anna);
    clients.push(socket);
    const received: Message[] = [];

    // cart.checkout_failed, then cart.checked_out and the random draw's control.created.
    const cart = await cartWith(ctx, anna, { store: DRAWN });
    ctx.sim.inject('orders', { type: 'html500' });
    const failed = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(failed.status).toBe(502);
    received.push(await socket.next());
    const done = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
      token: anna.token,
    });
    expect(done.status, done.text).toBe(200);
    received.push(await socket.next(), await socket.next());
    const drawn = received[2]!;
    expect(drawn.type).toBe('control.created');

    // control.verified.
    const verified = await ctx.request('PATCH', `/api/v1/controls/${drawn.data.control.id}/`, {
      token: admin.token,
      body: { status: 'verified' },
    });
    expect(verified.status, verified.text).toBe(200);
    received.push(await socket.next());
    // One more checkout, elsewhere: a message of a type nobody expected would come first.
    await checkedOutCart(ctx, anna, { store: PLAIN });
    received.push(await socket.next());

    expect(received.map((m) => m.type)).toEqual([
      'cart.checkout_failed',
      'cart.checked_out',
      'control.created',
      'control.verified',
      'cart.checked_out',
    ]);
    for (const message of received) {
      const schema = payloadOf(message.type);
      expect(Value.Check(schema as never, message), JSON.stringify(message)).toBe(true);
    }
    // The schemas do check: a message of the wrong shape fails them.
    const [first] = received;
    const broken = { ...first, data: { ...first!.data, cart: String(first!.data.cart) } };
    expect(Value.Check(payloadOf('cart.checkout_failed') as never, broken)).toBe(false);
  });
});
