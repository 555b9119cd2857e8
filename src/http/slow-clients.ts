import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * How often Node looks for connections past their bound: a tenth of the shorter bound,
 * between 50 ms and 1 s. Node's default (30 s) would let a slow connection live up to 30 s
 * past its bound; the check walks only the connections with a request in progress.
 */
export function connectionsCheckingInterval(config: Config): number {
  const shortest = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  return Math.max(50, Math.min(1000, Math.floor(shortest / 10)));
}

/**
 * An answer given before the request has arrived whole (a 401 decided on the headers, say)
 * closes the connection: otherwise Node reads, and throws away, the rest of the body for as
 * long as the client takes to send it, up to REQUEST_TIMEOUT_MS.
 */
export function closeAfterEarlyAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete) reply.header('connection', 'close');
  });
}

/**
 * At shutdown, connections with no answer pending close at once. Node's own sweep
 * (`forceCloseConnections: 'idle'`) leaves a connection that was opened but has sent
 * nothing yet, and stops the timer that would have closed it at the headers bound, so one
 * silent connection (a client's pool opens them ahead of use) held `close()` forever.
 * Connections with an answer in flight end after it (`connection: close`, see app.ts);
 * WebSockets are closed by their plugin.
 */
export function closeQuietConnectionsOnClose(app: FastifyInstance): void {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A WebSocket is closed by its own plugin, with 1001 (going away).
  app.server.on('upgrade', (_request, socket: Socket) => sockets.delete(socket));
  app.addHook('preClose', async () => {
    for (const socket of sockets) {
      const answer = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
      if (!answer) socket.destroy();
    }
  });
}

/**
 * The Fastify options that bound slow clients (issue 7, section 4):
 * - a request whose headers have not all arrived `HEADERS_TIMEOUT_MS` after its first byte,
 *   or which has not arrived whole (headers and body) `REQUEST_TIMEOUT_MS` after it, is
 *   answered 408 and its connection closed. A fresh connection that sends nothing counts
 *   from the moment it was opened.
 * - a kept-alive connection idle for `KEEP_ALIVE_TIMEOUT_MS` between requests is closed.
 * Fastify's `connectionTimeout` (an idle socket, answer included) stays off: an answer may
 * wait on upstream for longer than a client needs to send its request.
 */
export function slowClientOptions(config: Config) {
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      // Fastify sets requestTimeout after creating the server; Node checks the headers'
      // bound against it already when creating it.
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: connectionsCheckingInterval(config),
    },
    clientErrorHandler,
  };
}

const ANSWERS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time.'],
  HPE_HEADER_OVERFLOW: [431, 'request_header_fields_too_large', 'Request headers too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'payload_too_large', 'Request body is too large.'],
};

/**
 * A connection Node gave up on (a slow or malformed request): the error answer in the
 * shape of docs/http-contract.md (Fastify's own handler answers `{"error", "message",
 * "statusCode"}`), written unless an answer is being written on the connection just then,
 * and the connection is closed. (An answer given before the request arrived whole has
 * closed the connection already, see closeAfterEarlyAnswers: no 408 follows it.)
 */
function clientErrorHandler(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, detail] = ANSWERS[error.code] ?? [400, 'bad_request', 'Malformed request.'];
  this.log.debug({ err: { message: error.message, code: error.code } }, 'client error');
  const answer = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answer?.headersSent) {
    const body = JSON.stringify({ detail, code });
    // The request's headers are unknown here (it may have carried a token): never stored.
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
        'Cache-Control: no-store\r\nPragma: no-cache\r\n' +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
