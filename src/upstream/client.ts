import secureJson from 'secure-json-parse';
import { type Dispatcher, Pool, errors as undiciErrors } from 'undici';
import { failed, withSpan } from '../tracing/spans.js';
import { UnstorableOrderAnswer, UpstreamFailure } from './errors.js';
import * as schemas from './schemas.js';
import { shapeCheck } from './shape.js';
import type {
  Category,
  CreditAnswer,
  OrderAnswer,
  OrderRequest,
  Product,
  ProductPrice,
  ProductStock,
  Shipment,
  TokenPair,
  UpstreamProfile,
} from './types.js';

/**
 * Kinds of call, each with its own connections, so a kind whose calls hang upstream cannot
 * starve the others: hung orders do not hold back logins or product lookups.
 */
export type UpstreamKind = 'identity' | 'catalogue' | 'orders';

/** The kind of each route of docs/erp-contract.md. */
const KINDS = {
  'auth.token': 'identity',
  'auth.refresh': 'identity',
  me: 'identity',
  'me.password': 'identity',
  'admin.user': 'identity',
  'admin.users': 'identity',
  'admin.password': 'identity',
  'products.get': 'catalogue',
  'products.price': 'catalogue',
  'products.stock': 'catalogue',
  categories: 'catalogue',
  credit: 'catalogue',
  shipments: 'catalogue',
  orders: 'orders',
} as const satisfies Record<string, UpstreamKind>;

type Route = keyof typeof KINDS;

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The largest answer body read from each route, in bytes, counted while it arrives (and
 * refused before reading when `Content-Length` says more). Each is far above what the
 * contract's answers need (the demo's: token 0.2 KB, profile 0.5 KB, product 1.3 KB,
 * category tree 2.4 KB, shipments 0.9 KB) and far below what would strain a 96 MB heap: a
 * larger answer is a 502 `upstream_error`, its connection closed (docs/erp-contract.md).
 * The lists (categories, shipments, users by e-mail) and the product get the most.
 */
export const ANSWER_BYTES: Readonly<Record<Route, number>> = {
  'auth.token': 16 * KiB,
  'auth.refresh': 16 * KiB,
  me: 64 * KiB,
  'me.password': 16 * KiB,
  'admin.user': 16 * KiB,
  'admin.users': 64 * KiB,
  'admin.password': 16 * KiB,
  'products.get': 128 * KiB,
  'products.price': 64 * KiB,
  'products.stock': 16 * KiB,
  categories: 1 * MiB,
  credit: 16 * KiB,
  shipments: 512 * KiB,
  orders: 16 * KiB,
};

/**
 * Deepest nesting of arrays and objects in an answer: the contract's deepest is the category
 * tree; deeper is unusable, and would overflow the stack of the recursive checks after it.
 */
export const ANSWER_DEPTH = 64;

/**
 * Answers checked against the contract before they are returned (unusable: `bad_response`).
 * Every one is also free of NUL and unpaired surrogates: those stored could not be, and those
 * passed on would reach clients altered (a lone surrogate becomes U+FFFD in UTF-8).
 */
const checks = {
  product: shapeCheck(schemas.ProductSchema, 'products.get', { storable: true }),
  price: shapeCheck(schemas.ProductPriceSchema, 'products.price', { storable: true }),
  stock: shapeCheck(schemas.ProductStockSchema, 'products.stock', { storable: true }),
  categories: shapeCheck(schemas.CategoryTreesSchema, 'categories', { storable: true }),
  credit: shapeCheck(schemas.CreditAnswerSchema, 'credit', { storable: true }),
  shipments: shapeCheck(schemas.ShipmentsSchema, 'shipments', { storable: true }),
  profile: shapeCheck(schemas.UpstreamProfileSchema, 'me', { storable: true }),
  adminUser: shapeCheck(schemas.UpstreamAdminUserSchema, 'admin.user', { storable: true }),
  adminUsers: shapeCheck(schemas.UpstreamAdminUsersSchema, 'admin.users', { storable: true }),
  order: shapeCheck(schemas.UpstreamOrderSchema, 'orders', { storable: true }),
};

/** 32 in all, as many as the single pool had before calls were split by kind. */
export const DEFAULT_CONNECTIONS: Readonly<Record<UpstreamKind, number>> = {
  identity: 8,
  catalogue: 16,
  orders: 8,
};

