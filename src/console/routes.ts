import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { App } from '../deps.js';

/** The folder holding package.json: the same from `src/` (tsx) and from compiled code. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above src/console/');
    dir = parent;
  }
  return dir;
}

/** Where `npm run build:console` writes the bundle. */
export const CONSOLE_DIR = join(projectRoot(), 'dist', 'console');

/**
 * The staff console's page: the same origin as the API (script, styles, images and the
 * API's own calls and WebSocket, nothing else), never framed.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * `/console/`: the staff console, a static bundle that talks to the public API like any other
 * client (docs/decisions/0008-staff-console.md). Files are revalidated on every load (small,
 * with ETags), so a new build shows at the next reload.
 */
export default async function consoleRoutes(
  app: App,
  options: { dir?: string } = {},
): Promise<void> {
  const dir = options.dir ?? CONSOLE_DIR;
  // The service's root is where a person lands first: the console (302: not cached for ever).
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply.redirect('/console/', 302),
  );
  app.get('/console', { schema: { hide: true } }, async (_request, reply) =>
    reply.redirect('/console/', 308),
  );
  if (!existsSync(join(dir, 'index.html'))) {
    app.get('/console/', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The staff console is not built: run `npm run build:console`.\n'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/console/',
    index: 'index.html',
    cacheControl: false,
    schemaHide: true,
    decorateReply: false,
    setHeaders(reply) {
      reply.header('cache-control', 'no-cache').headers(SECURITY_HEADERS);
    },
  });
}
