import type { FastifyRequest } from 'fastify';

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/**
 * The base of absolute links in answers (a list's `next`/`previous`, a `Location`):
 * PUBLIC_URL; without it, the address the service listens on. Never a request header: not
 * `Host`, not `X-Forwarded-Host`/`-Proto`, whatever TRUST_PROXY says (a client-chosen host in
 * a link is an open door to link poisoning). Behind a proxy, set PUBLIC_URL.
 */
export function linkBase(request: FastifyRequest): string {
  const { config } = request.server.deps;
  if (config.publicUrl) return config.publicUrl;
  const address = request.server.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  let host = WILDCARD.has(config.host)
    ? (request.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '')
    : config.host;
  if (host.includes(':')) host = `[${host}]`;
  return `http://${host}:${port}`;
}

/** The absolute URL of `path` (from `/`, query included) on the link base. */
export function absoluteUrl(request: FastifyRequest, path: string): URL {
  const base = linkBase(request);
  // Concatenated, not resolved: PUBLIC_URL may carry a path prefix the proxy strips.
  return new URL(base + path);
}