export interface UpstreamOptions {
  url: string;
  /**
   * Longest an upstream exchange takes, from the call to the end of the answer: the wait
   * for a free connection included.
   */
  timeoutMs: number;
  serviceAccount: { username: string; password: string };
  /** Connections per kind of call, at most that many calls of the kind at once. */
  connections?: Partial<Record<UpstreamKind, number>>;
  /**
   * Longest wait for a free connection (default half of `timeoutMs`, at most `timeoutMs`).
   * A call that waited longer fails without being sent; one that gets a connection has at
   * least the rest of `timeoutMs` for its answer.
   */
  queueTimeoutMs?: number;
}

/** Who a call is made for: a user's upstream token, or the service account. */
export type Caller = { token: string } | 'service';

interface Answer {
  status: number;
  body: unknown;
}

/**
 * One exchange with upstream as metrics count it: its kind, how it ended and how long it
 * took from the call (the wait for a connection included). An answer counts by its status
 * class (`2xx` … `5xx`: an upstream 503 is `5xx`); no usable answer by the failure:
 * `timeout`, `queue_timeout` (never got a connection, so never sent), `unavailable`
 * (connection refused), `bad_response` (reset, malformed JSON, over the route's byte bound).
 */
export interface ExchangeReport {
  kind: UpstreamKind;
  outcome: string;
  seconds: number;
}

/** One answer the caller handles itself (everything else is a failure). */
type Accept = number[];

/**
 * The client of docs/erp-contract.md: a keep-alive pool per kind of call, a timeout per
 * exchange that covers the wait for a connection, and the error mapping of docs/http-contract.md.
 * Service-account calls log in lazily and, on a 401, log in again once and repeat the call.
 */
export class UpstreamClient {
  private readonly lanes: Record<UpstreamKind, Lane>;
  private readonly queueTimeoutMs: number;
  private serviceToken: Promise<string> | undefined;
  private closing: Promise<void> | undefined;
  private readonly observers = new Set<(report: ExchangeReport) => void>();

  constructor(private readonly options: UpstreamOptions) {
    const lane = (kind: UpstreamKind) =>
      new Lane(options.url, options.connections?.[kind] ?? DEFAULT_CONNECTIONS[kind], options);
    this.lanes = {
      identity: lane('identity'),
      catalogue: lane('catalogue'),
      orders: lane('orders'),
    };
    this.queueTimeoutMs = Math.min(
      options.queueTimeoutMs ?? Math.ceil(options.timeoutMs / 2),
      options.timeoutMs,
    );
  }

  /** Closes the pools of every kind, once calls in progress are answered; idempotent. */
  close(): Promise<void> {
    this.closing ??= Promise.all(Object.values(this.lanes).map((lane) => lane.pool.close())).then(
      () => undefined,
    );
    return this.closing;
  }

