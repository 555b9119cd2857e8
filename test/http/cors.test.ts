import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';

/**
 * CORS for browser clients on other origins (src/http/cors.ts): real preflights and real
 * requests over HTTP, with the `Origin` and `Access-Control-Request-*` headers a browser
 * sends (written with node:http, which sends them as given).
 */

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(url: string, method: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(url, { method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body }),
      );
    });
    call.on('error', reject);
    call.end();
  });
}

const APP = 'https://app.example';
const WEBVIEW = 'capacitor://localhost';

const preflight = (url: string, origin: string, method = 'POST', headers?: string) =>
  send(url, 'OPTIONS', {
    origin,
    'access-control-request-method': method,
    ...(headers && { 'access-control-request-headers': headers }),
  });

describe('CORS with CORS_ORIGINS set', () => {
  let ctx: TestContext;
  let anna: Session;
  beforeAll(async () => {
    ctx = await startTestApp({ env: { CORS_ORIGINS: `${APP}, ${WEBVIEW}` } });
    anna = await ctx.login('anna');
  });
  afterAll(() => ctx?.close());

  it('answers a preflight of an allowed origin: 204, the origin echoed, the headers allowed', async () => {
    const answer = await preflight(
      `${ctx.url}/api/v1/carts/`,
      APP,
      'POST',
      'authorization, authorization-upstream, idempotency-key, content-type',
    );
    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect(answer.headers['access-control-allow-origin']).toBe(APP);
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    const methods = String(answer.headers['access-control-allow-methods']).split(/,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']));
    const allowed = String(answer.headers['access-control-allow-headers'])
      .toLowerCase()
      .split(/,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'authorization-upstream',
        'idempotency-key',
        'content-type',
      ]),
    );
    expect(Number(answer.headers['access-control-max-age'])).toBeGreaterThan(0);
    expect(String(answer.headers.vary)).toMatch(/\bOrigin\b/);
  });

  it('answers the preflight of an app webview origin (capacitor://localhost)', async () => {
    const answer = await preflight(`${ctx.url}/api/v1/carts/1/checkout/`, WEBVIEW, 'PATCH');
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe(WEBVIEW);
  });

  it('answers a preflight of a path with a token-only route without a token', async () => {
    const answer = await preflight(`${ctx.url}/api/v1/users/me/`, APP, 'GET', 'authorization');
    expect(answer.status).toBe(204);
  });

  it('gives another origin nothing: no Access-Control-Allow-Origin on a preflight or a call', async () => {
    for (const origin of ['https://evil.example', 'null', 'https://app.example.evil.example']) {
      const answer = await preflight(`${ctx.url}/api/v1/carts/`, origin);
      expect(answer.status).not.toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.headers['access-control-allow-headers']).toBeUndefined();
      const call = await send(`${ctx.url}/api/v1/carts/`, 'GET', {
        origin,
        authorization: `Bearer ${anna.token}`,
      });
      expect(call.status).toBe(200);
      expect(call.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('lets the allowed origin read answers, errors included, and the headers it needs', async () => {
    const call = await send(`${ctx.url}/api/v1/carts/`, 'GET', {
      origin: APP,
      authorization: `Bearer ${anna.token}`,
    });
    expect(call.status).toBe(200);
    expect(call.headers['access-control-allow-origin']).toBe(APP);
    expect(String(call.headers['access-control-expose-headers'])).toContain('Location');
    expect(String(call.headers['access-control-expose-headers'])).toContain('Retry-After');
    expect(String(call.headers.vary)).toMatch(/\bOrigin\b/);
    const refused = await send(`${ctx.url}/api/v1/carts/`, 'GET', { origin: APP });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(APP);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_authenticated' });
  });

  it('leaves an OPTIONS request that is no preflight as it was (Allow)', async () => {
    const answer = await send(`${ctx.url}/api/v1/carts/`, 'OPTIONS', { origin: APP });
    expect(answer.status).toBe(200);
    expect(answer.headers.allow).toContain('GET');
  });
});

describe('CORS without CORS_ORIGINS (the default)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  it('allows no origin at all', async () => {
    const answer = await preflight(`${ctx.url}/api/v1/carts/`, APP);
    expect(answer.status).not.toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    const call = await send(`${ctx.url}/healthz`, 'GET', { origin: APP });
    expect(call.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS', () => {
  const load = (vars: Record<string, string>) =>
    loadConfig({ DATABASE_URL: 'memory://', JWT_SECRET: 'x'.repeat(32), ...vars });
  const refusal = (vars: Record<string, string>) => {
    try {
      load(vars);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(vars)}`);
  };
  const production = {
    NODE_ENV: 'production',
    UPSTREAM_URL: 'https://erp.example',
    UPSTREAM_ADMIN_USERNAME: 'svc',
    UPSTREAM_ADMIN_PASSWORD: 'svc-password',
  };

  it('is empty by default and reads exact origins', () => {
    expect(load({}).corsOrigins).toEqual([]);
    expect(
      load({ CORS_ORIGINS: 'https://App.example/, http://localhost:5173, ionic://localhost' })
        .corsOrigins,
    ).toEqual(['https://app.example', 'http://localhost:5173', 'ionic://localhost']);
  });

  it('refuses a wildcard, null and what is not an origin, naming the setting', () => {
    for (const value of ['*', 'null', 'app.example', 'https://app.example/path', 'https://*.x']) {
      expect(refusal({ CORS_ORIGINS: value })).toContain('CORS_ORIGINS');
    }
  });

  it('refuses plain http origins in production, loopback aside', () => {
    expect(refusal({ ...production, CORS_ORIGINS: 'http://app.example' })).toMatch(
      /CORS_ORIGINS must use https/,
    );
    expect(
      load({ ...production, CORS_ORIGINS: 'https://app.example, http://localhost' }).corsOrigins,
    ).toEqual(['https://app.example', 'http://localhost']);
    expect(load({ CORS_ORIGINS: 'http://app.example' }).corsOrigins).toEqual([
      'http://app.example',
    ]);
  });
});
