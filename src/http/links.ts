import type { FastifyInstance, FastifyRequest } from 'fastify';

const WILDCARD = new Set(['0.0.0.0', '::', '']);

/**
 * The base of absolute links, in answers (a list's `next`/`previous`, a `Location`) and in
 * e-mails: PUBLIC_URL; without it, the address the service listens on (a wildcard listen
 * address: `localAddress`, the address a request came in on, else 127.0.0.1). Never a request
 * header: not `Host`, not `X-Forwarded-Host`/`-Proto`, whatever TRUST_PROXY says (a
 * client-chosen host in a link is an open door to link poisoning). Behind a proxy, set
 * PUBLIC_URL.
 */
export function serviceBase(app: FastifyInstance, localAddress?: string): string {
  const { config } = app.deps;
  if (config.publicUrl) return config.publicUrl;
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  let host = WILDCARD.has(config.host)
    ? (localAddress ?? '127.0.0.1').replace(/^::ffff:/, '')
    : config.host;
  if (host.includes(':')) host = `[${host}]`;
  return `http://${host}:${port}`;
}

/** The link base for an answer to `request`. */
export function linkBase(request: FastifyRequest): string {
  return serviceBase(request.server, request.socket.localAddress);
}

/** The absolute URL of `path` (from `/`, query included) on the link base. */
export function absoluteUrl(request: FastifyRequest, path: string): URL {
  const base = linkBase(request);
  // Concatenated, not resolved: PUBLIC_URL may carry a path prefix the proxy strips.
  return new URL(base + path);
}
