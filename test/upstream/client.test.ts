import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Fault, SimRoute } from '../../erp-simulator/faults.js';
import {
  DEMO_SERVICE_ACCOUNT,
  DEMO_STORE_GLNS,
  DEMO_USERS,
  type Simulator,
  startSimulator,
} from '../../erp-simulator/server.js';
import { UpstreamClient, type UpstreamOptions } from '../../src/upstream/client.js';
import { UpstreamFailure } from '../../src/upstream/errors.js';
import { until } from '../helpers/wait.js';

const PRODUCT = '10001234';
const TIMEOUT_MS = 300;
const password = (name: string) => DEMO_USERS.find((u) => u.username === name)!.password;

let sim: Simulator;
let annaToken: string;
const opened: UpstreamClient[] = [];

function client(options: Partial<UpstreamOptions> = {}): UpstreamClient {
  const made = new UpstreamClient({
    url: sim.url,
    timeoutMs: TIMEOUT_MS,
    serviceAccount: DEMO_SERVICE_ACCOUNT,
    ...options,
  });
  opened.push(made);
  return made;
}

const countCalls = (route: SimRoute) => sim.calls.filter((c) => c.route === route).length;

/** The UpstreamFailure a call ends with. */
async function failureOf(promise: Promise<unknown>): Promise<UpstreamFailure> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamFailure);
    return error as UpstreamFailure;
  }
  throw new Error('expected the call to fail');
}

function order(overrides: Record<string, unknown> = {}) {
  return {
    channel: 'store' as const,
    store_gln: DEMO_STORE_GLNS[0],
    organization_id: 'ORG-1001',
    customer_order_number: 'PO-1',
    order_mark: 'mark',
    reference: null,
    lines: [{ part_number: PRODUCT, quantity: 2 }],
    ...overrides,
  };
}

let keySeq = 0;
const newKey = () => `client-test-${++keySeq}`;

beforeAll(async () => {
  sim = await startSimulator();
  const pair = await client().login('anna', password('anna'));
  annaToken = pair!.access_token;
});
afterEach(() => sim.clearFaults());
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await sim?.close();
});

