import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { SimRoute } from '../../erp-simulator/faults.js';

/**
 * A misbehaving ERP: an HTTP server in front of the simulator that passes every call
 * through, except those of a route it was told to spoil. A spoilt call gets one of the
 * answers a broken or hostile ERP (or anything on its path) can send.
 */
export type Spoil =
  /** 200 JSON-looking text of `bytes`, streamed; `Content-Length` declared or not (chunked). */
  (
    | { type: 'oversize'; bytes: number; contentLength: boolean }
    /** 200 JSON, the headers at once, then one byte every `everyMs`, never ending. */
    | { type: 'drip'; everyMs: number }
    /** The real answer with every leaf of another type (string → number, number → string…). */
    | { type: 'wrong-types' }
    /** 200 JSON: an array of `{}` filling `bytes` (under a bound: parsed, then checked). */
    | { type: 'huge-array'; bytes: number }
    /** A redirect to the simulator's own answer for the same path. */
    | { type: 'redirect'; status: number }
    /** 200 with an HTML page. */
    | { type: 'html' }
    /** The real answer's first half, its `Content-Length` saying so: valid HTTP, cut JSON. */
    | { type: 'truncated' }
    /** The real answer's headers and first half, then the connection reset. */
    | { type: 'reset' }
    /** The real answer with NUL (`nul`) or a lone surrogate (`surrogate`) in every string. */
    | { type: 'text'; what: 'nul' | 'surrogate' }
    /** 200 JSON with these bytes as the body, made from the real answer's JSON text. */
    | { type: 'raw'; body: (real: string) => Buffer }
  ) & {
    /**
     * Passed to the simulator first (an order placed, a password set), only the answer spoilt.
     * The spoils built from the real answer always are.
     */
    after?: boolean;
  };

/** What the hostile ERP did with a spoilt call. */
export interface Served {
  route: SimRoute;
  spoil: Spoil;
  /** Body bytes written before the answer ended or the client closed the connection. */
  bytesSent: number;
  /** The client closed the connection before the whole answer was written. */
  cut: boolean;
  /** Resolves once the answer is written or the connection closed (`cut` is then final). */
  finished: Promise<void>;
}

export interface HostileErp {
  url: string;
  /** The next `times` calls of `route` get `spoil`. */
  spoil(route: SimRoute, spoil: Spoil, times?: number): void;
  clear(): void;
  /** Every spoilt call, in order. */
  served: Served[];
  /** Connections accepted so far, and those still open. */
  connections(): { accepted: number; open: number };
  close(): Promise<void>;
}

/** The routes of docs/erp-contract.md, as the simulator matches them. */
const ROUTES: [SimRoute, string, RegExp][] = [
  ['auth.token', 'POST', /^\/auth\/token$/],
  ['auth.refresh', 'POST', /^\/auth\/refresh$/],
  ['me', 'GET', /^\/me$/],
  ['me.password', 'PUT', /^\/me\/password$/],
  ['admin.users', 'GET', /^\/admin\/users$/],
  ['admin.user', 'GET', /^\/admin\/users\/[^/]+$/],
  ['admin.password', 'PUT', /^\/admin\/users\/[^/]+\/password$/],
  ['products.get', 'GET', /^\/products\/[^/]+$/],
  ['products.price', 'GET', /^\/products\/[^/]+\/price$/],
  ['products.stock', 'GET', /^\/products\/[^/]+\/stock$/],
  ['categories', 'GET', /^\/categories$/],
  ['credit', 'GET', /^\/organizations\/[^/]+\/credit$/],
  ['shipments', 'GET', /^\/shipments$/],
  ['orders', 'POST', /^\/orders$/],
];

const FROM_REAL_ANSWER = new Set(['wrong-types', 'truncated', 'reset', 'text', 'raw']);
const JSON_TYPE = 'application/json; charset=utf-8';
const CHUNK = 64 * 1024;

