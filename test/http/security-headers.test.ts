import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CSP } from '../../src/http/security-headers.js';
import { type Answer, startTestApp, type TestContext } from '../helpers/app.js';

/**
 * ASVS 5.0 3.4.4 (nosniff on every answer), 3.4.5 (a referrer policy), 3.4.6 (CSP
 * frame-ancestors on every answer), 3.4.3 (a CSP with object-src and base-uri 'none'): a
 * page of an attacker's site that frames or loads any of the service's answers, an API
 * answer included, gets nothing rendered.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

function directives(answer: Answer): Map<string, string> {
  const csp = answer.headers.get('content-security-policy') ?? '';
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name, ...values] = part.split(/\s+/);
        return [name!, values.join(' ')] as [string, string];
      }),
  );
}

function expectNeverFramed(answer: Answer, what: string) {
  expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(answer.headers.get('referrer-policy'), what).toBe('no-referrer');
  const csp = directives(answer);
  expect(csp.get('frame-ancestors'), what).toBe("'none'");
  expect(csp.get('base-uri'), what).toBe("'none'");
  // object-src falls back to default-src when absent.
  expect(csp.get('object-src') ?? csp.get('default-src'), what).toMatch(/'none'|'self'/);
}

describe('security headers on every answer', () => {
  it('API answers: success, validation error, 401, 403, 404, 405, and the OpenAPI document', async () => {
    const anna = await ctx.login('anna');
    const answers: [string, Answer][] = [
      ['public 200', await ctx.request('GET', '/api/v1/options/')],
      ['200 with a token', await ctx.request('GET', '/api/v1/users/me/', { token: anna.token })],
      [
        '400',
        await ctx.request('POST', '/api/v1/carts/', { token: anna.token, body: { store: 1 } }),
      ],
      ['401', await ctx.request('GET', '/api/v1/users/me/')],
      ['403', await ctx.request('GET', '/api/v1/audit-events/', { token: anna.token })],
      ['404 route', await ctx.request('GET', '/nothing-here')],
      ['404 object', await ctx.request('GET', '/api/v1/carts/999999/', { token: anna.token })],
      ['404 of the router', await ctx.request('GET', '/api/v1/carts/%ZZ/')],
      ['404 of a long parameter', await ctx.request('GET', `/api/v1/carts/${'x'.repeat(201)}/`)],
      ['405', await ctx.request('TRACE', '/api/v1/options/').catch(() => undefined as never)],
      ['schema', await ctx.request('GET', '/api/schema/')],
      ['healthz', await ctx.request('GET', '/healthz')],
    ];
    for (const [what, answer] of answers) {
      if (!answer) continue; // fetch refuses TRACE; the 405 of DELETE stands in below
      expectNeverFramed(answer, what);
      expect(answer.headers.get('content-security-policy'), what).toBe(API_CSP);
    }
    const notAllowed = await ctx.request('DELETE', '/api/v1/options/');
    expect(notAllowed.status).toBe(405);
    expectNeverFramed(notAllowed, '405');
  });

  it('the HTML pages: console, restore page, API docs keep their own policy and are never framed', async () => {
    const restore = await ctx.request('GET', `/users/restore-password/${'x'.repeat(43)}/`);
    expectNeverFramed(restore, 'restore page');
    expect(directives(restore).get('default-src')).toBe("'none'");
    const docs = await ctx.request('GET', '/api/docs/');
    expect(docs.status).toBe(200);
    expectNeverFramed(docs, 'api docs');
    expect(docs.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    expect(docs.headers.get('content-security-policy')).not.toContain('validator.swagger.io');
    const consolePage = await ctx.request('GET', '/console/');
    if (consolePage.status === 200) expectNeverFramed(consolePage, 'console');
  });
});
