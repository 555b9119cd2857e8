import { connect as connectTcp, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORDS, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { checkedOutCart } from '../helpers/fixtures.js';
import { connect } from '../notifications/client.js';

// The bounds under test, short so the test is quick; the defaults are 30 s, 10 s and 72 s.
const REQUEST_MS = 2000;
const HEADERS_MS = 400;
const KEEP_ALIVE_MS = 1000;
// Node keeps an idle kept-alive socket 1 s past keepAliveTimeout (its own buffer against
// the race with a client reusing the socket just then).
const NODE_KEEP_ALIVE_BUFFER_MS = 1000;
// A connection may outlive its bound by Node's check interval (a tenth of the bound here)
// plus scheduling: server and 200 clients share this process (and PGlite runs in it, so
// a burst of token checks holds the event loop), on a machine other tests share.
const SLACK_MS = 2000;

let ctx: TestContext;
let anna: Session;
let port: number;
const sockets = new Set<Socket>();

beforeAll(async () => {
  ctx = await startTestApp({
    env: {
      REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      // Above the slow upstream answer of the last test.
      UPSTREAM_TIMEOUT_MS: String(REQUEST_MS * 3),
    },
  });
  port = Number(new URL(ctx.url).port);
  anna = await ctx.login('anna');
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await ctx?.close();
});

/** A raw connection: what it was answered, and when it was closed (ms after connecting). */
interface Raw {
  socket: Socket;
  received: () => string;
  /** Resolves with the lifetime in ms once the server closed the connection. */
  closed: Promise<number>;
}

function rawConnection(): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1');
    sockets.add(socket);
    let received = '';
    let opened = 0;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    // The server may reset a connection it closes while bytes are in flight.
    socket.on('error', () => {});
    const closed = new Promise<number>((done) =>
      socket.once('close', () => {
        sockets.delete(socket);
        done(Date.now() - opened);
      }),
    );
    socket.once('connect', () => {
      opened = Date.now();
      resolve({ socket, received: () => received, closed });
    });
    socket.once('error', reject);
  });
}