  /** Reports every exchange to `observer` (an app's metrics) until the answered function is called. */
  observe(observer: (report: ExchangeReport) => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Calls in progress (holding a connection) and waiting for one, by kind. */
  stats(): Record<UpstreamKind, { active: number; queued: number }> {
    const { identity, catalogue, orders } = this.lanes;
    return { identity: identity.stats(), catalogue: catalogue.stats(), orders: orders.stats() };
  }

  // Identity

  async login(username: string, password: string): Promise<TokenPair | null> {
    const answer = await this.call(
      'auth.token',
      'POST',
      '/auth/token',
      undefined,
      { username, password },
      [200, 401],
    );
    return answer.status === 401 ? null : tokenPair(answer, 'auth.token');
  }

  async refresh(refreshToken: string): Promise<TokenPair | null> {
    const answer = await this.call(
      'auth.refresh',
      'POST',
      '/auth/refresh',
      undefined,
      { refresh_token: refreshToken },
      [200, 401],
    );
    return answer.status === 401 ? null : tokenPair(answer, 'auth.refresh');
  }

  /** The caller's profile, checked (a login stores it: user and memberships). */
  async me(token: string): Promise<UpstreamProfile> {
    const profile = checks.profile(await this.json('me', 'GET', '/me', { token }));
    return {
      username: profile.username,
      email: profile.email ?? '',
      first_name: profile.first_name ?? '',
      last_name: profile.last_name ?? '',
      telephone: profile.telephone ?? '',
      reference: profile.reference ?? null,
      organizations: profile.organizations.map((org) => ({
        organization_id: org.organization_id,
        code: org.code ?? '',
        name: org.name ?? '',
        parent_code: org.parent_code ?? '',
        ...(org.has_unlimited_credit === undefined
          ? {}
          : { has_unlimited_credit: org.has_unlimited_credit }),
      })),
    };
  }

  /** false when `password` is not the current one. */
  /**
   * docs/erp-contract.md: 400 `invalid_password` is a wrong current password; any other 400 is
   * upstream refusing the new one (its own password policy).
   */
  async changePassword(
    token: string,
    password: string,
    newPassword: string,
  ): Promise<'changed' | 'wrong_password' | 'new_password_refused'> {
    const answer = await this.call(
      'me.password',
      'PUT',
      '/me/password',
      { token },
      { password, new_password: newPassword },
      [204, 400],
    );
    if (answer.status === 204) return 'changed';
    const error = (answer.body as { error?: unknown } | undefined)?.error;
    return error === 'invalid_password' ? 'wrong_password' : 'new_password_refused';
  }

  async findUser(username: string): Promise<{ username: string; email: string } | null> {
    // A name that cannot be one path segment names no user; upstream is not asked.
    const name = segment(username);
    if (name === undefined) return null;
    const answer = await this.call(
      'admin.user',
      'GET',
      `/admin/users/${name}`,
      'service',
      undefined,
      [200, 404],
    );
    return answer.status === 404 ? null : checks.adminUser(answer.body);
  }

  async findUsersByEmail(email: string): Promise<{ username: string; email: string }[]> {
    return checks.adminUsers(
      await this.json('admin.users', 'GET', `/admin/users?email=${enc(email)}`, 'service'),
    );
  }

  /** false when upstream has no such user. */
  async setPassword(username: string, newPassword: string): Promise<boolean> {
    const name = segment(username);
    if (name === undefined) return false;
    const answer = await this.call(
      'admin.password',
      'PUT',
      `/admin/users/${name}/password`,
      'service',
      { new_password: newPassword },
      [204, 404],
    );
    return answer.status === 204;
  }

  // Catalogue and customers: null is upstream's 404 (or a value that cannot be a path segment,
  // which names nothing: upstream is not asked); any other answer fits the contract.

  async product(caller: Caller, articleNumber: string): Promise<Product | null> {
    const n = segment(articleNumber);
    if (n === undefined) return null;
    return this.jsonOrNull('products.get', `/products/${n}`, caller, checks.product);
  }

  async price(caller: Caller, articleNumber: string): Promise<ProductPrice | null> {
    const n = segment(articleNumber);
    if (n === undefined) return null;
    return this.jsonOrNull('products.price', `/products/${n}/price`, caller, checks.price);
  }

  async stock(
    caller: Caller,
    articleNumber: string,
    locationId: string,
  ): Promise<ProductStock | null> {
    const n = segment(articleNumber);
    if (n === undefined) return null;
    return this.jsonOrNull(
      'products.stock',
      `/products/${n}/stock?location_id=${enc(locationId)}`,
      caller,
      checks.stock,
    );
  }

  async categories(caller: Caller): Promise<Category[]> {
    return checks.categories(await this.json('categories', 'GET', '/categories', caller));
  }

  async credit(caller: Caller, organizationId: string): Promise<CreditAnswer | null> {
    const id = segment(organizationId);
    if (id === undefined) return null;
    return this.jsonOrNull('credit', `/organizations/${id}/credit`, caller, checks.credit);
  }

  async shipments(caller: Caller, telephone: string): Promise<Shipment[]> {
    return checks.shipments(
      await this.json('shipments', 'GET', `/shipments?telephone=${enc(telephone)}`, caller),
    );
  }

  // Orders

  /**
   * Places an order under an idempotency key. 201 and 202 are answers; an upstream 503
   * with JSON is an 'unavailable' failure carrying that body. A 201 or 202 whose JSON
   * `order_id` or `order_number` cannot be stored as sent (wrong type, empty, too long, a
   * control character, NUL, an unpaired surrogate) is an UnstorableOrderAnswer: the order was
   * placed, its answer is unusable (src/carts/checkout.ts, decision 0001).
   */
  async placeOrder(caller: Caller, key: string, order: OrderRequest): Promise<OrderAnswer> {
    const answer = await this.call('orders', 'POST', '/orders', caller, order, [201, 202], {
      'idempotency-key': key,
    });
    const body = answer.body;
    // Only the fields stored are checked: whatever else upstream sends is not kept.
    const stored =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? {
            order_id: (body as Record<string, unknown>).order_id,
            order_number: (body as Record<string, unknown>).order_number,
          }
        : body;
    let checked: { order_id: string; order_number: string };
    try {
      checked = checks.order(stored, answer.status);
    } catch (error) {
      throw error instanceof UpstreamFailure ? new UnstorableOrderAnswer(error) : error;
    }
    const { order_id, order_number } = checked;
    return { orderId: order_id, orderNumber: order_number, queued: answer.status === 202 };
  }

  // Plumbing

  private async json(route: Route, method: string, path: string, caller: Caller): Promise<unknown> {
    return (await this.call(route, method, path, caller, undefined, [200])).body;
  }

  /** null on a 404; else the answer, checked. */
  private async jsonOrNull<T>(
    route: Route,
    path: string,
    caller: Caller,
    check: (body: unknown) => T,
  ): Promise<T | null> {
    const answer = await this.call(route, 'GET', path, caller, undefined, [200, 404]);
    return answer.status === 404 ? null : check(answer.body);
  }

  private async call(
    route: Route,
    method: string,
    path: string,
    caller: Caller | undefined,
    body: unknown,
    accept: Accept,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    if (caller !== 'service') {
      const answer = await this.send(route, method, path, caller?.token, body, headers);
      if (answer.status === 401 && caller && !accept.includes(401)) {
        throw new UpstreamFailure('token_not_valid', route, 401);
      }
      return this.check(route, answer, accept);
    }
    const used = this.serviceAccountToken();
    let answer = await this.send(route, method, path, await used, body, headers);
    if (answer.status === 401) {
      // The service account's token may be revoked or expired at any time: log in once more.
      // Only the first call to meet the refused token drops it; concurrent calls that were
      // refused the same token share that new login instead of each logging in again.
      if (this.serviceToken === used) this.serviceToken = undefined;
      answer = await this.send(
        route,
        method,
        path,
        await this.serviceAccountToken(),
        body,
        headers,
        2,
      );
    }
    return this.check(route, answer, accept);
  }

  private check(route: string, answer: Answer, accept: Accept): Answer {
    if (accept.includes(answer.status)) {
      if (
        answer.body === undefined &&
        answer.status !== 204 &&
        answer.status !== 404 &&
        answer.status !== 401
      ) {
        throw new UpstreamFailure('bad_response', route, answer.status);
      }
      return answer;
    }
    if (answer.status === 503 && answer.body !== undefined) {
      throw new UpstreamFailure('unavailable', route, 503, answer.body);
    }
    throw new UpstreamFailure('bad_response', route, answer.status);
  }

  private serviceAccountToken(): Promise<string> {
    if (!this.serviceToken) {
      const { username, password } = this.options.serviceAccount;
      const pending = this.login(username, password).then((pair) => {
        if (!pair) throw new UpstreamFailure('bad_response', 'auth.token', 401);
        return pair.access_token;
      });
      // A failed login is not cached: the next call tries again.
      pending.catch(() => {
        if (this.serviceToken === pending) this.serviceToken = undefined;
      });
      this.serviceToken = pending;
    }
    return this.serviceToken;
  }

  /**
   * One HTTP exchange (see `exchange`), reported to the observers; with tracing on, in a span
   * `ERP <route>` (the route's name, never the path: paths hold usernames, e-mails and
   * telephone numbers) with the status, the outcome and which attempt it is (2: sent again
   * after the service account logged in anew). undici's span under it carries `traceparent`.
   */
  private send(
    route: Route,
    method: string,
    path: string,
    token: string | undefined,
    body: unknown,
    extraHeaders: Record<string, string>,
    attempt = 1,
  ): Promise<Answer> {
    return withSpan(
      `ERP ${route}`,
      { 'erp.route': route, 'erp.kind': KINDS[route], 'erp.attempt': attempt },
      async (span) => {
        try {
          const answer = await this.observed(route, method, path, token, body, extraHeaders);
          span?.setAttributes({
            'http.response.status_code': answer.status,
            'erp.outcome': `${Math.floor(answer.status / 100)}xx`,
          });
          if (span && answer.status >= 500) failed(span, undefined, String(answer.status));
          return answer;
        } catch (error) {
          if (span && error instanceof UpstreamFailure) {
            span.setAttribute('erp.outcome', error.kind);
            if (error.phase) span.setAttribute('erp.phase', error.phase);
            if (error.status !== undefined) {
              span.setAttribute('http.response.status_code', error.status);
            }
            failed(span, error, error.kind);
          }
          throw error;
        }
      },
    );
  }

  private async observed(
    route: Route,
    method: string,
    path: string,
    token: string | undefined,
    body: unknown,
    extraHeaders: Record<string, string>,
  ): Promise<Answer> {
    if (this.observers.size === 0) {
      return this.exchange(route, method, path, token, body, extraHeaders);
    }
    const started = performance.now();
    let outcome = 'bad_response';
    try {
      const answer = await this.exchange(route, method, path, token, body, extraHeaders);
      outcome = `${Math.floor(answer.status / 100)}xx`;
      return answer;
    } catch (error) {
      if (error instanceof UpstreamFailure) {
        outcome = error.phase === 'queued' ? 'queue_timeout' : error.kind;
      }
      throw error;
    } finally {
      const report = { kind: KINDS[route], outcome, seconds: (performance.now() - started) / 1000 };
      for (const observer of this.observers) observer(report);
    }
  }

  /**
   * One HTTP exchange, within `timeoutMs` from now: first a free connection of the route's
   * kind (waiting at most `queueTimeoutMs`), then the answer. `body` of the answer is
   * undefined when it is not JSON.
   */
  private async exchange(
    route: Route,
    method: string,
    path: string,
    token: string | undefined,
    body: unknown,
    extraHeaders: Record<string, string>,
  ): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const lane = this.lanes[KINDS[route]];
    const started = performance.now();
    if (!(await lane.acquire(this.queueTimeoutMs))) {
      // Never handed to undici: the request was not sent.
      throw new UpstreamFailure('timeout', route, undefined, undefined, undefined, 'queued');
    }
    const left = this.options.timeoutMs - (performance.now() - started);
    const signal = AbortSignal.timeout(Math.max(1, Math.ceil(left)));
    const exchange = (async () => {
      const response = await lane.pool.request({
        method: method as 'GET',
        path,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      return { response, bytes: await readBounded(route, response) };
    })();
    // The connection is free again only when undici is done with the request; that can be
    // after the caller gives up (undici settles a request aborted while connecting only once
    // the connection is made or has failed).
    exchange.then(
      () => lane.release(),
      () => lane.release(),
    );
    try {
      const { response, bytes } = await untilAborted(exchange, signal);
      const type = String(response.headers['content-type'] ?? '');
      let parsed: unknown;
      if (bytes.length > 0 && type.includes('json')) {
        parsed = parseAnswer(route, response.statusCode, bytes);
      }
      return { status: response.statusCode, body: parsed };
    } catch (error) {
      throw toFailure(route, error, signal);
    }
  }
}

/**
 * The connections of one kind of call: a pool of `connections`, and a gate that lets at
 * most that many calls in at once while the others wait their turn, first come first
 * served. Waiting here rather than in undici's queue lets a call give up on time and know
 * it was not sent (undici settles a request aborted in its queue only once a connection
 * takes it up, and then also closes that connection).
 */
class Lane {
  readonly pool: Pool;
  private active = 0;
  /** Calls waiting for a connection, in arrival order; each is called when it gets one. */
  private readonly waiting = new Set<() => void>();

  constructor(
    url: string,
    private readonly connections: number,
    options: UpstreamOptions,
  ) {
    this.pool = new Pool(url, {
      connections,
      keepAliveTimeout: 30_000,
      // Our own timer bounds each call; these only keep undici from waiting longer.
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Resolves true with a connection taken, false when none was free within `waitMs`. */
  acquire(waitMs: number): Promise<boolean> {
    if (this.active < this.connections && this.waiting.size === 0) {
      this.active++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(granted);
        resolve(false);
      }, waitMs);
      this.waiting.add(granted);
    });
  }

  /** Hands the connection to the first waiting call, or frees it. */
  release(): void {
    const [next] = this.waiting;
    if (next) {
      this.waiting.delete(next);
      next();
    } else {
      this.active--;
    }
  }

  stats(): { active: number; queued: number } {
    return { active: this.active, queued: this.waiting.size };
  }
}

/**
 * The answer's body, at most the route's `ANSWER_BYTES`: refused unread when its
 * `Content-Length` says more, else counted chunk by chunk as it arrives. Past the bound the
 * body is destroyed, which aborts the request and closes its connection (undici cannot reuse
 * a connection with an unread answer): the rest is never read, let alone held.
 */
async function readBounded(route: Route, response: Dispatcher.ResponseData): Promise<Buffer> {
  const limit = ANSWER_BYTES[route];
  const tooLarge = (how: string) => {
    // Destroyed unread, the body emits undici's RequestAbortedError: expected here, and
    // without a listener an uncaught exception.
    response.body.on('error', () => {});
    response.body.destroy();
    return new UpstreamFailure(
      'bad_response',
      route,
      response.statusCode,
      undefined,
      new Error(`answer over ${limit} bytes (${how})`),
    );
  };
  const declared = Number(response.headers['content-length']);
  if (declared > limit) throw tooLarge(`Content-Length ${declared}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge('while reading');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON answer's value. Unusable (`bad_response`, the reason for the log, never the text):
 * not UTF-8 (decoding would replace bytes with U+FFFD, so a stored value would no longer be
 * upstream's), nested deeper than `ANSWER_DEPTH`, malformed, or holding `__proto__` or
 * `constructor.prototype` keys (prototype poisoning once merged into another object).
 */
function parseAnswer(route: Route, status: number, bytes: Buffer): unknown {
  const unusable = (reason: string) =>
    new UpstreamFailure('bad_response', route, status, undefined, new Error(reason));
  if (nestedDeeper(bytes, ANSWER_DEPTH))
    throw unusable(`answer nested over ${ANSWER_DEPTH} levels`);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw unusable('answer is not UTF-8');
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    // Malformed JSON is an unusable answer, whatever the status.
    throw unusable(
      error instanceof SyntaxError && /prototype/i.test(error.message)
        ? 'answer holds a prototype key'
        : 'answer is not JSON',
    );
  }
}

/**
 * Whether arrays and objects in the JSON text nest deeper than `max` (one pass over the
 * bytes, strings skipped). Malformed text is left to the parser.
 */
function nestedDeeper(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // backslash: the next byte is escaped
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > max) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

/** The promise, or the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(signal.reason);
    signal.addEventListener('abort', aborted, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}

function toFailure(route: string, error: unknown, signal: AbortSignal): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (
    signal.aborted ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new UpstreamFailure('timeout', route, undefined, undefined, error, 'waiting for answer');
  }
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new UpstreamFailure('unavailable', route, undefined, undefined, error);
  }
  return new UpstreamFailure('bad_response', route, undefined, undefined, error);
}

/**
 * A token as it can travel in an `Authorization` header (visible ASCII, as RFC 6750's
 * b64token): a token with NUL, a line break or non-ASCII text cannot be sent back.
 */
const HEADER_TOKEN = /^[\x21-\x7e]{1,8192}$/;

function tokenPair(answer: Answer, route: string): TokenPair {
  const body = answer.body as Partial<TokenPair> | undefined;
  if (typeof body?.access_token !== 'string' || typeof body.refresh_token !== 'string') {
    throw new UpstreamFailure('bad_response', route, answer.status);
  }
  if (!HEADER_TOKEN.test(body.access_token) || !HEADER_TOKEN.test(body.refresh_token)) {
    throw new UpstreamFailure(
      'bad_response',
      route,
      answer.status,
      undefined,
      new Error('answer does not fit the contract: a token that is not visible ASCII'),
    );
  }
  return body as TokenPair;
}

/**
 * A path or query part. Request values with an unpaired surrogate are refused before they get
 * here (src/http/conventions.ts); should one slip through, it is sent as U+FFFD rather than
 * throwing (encodeURIComponent's URIError would be a 500).
 */
const enc = (value: string) => encodeURIComponent(value.toWellFormed());

/**
 * A value as exactly one path segment, or undefined when it cannot be one: empty, `.` or
 * `..`. encodeURIComponent keeps dots, and an ERP or proxy normalising the path (RFC 3986
 * remove_dot_segments) would resolve such a segment into another resource. Everything else
 * is one segment once encoded (`/` is `%2F`, `%` is `%25`), as upstream's article numbers
 * may hold such characters. Query values need no check: `enc` leaves none of `&=#?` in them.
 */
export function segment(value: string): string | undefined {
  if (value === '' || value === '.' || value === '..') return undefined;
  return enc(value);
}