describe('answers', () => {
  it('tells a wrong current password from a refused new one on password change', async () => {
    const upstream = client();
    const anna = password('anna');
    expect(await upstream.changePassword(annaToken, 'wrong', 'long-enough-1')).toBe(
      'wrong_password',
    );
    // The simulator's policy: at least 8 characters.
    expect(await upstream.changePassword(annaToken, anna, 'short')).toBe('new_password_refused');
    expect(sim.data.users.find((u) => u.username === 'anna')!.password).toBe(anna);
  });

  it('reads products, prices, stock, categories and credit with a user token', async () => {
    const upstream = client();
    const caller = { token: annaToken };
    expect((await upstream.product(caller, PRODUCT))?.article_number).toBe(PRODUCT);
    expect((await upstream.price(caller, PRODUCT))?.article_number).toBe(PRODUCT);
    expect((await upstream.stock(caller, PRODUCT, DEMO_STORE_GLNS[0]))?.location_id).toBe(
      DEMO_STORE_GLNS[0],
    );
    expect(Array.isArray(await upstream.categories(caller))).toBe(true);
    expect(typeof (await upstream.credit(caller, 'ORG-1001'))?.credit).toBe('boolean');
    const call = sim.calls.at(-1)!;
    expect(call.authorization).toBe(`Bearer ${annaToken}`);
  });

  it('maps 404 to null for product, price, stock and credit', async () => {
    const upstream = client();
    const caller = { token: annaToken };
    expect(await upstream.product(caller, 'NO-SUCH-PART')).toBeNull();
    expect(await upstream.price(caller, 'NO-SUCH-PART')).toBeNull();
    expect(await upstream.stock(caller, 'NO-SUCH-PART', DEMO_STORE_GLNS[0])).toBeNull();
    expect(await upstream.credit(caller, 'ORG-NOPE')).toBeNull();
  });

  it('checks answers against the contract: one that does not fit is bad_response', async () => {
    const upstream = client();
    const caller = { token: annaToken };
    const offContract: [SimRoute, () => Promise<unknown>][] = [
      ['products.get', () => upstream.product(caller, PRODUCT)],
      ['products.price', () => upstream.price(caller, PRODUCT)],
      ['products.stock', () => upstream.stock(caller, PRODUCT, DEMO_STORE_GLNS[0])],
      ['categories', () => upstream.categories(caller)],
      ['credit', () => upstream.credit(caller, 'ORG-1001')],
      ['shipments', () => upstream.shipments(caller, '+49 40 1234567')],
    ];
    for (const [route, read] of offContract) {
      // A 200 with null is no 404: null is not the answer docs/erp-contract.md describes either.
      for (const body of [{ unexpected: true }, null]) {
        sim.inject(route, { type: 'answer', body });
        const failure = await failureOf(read());
        expect(failure.kind).toBe('bad_response');
        expect(failure.route).toBe(route);
        expect(failure.toApiError().statusCode).toBe(502);
      }
    }
  });

  it('encodes path and query parts', async () => {
    const upstream = client();
    expect(await upstream.product({ token: annaToken }, 'a/b?c=d')).toBeNull();
    expect(sim.calls.at(-1)!.path).toBe('/products/a%2Fb%3Fc%3Dd');
  });

  it('logs in: null on wrong credentials', async () => {
    const upstream = client();
    expect(await upstream.login('anna', 'wrong-password')).toBeNull();
    const pair = await upstream.login('anna', password('anna'));
    expect(typeof pair?.access_token).toBe('string');
    expect(typeof pair?.refresh_token).toBe('string');
  });

  it('places an order (201), repeats it under the same key (same answer), 202 is queued', async () => {
    const upstream = client();
    const key = newKey();
    const first = await upstream.placeOrder({ token: annaToken }, key, order());
    expect(first).toEqual({
      orderId: expect.any(String),
      orderNumber: expect.any(String),
      queued: false,
    });
    const again = await upstream.placeOrder({ token: annaToken }, key, order());
    expect(again).toEqual(first);
    const placed = sim.orders.filter((o) => o.idempotency_key === key);
    expect(placed).toHaveLength(1);
    expect(placed[0].placed_by).toBe('anna');
    expect(sim.calls.at(-1)!.idempotencyKey).toBe(key);

    sim.inject('orders', { type: 'saturated' });
    const queued = await upstream.placeOrder('service', newKey(), order());
    expect(queued.queued).toBe(true);
    expect(sim.orders.at(-1)!.placed_by).toBe(DEMO_SERVICE_ACCOUNT.username);
  });

  it('a reused key with another body is an unusable answer (502)', async () => {
    const upstream = client();
    const key = newKey();
    await upstream.placeOrder({ token: annaToken }, key, order());
    const failure = await failureOf(
      upstream.placeOrder({ token: annaToken }, key, order({ order_mark: 'other' })),
    );
    expect(failure.kind).toBe('bad_response');
    expect(failure.status).toBe(409);
    expect(failure.toApiError().statusCode).toBe(502);
  });
});