/** Waits for every promise until the deadline; the ones still open are `undefined`. */
async function settleBy<T>(promises: Promise<T>[], deadline: number): Promise<(T | undefined)[]> {
  const results: (T | undefined)[] = promises.map(() => undefined);
  const tracked = promises.map((p, i) =>
    p.then((value) => {
      results[i] = value;
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
  });
  await Promise.race([Promise.all(tracked), timeout]);
  clearTimeout(timer);
  return results;
}

/** The status line's code and the JSON body of the first answer in `raw`. */
function firstAnswer(raw: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
  const [head, rest = ''] = raw.split('\r\n\r\n', 2);
  const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
  let body: unknown;
  try {
    body = JSON.parse(rest.slice(0, length));
  } catch {
    body = undefined;
  }
  return { status, body };
}

const REQUEST_TIMEOUT = { detail: expect.any(String), code: 'request_timeout' };

describe('slow clients', () => {
  it('answers 408 and closes each of 200 connections that drip a body, within the bound, while serving others promptly', async () => {
    const CONNECTIONS = 200;
    // Most on the public login, where no token stands in the way of a slow client; one in
    // ten on an authenticated route, which reads the body after the token was checked.
    const routeOf = (i: number) =>
      i % 10 === 0
        ? { path: '/api/v1/carts/', token: anna.token }
        : { path: '/api/v1/auth/jwt/token/', token: undefined };
    const raws = await Promise.all(Array.from({ length: CONNECTIONS }, () => rawConnection()));
    const started = Date.now();
    raws.forEach((raw, i) => {
      const route = routeOf(i);
      raw.socket.write(
        `POST ${route.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          (route.token ? `Authorization: Bearer ${route.token}\r\n` : '') +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
      );
    });
    // A byte every 200 ms each: never idle, never done.
    const drip = setInterval(() => {
      for (const raw of raws) if (!raw.socket.destroyed) raw.socket.write(' ');
    }, 200);
    let firstClosed = Number.POSITIVE_INFINITY;
    for (const raw of raws) {
      void raw.closed.then(() => {
        firstClosed = Math.min(firstClosed, Date.now());
      });
    }

    // Meanwhile other clients are served: a health check and a login per round, until
    // the first slow connection is closed.
    const rounds: { latency: number; whileAllOpen: boolean }[] = [];
    const others = (async () => {
      while (Date.now() < firstClosed && Date.now() - started < REQUEST_MS + SLACK_MS) {
        const before = Date.now();
        const health = await fetch(`${ctx.url}/healthz`);
        expect(health.status).toBe(200);
        const login = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
          body: { username: 'bruno', password: PASSWORDS.bruno },
        });
        expect(login.status).toBe(200);
        rounds.push({ latency: Date.now() - before, whileAllOpen: Date.now() < firstClosed });
      }
    })();

    const lifetimes = await settleBy(
      raws.map((r) => r.closed),
      started + REQUEST_MS + SLACK_MS,
    );
    clearInterval(drip);
    await others;
    const open = lifetimes.filter((t) => t === undefined).length;
    expect(open, `${open} of ${CONNECTIONS} dripping connections still open`).toBe(0);
    // Not before the bound (the deadline above was the bound plus slack).
    const times = lifetimes as number[];
    expect(Math.min(...times)).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    for (const raw of raws) {
      expect(firstAnswer(raw.received())).toEqual({ status: 408, body: REQUEST_TIMEOUT });
    }
    // Served while all 200 were open (each round a health check and a login), and well
    // within the bound the slow ones were held to. (Tens of ms on a quiet machine; the
    // bound is loose because other test runs share the machine.)
    const served = rounds.filter((r) => r.whileAllOpen).map((r) => r.latency);
    expect(served.length).toBeGreaterThanOrEqual(1);
    const sorted = [...served].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    expect(median).toBeLessThan(REQUEST_MS / 2);
    console.log(
      `dripping connections lived ${Math.min(...times)}-${Math.max(...times)} ms ` +
        `(REQUEST_TIMEOUT_MS=${REQUEST_MS}); meanwhile ${served.length} rounds of ` +
        `health check + login, median ${median} ms, max ${sorted.at(-1)} ms`,
    );
  });

  it('closes the connection after an answer given before the body arrived (401), not at the bound', async () => {
    const raw = await rawConnection();
    raw.socket.write(
      'POST /api/v1/carts/ HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    const drip = setInterval(() => {
      if (!raw.socket.destroyed) raw.socket.write(' ');
    }, 50);
    const [life] = await settleBy([raw.closed], Date.now() + REQUEST_MS);
    clearInterval(drip);
    expect(life, 'still open after the 401').toBeDefined();
    expect(life!).toBeLessThan(REQUEST_MS / 2);
    const answer = firstAnswer(raw.received());
    expect(answer.status).toBe(401);
    expect(raw.received()).toMatch(/connection: close\r\n/i);
    // One answer only: no 408 after the 401.
    expect(raw.received().match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('answers what Node refuses before routing in the shape of docs/http-contract.md, and closes', async () => {
    const cases: [string, number, string][] = [
      ['NOT HTTP AT ALL\r\n\r\n', 400, 'bad_request'],
      [
        `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`,
        431,
        'request_header_fields_too_large',
      ],
    ];
    for (const [request, status, code] of cases) {
      const raw = await rawConnection();
      raw.socket.write(request);
      const [life] = await settleBy([raw.closed], Date.now() + SLACK_MS);
      expect(life, `${status} still open`).toBeDefined();
      expect(firstAnswer(raw.received())).toEqual({
        status,
        body: { detail: expect.any(String), code },
      });
      // Whoever sent it, with a token or not: no cache keeps the answer.
      expect(raw.received()).toMatch(/\r\ncache-control: no-store\r\n/i);
    }
  });

  it('closes a connection that sends part of its headers, or nothing, after the headers bound', async () => {
    const partial = await rawConnection();
    partial.socket.write('POST /api/v1/auth/jwt/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty');
    // Dripping header bytes does not help either.
    const drip = setInterval(() => {
      if (!partial.socket.destroyed) partial.socket.write('p');
    }, 50);
    const silent = await rawConnection();
    const started = Date.now();
    const [partialLife, silentLife] = await settleBy(
      [partial.closed, silent.closed],
      started + HEADERS_MS + SLACK_MS,
    );
    clearInterval(drip);
    expect(partialLife, 'partial headers still open').toBeDefined();
    expect(silentLife, 'silent connection still open').toBeDefined();
    for (const life of [partialLife!, silentLife!]) {
      expect(life).toBeGreaterThanOrEqual(HEADERS_MS - 100);
      // The headers' bound, not the longer one of the whole request.
      expect(life).toBeLessThan(REQUEST_MS);
    }
    expect(firstAnswer(partial.received())).toEqual({ status: 408, body: REQUEST_TIMEOUT });
  });

  it('closes an idle kept-alive connection after the keep-alive bound, and keeps serving it until then', async () => {
    const raw = await rawConnection();
    const ask = () =>
      raw.socket.write(
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n',
      );
    const answered = (n: number) =>
      new Promise<number>((resolve) => {
        const check = () => {
          if ((raw.received().match(/HTTP\/1\.1 200/g) ?? []).length >= n) {
            raw.socket.off('data', check);
            resolve(Date.now());
          }
        };
        raw.socket.on('data', check);
        check();
      });
    ask();
    await answered(1);
    // Within the bound the connection is reused.
    ask();
    const idleFrom = await answered(2);
    const [closedAt] = await settleBy(
      [raw.closed.then(() => Date.now())],
      idleFrom + KEEP_ALIVE_MS + NODE_KEEP_ALIVE_BUFFER_MS + SLACK_MS,
    );
    expect(closedAt, 'idle kept-alive connection still open').toBeDefined();
    const idle = closedAt! - idleFrom;
    expect(idle).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 100);
    expect(idle).toBeLessThanOrEqual(KEEP_ALIVE_MS + NODE_KEEP_ALIVE_BUFFER_MS + SLACK_MS);
    // The answers announce the bound, in whole seconds.
    expect(raw.received()).toMatch(/keep-alive: timeout=1\r\n/i);
    // A 408 status line, not the digits anywhere (a random x-request-id may hold "408").
    expect(raw.received()).not.toMatch(/^HTTP\/1\.1 408 /m);
  });

  it('leaves a WebSocket open past the request and keep-alive bounds', async () => {
    const client = await connect(ctx, anna);
    let closedEarly = false;
    void client.closed.then(() => {
      closedEarly = true;
    });
    // Not an ordering sleep: the point is to outlive every bound.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(REQUEST_MS, KEEP_ALIVE_MS + NODE_KEEP_ALIVE_BUFFER_MS) + 500),
    );
    expect(closedEarly).toBe(false);
    const cart = await checkedOutCart(ctx, anna, { store: null });
    const message = await client.next();
    expect(message).toMatchObject({ type: 'cart.checked_out', data: { cart } });
    client.close();
  });

  it('does not cut short an answer that takes longer than the request bound (the request itself arrived in time)', async () => {
    ctx.sim.inject('auth.token', { type: 'delay', ms: REQUEST_MS + 500 });
    const before = Date.now();
    const login = await ctx.request('POST', '/api/v1/auth/jwt/token/', {
      body: { username: 'anna', password: PASSWORDS.anna },
    });
    expect(login.status).toBe(200);
    expect(Date.now() - before).toBeGreaterThanOrEqual(REQUEST_MS + 500);
  });
});

describe('shutdown', () => {
  it('is not held by a connection that was opened and never sent a request', async () => {
    const own = await startTestApp();
    const silent = connectTcp(Number(new URL(own.url).port), '127.0.0.1');
    silent.on('error', () => {});
    await new Promise((resolve) => silent.once('connect', resolve));
    const closed = new Promise((resolve) => silent.once('close', resolve));
    const started = Date.now();
    // Before the fix this waited for ever: Node's sweep at close leaves such a connection,
    // and the timer that ends it at the headers bound (10 s here) stops with the server.
    await own.close();
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