interface Real {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export async function startHostileErp(simulatorUrl: string): Promise<HostileErp> {
  const target = new URL(simulatorUrl);
  const queues = new Map<SimRoute, Spoil[]>();
  const served: Served[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let accepted = 0;

  /** The simulator's answer to the same request. */
  function forward(req: IncomingMessage, body: Buffer): Promise<Real> {
    const headers = { ...req.headers, host: target.host };
    return new Promise((resolve, reject) => {
      const out = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 502,
              headers: res.headers,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = ROUTES.find(
      ([, method, pattern]) => method === req.method && pattern.test(path),
    )?.[0];
    const spoil = route ? queues.get(route)?.shift() : undefined;
    if (!route || !spoil) {
      const real = await forward(req, body);
      res.writeHead(real.status, real.headers);
      res.end(real.body);
      return;
    }
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const record: Served = { route, spoil, bytesSent: 0, cut: false, finished };
    served.push(record);
    try {
      const real =
        spoil.after || FROM_REAL_ANSWER.has(spoil.type) ? await forward(req, body) : undefined;
      await answer(res, spoil, record, real, req.url ?? '/');
    } finally {
      finish();
    }
  }

  /** Writes `body` and, at the end, whether it was all written before the client left. */
  async function stream(res: ServerResponse, record: Served, pieces: Iterable<Buffer>) {
    for (const piece of pieces) {
      if (res.destroyed) break;
      record.bytesSent += piece.length;
      if (!res.write(piece)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
    record.cut = res.destroyed;
    if (!res.destroyed) res.end();
  }

  async function answer(
    res: ServerResponse,
    spoil: Spoil,
    record: Served,
    real: Real | undefined,
    url: string,
  ): Promise<void> {
    // A real answer without a body (204) stands in as a small JSON one.
    const realJson = real && real.body.length > 0 ? real.body : Buffer.from('{"detail":"ok"}');
    switch (spoil.type) {
      case 'oversize': {
        const head = Buffer.from('{"filler":"');
        const tail = Buffer.from('"}');
        res.writeHead(200, {
          'content-type': JSON_TYPE,
          ...(spoil.contentLength ? { 'content-length': spoil.bytes } : {}),
        });
        const filler = Buffer.alloc(CHUNK, 'a');
        const middle = spoil.bytes - head.length - tail.length;
        return stream(res, record, [head, ...repeat(filler, middle), tail]);
      }
      case 'huge-array': {
        res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': spoil.bytes });
        // `[` `{}` `,{}`… `]`: fill exactly `bytes` (an odd count; padded with a space).
        const inner = spoil.bytes - 4;
        const count = Math.floor((inner + 1) / 3);
        const text = `[{}${',{}'.repeat(count - 1)}]`;
        return stream(res, record, [Buffer.from(text.padEnd(spoil.bytes, ' '))]);
      }
      case 'drip': {
        res.writeHead(200, { 'content-type': JSON_TYPE });
        res.write('[');
        record.bytesSent = 1;
        await new Promise<void>((resolve) => {
          const timer = setInterval(() => {
            if (res.destroyed) return;
            res.write('0,');
            record.bytesSent += 2;
          }, spoil.everyMs);
          timers.add(timer);
          res.on('close', () => {
            clearInterval(timer);
            timers.delete(timer);
            record.cut = true;
            resolve();
          });
        });
        return;
      }
      case 'redirect': {
        res.writeHead(spoil.status, { location: `${simulatorUrl}${url}`, 'content-length': 0 });
        res.end();
        return;
      }
      case 'html': {
        const page = '<!DOCTYPE html><html><body><h1>Welcome</h1></body></html>';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return stream(res, record, [Buffer.from(page)]);
      }
      case 'wrong-types': {
        const flipped = JSON.stringify(flip(JSON.parse(realJson.toString('utf8'))));
        res.writeHead(200, { 'content-type': JSON_TYPE });
        return stream(res, record, [Buffer.from(flipped)]);
      }
      case 'text': {
        const mark = spoil.what === 'nul' ? '\u0000' : '\ud800';
        const spoilt = JSON.stringify(marked(JSON.parse(realJson.toString('utf8')), mark));
        res.writeHead(real?.status ?? 200, { 'content-type': JSON_TYPE });
        return stream(res, record, [Buffer.from(spoilt)]);
      }
      case 'raw': {
        const bytes = spoil.body(realJson.toString('utf8'));
        res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': bytes.length });
        return stream(res, record, [bytes]);
      }
      case 'truncated': {
        const half = realJson.subarray(0, Math.floor(realJson.length / 2));
        res.writeHead(real?.body.length ? real.status : 200, {
          'content-type': JSON_TYPE,
          'content-length': half.length,
        });
        return stream(res, record, [half]);
      }
      case 'reset': {
        res.writeHead(real?.body.length ? real.status : 200, {
          'content-type': JSON_TYPE,
          'content-length': realJson.length,
        });
        const half = realJson.subarray(0, Math.floor(realJson.length / 2));
        record.bytesSent = half.length;
        res.write(half);
        // Let the headers and half the body leave before the reset.
        await new Promise((resolve) => setTimeout(resolve, 20));
        record.cut = true;
        res.socket?.resetAndDestroy();
        return;
      }
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) {
        res.writeHead(599);
        res.end();
      } else res.destroy();
    });
  });
  server.on('connection', (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}`,
    spoil(route, spoil, times = 1) {
      const queue = queues.get(route) ?? [];
      for (let i = 0; i < times; i++) queue.push(spoil);
      queues.set(route, queue);
    },
    clear: () => queues.clear(),
    served,
    connections: () => ({ accepted, open: sockets.size }),
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `piece` repeated to `total` bytes (the last one shortened). */
function* repeat(piece: Buffer, total: number): Generator<Buffer> {
  let left = total;
  while (left > 0) {
    const size = Math.min(left, piece.length);
    yield size === piece.length ? piece : piece.subarray(0, size);
    left -= size;
  }
}

/** Every leaf of another JSON type; an empty array or object gets one wrong member. */
function flip(value: unknown): unknown {
  if (typeof value === 'string') return 7;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return String(value);
  if (value === null) return false;
  if (Array.isArray(value)) return value.length === 0 ? [false] : value.map(flip);
  const entries = Object.entries(value as object);
  if (entries.length === 0) return { unexpected: false };
  return Object.fromEntries(entries.map(([key, item]) => [key, flip(item)]));
}

/** Every string with `mark` inside it. */
function marked(value: unknown, mark: string): unknown {
  if (typeof value === 'string') return `${value.slice(0, 1)}${mark}${value.slice(1)}`;
  if (Array.isArray(value)) return value.map((item) => marked(item, mark));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, marked(item, mark)]),
    );
  }
  return value;
}