describe('failures', () => {
  const cases: {
    fault: Fault;
    kind: UpstreamFailure['kind'];
    status: number;
    code: string;
  }[] = [
    {
      fault: { type: 'unavailable' },
      kind: 'unavailable',
      status: 503,
      code: 'upstream_unavailable',
    },
    { fault: { type: 'html500' }, kind: 'bad_response', status: 502, code: 'upstream_error' },
    { fault: { type: 'malformed' }, kind: 'bad_response', status: 502, code: 'upstream_error' },
    { fault: { type: 'reset' }, kind: 'bad_response', status: 502, code: 'upstream_error' },
    {
      fault: { type: 'delay', ms: TIMEOUT_MS * 5 },
      kind: 'timeout',
      status: 504,
      code: 'upstream_timeout',
    },
    // A status the call does not expect.
    { fault: { type: 'saturated' }, kind: 'bad_response', status: 502, code: 'upstream_error' },
  ];

  for (const { fault, kind, status, code } of cases) {
    it(`${fault.type} → ${kind} → ${status}`, async () => {
      const upstream = client();
      sim.inject('products.get', fault);
      const failure = await failureOf(upstream.product({ token: annaToken }, PRODUCT));
      expect(failure.kind).toBe(kind);
      const apiError = failure.toApiError();
      expect(apiError.statusCode).toBe(status);
      expect(apiError.body.code).toBe(code);
      // The client stays usable after the failure.
      expect((await upstream.product({ token: annaToken }, PRODUCT))?.article_number).toBe(PRODUCT);
    });
  }

  it('keeps the JSON body of an upstream 503', async () => {
    const upstream = client();
    sim.inject('orders', { type: 'unavailable' });
    const key = newKey();
    const failure = await failureOf(upstream.placeOrder({ token: annaToken }, key, order()));
    expect(failure.kind).toBe('unavailable');
    expect(failure.status).toBe(503);
    expect(failure.body).toEqual({ error: 'unavailable', detail: expect.any(String) });
    expect(sim.orders.filter((o) => o.idempotency_key === key)).toHaveLength(0);
  });

  it('maps each fault of an order call too', async () => {
    const upstream = client();
    for (const [fault, kind] of [
      [{ type: 'html500' }, 'bad_response'],
      [{ type: 'malformed' }, 'bad_response'],
      [{ type: 'reset' }, 'bad_response'],
      [{ type: 'delay', ms: TIMEOUT_MS * 5 }, 'timeout'],
    ] as const) {
      sim.inject('orders', fault);
      const failure = await failureOf(upstream.placeOrder('service', newKey(), order()));
      expect(failure.kind, fault.type).toBe(kind);
    }
  });

  it('a refused connection is unavailable (503)', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const upstream = client({ url: `http://127.0.0.1:${port}` });
    const failure = await failureOf(upstream.product({ token: annaToken }, PRODUCT));
    expect(failure.kind).toBe('unavailable');
    expect(failure.toApiError().statusCode).toBe(503);
    expect(failure.toApiError().body.code).toBe('upstream_unavailable');
  });

  it('the timeout is enforced while the body is read as well', async () => {
    // A server that sends headers at once and never finishes the body.
    const server = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":',
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const upstream = client({ url: `http://127.0.0.1:${port}` });
      const failure = await failureOf(upstream.product({ token: annaToken }, PRODUCT));
      expect(failure.kind).toBe('timeout');
      expect(failure.toApiError().statusCode).toBe(504);
    } finally {
      server.close();
    }
  });

  it('describe() never carries the token or the body', async () => {
    const upstream = client();
    sim.inject('orders', { type: 'unavailable' });
    const failure = await failureOf(upstream.placeOrder({ token: annaToken }, newKey(), order()));
    const text = JSON.stringify(failure.describe());
    expect(text).not.toContain(annaToken);
    expect(text).not.toContain('temporarily');
  });
});

