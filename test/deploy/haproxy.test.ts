import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HaProxy, haproxyInstalled, startHaProxy } from '../fleet/cluster.js';
import { freePort } from '../helpers/process.js';
import { until } from '../helpers/wait.js';

/**
 * HAProxy's own answers (deploy/haproxy/haproxy.cfg's `http-error` lines) are the service's
 * JSON error bodies (docs/http-contract.md), not HAProxy's HTML pages: what a client meets
 * when no instance is ready (503, e.g. the database down), when an instance cuts its answer
 * (502) or does not answer in time (504).
 */

if (!haproxyInstalled) console.log('haproxy tests skipped: apt-get install -y haproxy');

/** Passes /readyz; cuts /api/cut without an answer; never answers /api/slow. */
function instance(): Server {
  return createServer((request, response) => {
    if (request.url === '/readyz') response.end('ready');
    else if (request.url === '/api/cut') request.socket.destroy();
    // /api/slow: left unanswered until the server closes.
  });
}

async function listen(server: Server): Promise<number> {
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return port;
}

async function expectJsonError(path: string, base: string, status: number, code: string) {
  const answer = await fetch(`${base}${path}`);
  const text = await answer.text();
  expect(answer.status, text).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  const body = JSON.parse(text);
  expect(body).toEqual({ detail: expect.any(String), code });
  return answer;
}

describe.skipIf(!haproxyInstalled)("deploy/haproxy/haproxy.cfg's own errors", () => {
  let down: HaProxy;
  let up: HaProxy;
  let server: Server;

  beforeAll(async () => {
    // Nothing listens on these: every instance is down.
    const closed = [await freePort(), await freePort(), await freePort()];
    down = await startHaProxy({ app1: closed[0], app2: closed[1], app3: closed[2] });
    server = instance();
    const port = await listen(server);
    // One instance that is up (the other two lines point to it too). `timeout server` is
    // shortened from 60 s so that the 504 comes within the test.
    up = await startHaProxy({ app1: port, app2: port, app3: port }, (cfg) => {
      if (!/^ {4}timeout server 60s$/m.test(cfg)) throw new Error('no timeout server 60s');
      return cfg.replace(/^ {4}timeout server 60s$/m, '    timeout server 1s');
    });
  });

  afterAll(async () => {
    await down?.stop();
    await up?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  it('with every instance down: 503 service_unavailable as JSON, with Retry-After', async () => {
    // Before the checks have marked them down (refused, retried, redispatched) and after.
    const first = await expectJsonError('/api/v1/carts/', down.url, 503, 'service_unavailable');
    expect(first.headers.get('retry-after')).toBe('5');
    await until(
      async () => Object.values(await down.status()).every((s) => s.startsWith('DOWN')),
      'haproxy has every instance DOWN',
      15_000,
      50,
    );
    const later = await expectJsonError('/api/v1/carts/', down.url, 503, 'service_unavailable');
    expect(later.headers.get('retry-after')).toBe('5');
  });

  it('an answer cut by the instance: 502 bad_gateway as JSON', async () => {
    await expectJsonError('/api/cut', up.url, 502, 'bad_gateway');
  });

  it('no answer within timeout server: 504 gateway_timeout as JSON', async () => {
    await expectJsonError('/api/slow', up.url, 504, 'gateway_timeout');
  });
});
