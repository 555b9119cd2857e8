import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { until } from '../helpers/wait.js';

// biome-ignore lint/suspicious/noExplicitAny: answers and upstream data reshaped freely
type Loose = any;

/**
 * No request value changes the path the service calls upstream. Sent as an attacker sends
 * them: raw request targets (fetch() would resolve `..` and `%2e%2e` before sending), against
 * the app on a real port, with the simulator recording every target it receives.
 */

let ctx: TestContext;
let anna: Session;
let article: string;

beforeAll(async () => {
  ctx = await startTestApp();
  anna = await ctx.login('anna');
  article = Object.keys(ctx.sim.data.products)[0];
});
afterAll(() => ctx?.close());

/** A request with its target exactly as written. */
function raw(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: Loose }> {
  const { port } = new URL(ctx.url);
  return new Promise((done, fail) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () =>
          done({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    request.on('error', fail);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const asAnna = () => ({
  authorization: `Bearer ${anna.token}`,
  'authorization-upstream': `Bearer ${anna.upstreamToken}`,
});

/** The targets the simulator received while `action` ran. */
async function receivedDuring(action: () => Promise<unknown>): Promise<string[]> {
  const before = ctx.sim.targets.length;
  await action();
  return ctx.sim.targets.slice(before);
}

/** A target's path segments, as a normalising server would see them (decoded once). */
const segmentsOf = (target: string) =>
  new URL(target, 'http://erp').pathname.split('/').slice(1).map(decodeURIComponent);
/** No segment a normaliser resolves: neither `.` nor `..`, raw or decoded once. */
function expectNoDotSegment(targets: string[]) {
  for (const target of targets) {
    const raw = target.split('?')[0].split('/');
    expect(
      raw.filter((s) => s === '.' || s === '..'),
      target,
    ).toEqual([]);
    expect(
      segmentsOf(target).filter((s) => s === '.' || s === '..'),
      target,
    ).toEqual([]);
  }
}

describe('catalogue path values', () => {
  const dotSegments = [
    '/api/v1/products/../price/',
    '/api/v1/products/./',
    '/api/v1/products/%2e%2e/price/',
    '/api/v1/products/%2E./stock/?location_id=1',
    '/api/v1/products/.%2e/',
    '/api/v1/products/%2e/price/',
  ];

  it.each(dotSegments)('%s is 404 and never reaches upstream', async (target) => {
    let answer: { status: number; body: Loose } | undefined;
    const received = await receivedDuring(async () => {
      answer = await raw('GET', target, asAnna());
    });
    expect(answer).toEqual({ status: 404, body: { detail: 'Not found.', code: 'not_found' } });
    expect(received).toEqual([]);
  });

  // Values holding slashes, backslashes or percent signs are one encoded segment each: the
  // product route upstream, never another one (an unknown product: upstream's own 404).
  it.each([
    ['/api/v1/products/%2F/price/', '/products/%2F/price'],
    ['/api/v1/products/..%2F..%2Fadmin%2Fusers/price/', '/products/..%2F..%2Fadmin%2Fusers/price'],
    ['/api/v1/products/%5C../', '/products/%5C..'],
    ['/api/v1/products/%252e%252e/price/', '/products/%252e%252e/price'],
    ['/api/v1/products/a.b%3F%23..x/price/', '/products/a.b%3F%23..x/price'],
  ])('%s reaches upstream as one segment: %s', async (target, sent) => {
    const received = await receivedDuring(() => raw('GET', target, asAnna()));
    expect(received).toEqual([sent]);
    expect(segmentsOf(sent)).toHaveLength(sent.endsWith('/price') ? 3 : 2);
    expectNoDotSegment(received);
  });

  it('a real article number still reaches upstream (the check is not a blanket refusal)', async () => {
    const received = await receivedDuring(async () => {
      expect((await raw('GET', `/api/v1/products/${article}/price/`, asAnna())).status).toBe(200);
    });
    expect(received).toEqual([`/products/${article}/price`]);
  });
});

describe('query values', () => {
  it('location_id stays one query value: no added parameter, no path', async () => {
    const value = '1&location_id=2#/../../admin?x=%2F';
    const received = await receivedDuring(() =>
      raw(
        'GET',
        `/api/v1/products/${article}/stock/?location_id=${encodeURIComponent(value)}`,
        asAnna(),
      ),
    );
    expect(received).toHaveLength(1);
    const target = new URL(received[0], 'http://erp');
    expect(target.pathname).toBe(`/products/${article}/stock`);
    expect(target.searchParams.getAll('location_id')).toEqual([value]);
    expect([...target.searchParams.keys()]).toEqual(['location_id']);
  });
});

describe("restore's user look-up (service account, no login needed)", () => {
  it.each(['..', '.', '../carla', 'carla/../../products', '%2e%2e', '..\\carla'])(
    'username %j never becomes a dot segment or another path',
    async (username) => {
      const before = ctx.sim.targets.length;
      const answer = await raw('POST', '/api/v1/request-restore-code/', {}, { username });
      expect(answer.status).toBe(202);
      // A plain unknown name afterwards is looked up: the look-ups have run by then.
      const marker = `nobody-${Math.random().toString(36).slice(2)}`;
      await raw('POST', '/api/v1/request-restore-code/', {}, { username: marker });
      await until(() => ctx.sim.targets.some((t) => t.includes(marker)), 'the marker looked up');
      // The service account's own login aside.
      const received = ctx.sim.targets
        .slice(before)
        .filter((t) => !t.includes(marker) && t !== '/auth/token');
      expectNoDotSegment(received);
      // At most the one look-up, of that user: /admin/users/{one segment}.
      for (const target of received)
        expect(segmentsOf(target).slice(0, 2)).toEqual(['admin', 'users']);
      for (const target of received) expect(target.split('/')).toHaveLength(4);
      if (username === '.' || username === '..') expect(received).toEqual([]);
    },
  );
});
