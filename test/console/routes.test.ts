import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole, OUT_DIR } from '../../console/scripts/build.js';
import consoleRoutes from '../../src/console/routes.js';
import type { App } from '../../src/deps.js';
import { startTestApp, type TestContext } from '../helpers/app.js';

let ctx: TestContext;

beforeAll(async () => {
  await buildConsole();
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('GET /console/', () => {
  it('serves the page with a same-origin content policy, revalidated on every load', async () => {
    const answer = await ctx.request('GET', '/console/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(answer.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.text).toContain('<script type="module" src="app.js"></script>');
  });

  it('loads nothing from elsewhere: every src and href of the page is a file of the bundle', async () => {
    const page = readFileSync(join(OUT_DIR, 'index.html'), 'utf8');
    const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(['data:,', 'style.css', 'app.js']);
    for (const file of ['app.js', 'style.css']) {
      const answer = await ctx.request('GET', `/console/${file}`);
      expect(answer.status, file).toBe(200);
      // A bundle: no import of another module, from here or anywhere.
      expect(answer.text).not.toMatch(/\bimport\s*[\w{*][^;]*from\s*["']/);
      expect(answer.text).not.toMatch(/@import\s+url\(/);
    }
    expect((await ctx.request('GET', '/console/app.js')).headers.get('content-type')).toBe(
      'application/javascript; charset=utf-8',
    );
  });

  it('redirects /console to /console/ and answers 404 for a file it does not have', async () => {
    const bare = await fetch(`${ctx.url}/console`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/console/');
    expect((await ctx.request('GET', '/console/missing.js')).status).toBe(404);
  });

  it('says how to build the console when it is not built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ordering-console-empty-'));
    const app = Fastify() as unknown as App;
    try {
      await app.register(consoleRoutes, { dir: empty });
      const answer = await app.inject({ method: 'GET', url: '/console/' });
      expect(answer.statusCode).toBe(503);
      expect(answer.body).toContain('npm run build:console');
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