describe('tokens', () => {
  it('a 401 to a user token is token_not_valid (401 upstream_token_not_valid), no retry', async () => {
    const upstream = client();
    const before = countCalls('products.get');
    const failure = await failureOf(upstream.product({ token: 'not-a-token' }, PRODUCT));
    expect(failure.kind).toBe('token_not_valid');
    const apiError = failure.toApiError();
    expect(apiError.statusCode).toBe(401);
    expect(apiError.body.code).toBe('upstream_token_not_valid');
    expect(countCalls('products.get') - before).toBe(1);

    sim.inject('orders', { type: 'unauthorized' });
    const onOrder = await failureOf(upstream.placeOrder({ token: annaToken }, newKey(), order()));
    expect(onOrder.kind).toBe('token_not_valid');
  });

  it('service calls log in lazily, once, even when concurrent', async () => {
    const upstream = client();
    const logins = countCalls('auth.token');
    const found = await Promise.all(Array.from({ length: 10 }, () => upstream.findUser('anna')));
    expect(found.every((u) => u?.username === 'anna')).toBe(true);
    expect(countCalls('auth.token') - logins).toBe(1);
    await upstream.findUser('bruno');
    expect(countCalls('auth.token') - logins).toBe(1);
    expect(await upstream.findUser('nobody')).toBeNull();
    expect(sim.calls.at(-1)!.authorization).toMatch(/^Bearer \S+$/);
  });

  it('on a 401 the service account logs in again once and repeats the call', async () => {
    const upstream = client();
    await upstream.findUser('anna');
    sim.revokeTokens(DEMO_SERVICE_ACCOUNT.username);
    const logins = countCalls('auth.token');
    const calls = countCalls('admin.user');
    expect((await upstream.findUser('anna'))?.username).toBe('anna');
    expect(countCalls('auth.token') - logins).toBe(1);
    expect(countCalls('admin.user') - calls).toBe(2);
  });

  it('a second 401 after the new login is a failure, not a loop', async () => {
    const upstream = client();
    await upstream.findUser('anna');
    const logins = countCalls('auth.token');
    const calls = countCalls('admin.user');
    sim.inject('admin.user', { type: 'unauthorized' }, 2);
    const failure = await failureOf(upstream.findUser('anna'));
    expect(failure.kind).toBe('bad_response');
    expect(failure.status).toBe(401);
    expect(countCalls('auth.token') - logins).toBe(1);
    expect(countCalls('admin.user') - calls).toBe(2);
    // The next call works with the new token.
    expect((await upstream.findUser('anna'))?.username).toBe('anna');
    expect(countCalls('auth.token') - logins).toBe(1);
  });

  it('concurrent calls that all meet a revoked token log in again once', async () => {
    const upstream = client();
    await upstream.findUser('anna');
    sim.revokeTokens(DEMO_SERVICE_ACCOUNT.username);
    const logins = countCalls('auth.token');
    const found = await Promise.all(Array.from({ length: 10 }, () => upstream.findUser('anna')));
    expect(found.every((u) => u?.username === 'anna')).toBe(true);
    expect(countCalls('auth.token') - logins).toBe(1);
  });

  it('a failed service login is not cached', async () => {
    const upstream = client();
    sim.inject('auth.token', { type: 'html500' });
    const failure = await failureOf(upstream.findUser('anna'));
    expect(failure.kind).toBe('bad_response');
    expect((await upstream.findUser('anna'))?.username).toBe('anna');
  });

  it('wrong service credentials fail without a loop', async () => {
    const upstream = client({ serviceAccount: { username: 'service', password: 'wrong' } });
    const logins = countCalls('auth.token');
    const failure = await failureOf(upstream.findUser('anna'));
    expect(failure.toApiError().statusCode).toBe(502);
    expect(countCalls('auth.token') - logins).toBe(1);
  });
});

describe('connection pool', () => {
  it('keeps connections alive between calls', async () => {
    // A TCP relay in front of the simulator counts the connections the client opens.
    const target = new URL(sim.url);
    let connections = 0;
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((inbound) => {
      connections++;
      const outbound = net.connect(Number(target.port), target.hostname);
      sockets.add(inbound).add(outbound);
      inbound.pipe(outbound).pipe(inbound);
      const end = () => {
        inbound.destroy();
        outbound.destroy();
      };
      inbound.on('error', end).on('close', end);
      outbound.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const { port } = relay.address() as net.AddressInfo;
    try {
      const upstream = client({ url: `http://127.0.0.1:${port}` });
      for (let i = 0; i < 20; i++) {
        expect((await upstream.product({ token: annaToken }, PRODUCT))?.article_number).toBe(
          PRODUCT,
        );
      }
      // undici may open a second connection while the first is finishing its answer; what
      // matters is that 20 calls do not open 20 connections.
      expect(connections).toBeLessThanOrEqual(2);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    }
  });
});

describe('kinds of call', () => {
  const received = (key: string) => sim.calls.some((c) => c.idempotencyKey === key);

  /** The outcome of a call, and how long it took. */
  async function timed<T>(
    promise: Promise<T>,
  ): Promise<{ ms: number; value?: T; error?: unknown }> {
    const started = performance.now();
    try {
      const value = await promise;
      return { ms: performance.now() - started, value };
    } catch (error) {
      return { ms: performance.now() - started, error };
    }
  }

  it('hung orders hold only the orders connections: identity and catalogue calls answer', async () => {
    const upstream = client({ timeoutMs: 3_000, connections: { orders: 2 } });
    await upstream.findUser('anna'); // the service account logs in before the ERP hangs
    sim.inject('orders', { type: 'hang' }, 3);
    const keys = [newKey(), newKey(), newKey()];
    try {
      const held = keys
        .slice(0, 2)
        .map((key) => timed(upstream.placeOrder('service', key, order())));
      await until(() => keys.slice(0, 2).every(received), 'two orders at the ERP', 10_000, 5);
      const queued = timed(upstream.placeOrder('service', keys[2], order()));
      await until(() => upstream.stats().orders.queued === 1, 'an order queued', 10_000, 5);
      expect(upstream.stats().orders).toEqual({ active: 2, queued: 1 });

      for (const call of [
        () => upstream.login('bruno', password('bruno')),
        () => upstream.me(annaToken),
        () => upstream.findUser('bruno'),
        () => upstream.product({ token: annaToken }, PRODUCT),
        () => upstream.categories('service'),
      ]) {
        const { ms, error } = await timed<unknown>(call());
        expect(error).toBeUndefined();
        expect(ms).toBeLessThan(1_000);
      }

      // The third order waited for a connection for half the timeout, and was never sent.
      const { ms, error } = await queued;
      expect(error).toBeInstanceOf(UpstreamFailure);
      const failure = error as UpstreamFailure;
      expect(failure.kind).toBe('timeout');
      expect(failure.phase).toBe('queued');
      expect(failure.describe()).toMatchObject({ route: 'orders', phase: 'queued' });
      expect(failure.toApiError().statusCode).toBe(504);
      expect(ms).toBeGreaterThanOrEqual(1_400);
      expect(ms).toBeLessThan(3_000);
      expect(received(keys[2])).toBe(false);

      // Released in time, the held orders are answered.
      sim.release();
      for (const { value } of await Promise.all(held)) expect(value?.orderNumber).toBeTruthy();
      expect(upstream.stats().orders).toEqual({ active: 0, queued: 0 });
    } finally {
      sim.release();
    }
  });

  it('says whether a timed-out call was queued or waiting for its answer', async () => {
    const upstream = client({ connections: { orders: 1 } });
    sim.inject('orders', { type: 'hang' });
    const [sent, waiting] = [newKey(), newKey()];
    try {
      const first = timed(upstream.placeOrder({ token: annaToken }, sent, order()));
      await until(() => received(sent), 'the order at the ERP', 10_000, 5);
      const second = await timed(upstream.placeOrder({ token: annaToken }, waiting, order()));
      expect((second.error as UpstreamFailure).phase).toBe('queued');
      expect(received(waiting)).toBe(false);
      const { error } = await first;
      expect((error as UpstreamFailure).kind).toBe('timeout');
      expect((error as UpstreamFailure).phase).toBe('waiting for answer');
      expect((error as UpstreamFailure).describe()).toMatchObject({
        phase: 'waiting for answer',
      });
      expect((error as UpstreamFailure).toApiError().statusCode).toBe(504);
      // The queue moves on: the next order is sent and answered.
      const next = await upstream.placeOrder({ token: annaToken }, newKey(), order());
      expect(next.orderId).toEqual(expect.any(String));
    } finally {
      sim.release();
    }
  });

  it('the timeout runs from the call: a call that waited for a connection has the rest', async () => {
    const upstream = client({ timeoutMs: 1_000, queueTimeoutMs: 900, connections: { orders: 1 } });
    // The first order is answered after 500 ms; the second waits for it, then is answered
    // 800 ms after it is sent: 1.3 s after the call, past its timeout.
    sim.inject('orders', { type: 'delay', ms: 500 });
    sim.inject('orders', { type: 'delay', ms: 800 });
    const first = upstream.placeOrder({ token: annaToken }, newKey(), order());
    const second = timed(upstream.placeOrder({ token: annaToken }, newKey(), order()));
    expect((await first).orderId).toEqual(expect.any(String));
    const { ms, error } = await second;
    expect((error as UpstreamFailure).kind).toBe('timeout');
    expect((error as UpstreamFailure).phase).toBe('waiting for answer');
    expect(ms).toBeLessThan(1_250);
  });

  it('close() closes the connections of every kind', async () => {
    const upstream = client();
    await upstream.findUser('anna');
    expect(await upstream.product({ token: annaToken }, PRODUCT)).not.toBeNull();
    await upstream.placeOrder({ token: annaToken }, newKey(), order());
    await upstream.close();
    await upstream.close(); // idempotent
    for (const call of [
      () => upstream.login('anna', password('anna')),
      () => upstream.product({ token: annaToken }, PRODUCT),
      () => upstream.placeOrder({ token: annaToken }, newKey(), order()),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(UpstreamFailure);
    }
  });
});
