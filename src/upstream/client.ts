import { Pool, errors as undiciErrors } from 'undici';
import { UpstreamFailure } from './errors.js';
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

export interface UpstreamOptions {
  url: string;
  timeoutMs: number;
  serviceAccount: { username: string; password: string };
  /** Connections kept alive to the upstream system. */
  connections?: number;
}

/** Who a call is made for: a user's upstream token, or the service account. */
export type Caller = { token: string } | 'service';

interface Answer {
  status: number;
  body: unknown;
}

/** One answer the caller handles itself (everything else is a failure). */
type Accept = number[];

/**
 * The client of upstream-erp.md: one keep-alive pool, a timeout per call, and the error
 * mapping of conventions.md. Service-account calls log in lazily and, on a 401, log in
 * again once and repeat the call.
 */
export class UpstreamClient {
  private readonly pool: Pool;
  private serviceToken: Promise<string> | undefined;

  constructor(private readonly options: UpstreamOptions) {
    this.pool = new Pool(options.url, {
      connections: options.connections ?? 32,
      keepAliveTimeout: 30_000,
      // Our own timer bounds each call; these only keep undici from waiting longer.
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  close(): Promise<void> {
    return this.pool.close();
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

  async me(token: string): Promise<UpstreamProfile> {
    return (await this.json('me', 'GET', '/me', { token })) as UpstreamProfile;
  }

  /** false when `password` is not the current one. */
  /**
   * upstream-erp.md: 400 `invalid_password` is a wrong current password; any other 400 is
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
    const answer = await this.call(
      'admin.user',
      'GET',
      `/admin/users/${enc(username)}`,
      'service',
      undefined,
      [200, 404],
    );
    return answer.status === 404 ? null : (answer.body as { username: string; email: string });
  }

  async findUsersByEmail(email: string): Promise<{ username: string; email: string }[]> {
    return (await this.json(
      'admin.users',
      'GET',
      `/admin/users?email=${enc(email)}`,
      'service',
    )) as {
      username: string;
      email: string;
    }[];
  }

  /** false when upstream has no such user. */
  async setPassword(username: string, newPassword: string): Promise<boolean> {
    const answer = await this.call(
      'admin.password',
      'PUT',
      `/admin/users/${enc(username)}/password`,
      'service',
      { new_password: newPassword },
      [204, 404],
    );
    return answer.status === 204;
  }

  // Catalogue and customers: null is upstream's 404.

  product(caller: Caller, articleNumber: string): Promise<Product | null> {
    return this.jsonOrNull(
      'products.get',
      `/products/${enc(articleNumber)}`,
      caller,
    ) as Promise<Product | null>;
  }

  price(caller: Caller, articleNumber: string): Promise<ProductPrice | null> {
    return this.jsonOrNull(
      'products.price',
      `/products/${enc(articleNumber)}/price`,
      caller,
    ) as Promise<ProductPrice | null>;
  }

  stock(caller: Caller, articleNumber: string, locationId: string): Promise<ProductStock | null> {
    return this.jsonOrNull(
      'products.stock',
      `/products/${enc(articleNumber)}/stock?location_id=${enc(locationId)}`,
      caller,
    ) as Promise<ProductStock | null>;
  }

  async categories(caller: Caller): Promise<Category[]> {
    return (await this.json('categories', 'GET', '/categories', caller)) as Category[];
  }

  credit(caller: Caller, organizationId: string): Promise<CreditAnswer | null> {
    return this.jsonOrNull(
      'credit',
      `/organizations/${enc(organizationId)}/credit`,
      caller,
    ) as Promise<CreditAnswer | null>;
  }

  async shipments(caller: Caller, telephone: string): Promise<Shipment[]> {
    return (await this.json(
      'shipments',
      'GET',
      `/shipments?telephone=${enc(telephone)}`,
      caller,
    )) as Shipment[];
  }

  // Orders

  /**
   * Places an order under an idempotency key. 201 and 202 are answers; an upstream 503
   * with JSON is an 'unavailable' failure carrying that body.
   */
  async placeOrder(caller: Caller, key: string, order: OrderRequest): Promise<OrderAnswer> {
    const answer = await this.call('orders', 'POST', '/orders', caller, order, [201, 202], {
      'idempotency-key': key,
    });
    const body = answer.body as Record<string, unknown>;
    if (typeof body?.order_id !== 'string' || typeof body?.order_number !== 'string') {
      throw new UpstreamFailure('bad_response', 'orders', answer.status);
    }
    return {
      orderId: body.order_id,
      orderNumber: body.order_number,
      queued: answer.status === 202,
    };
  }

  // Plumbing

  private async json(
    route: string,
    method: string,
    path: string,
    caller: Caller,
  ): Promise<unknown> {
    return (await this.call(route, method, path, caller, undefined, [200])).body;
  }

  private async jsonOrNull(route: string, path: string, caller: Caller): Promise<unknown | null> {
    const answer = await this.call(route, 'GET', path, caller, undefined, [200, 404]);
    return answer.status === 404 ? null : answer.body;
  }

  private async call(
    route: string,
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

  /** One HTTP exchange. `body` of the answer is undefined when it is not JSON. */
  private async send(
    route: string,
    method: string,
    path: string,
    token: string | undefined,
    body: unknown,
    extraHeaders: Record<string, string>,
  ): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await this.pool.request({
        method: method as 'GET',
        path,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
      const text = await response.body.text();
      const type = String(response.headers['content-type'] ?? '');
      let parsed: unknown;
      if (text !== '' && type.includes('json')) {
        try {
          parsed = JSON.parse(text);
        } catch {
          // Malformed JSON is an unusable answer, whatever the status.
          throw new UpstreamFailure('bad_response', route, response.statusCode);
        }
      }
      return { status: response.statusCode, body: parsed };
    } catch (error) {
      throw toFailure(route, error, signal);
    }
  }
}

function toFailure(route: string, error: unknown, signal: AbortSignal): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (
    signal.aborted ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new UpstreamFailure('timeout', route, undefined, undefined, error);
  }
  const code = (error as { code?: string }).code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new UpstreamFailure('unavailable', route, undefined, undefined, error);
  }
  return new UpstreamFailure('bad_response', route, undefined, undefined, error);
}

function tokenPair(answer: Answer, route: string): TokenPair {
  const body = answer.body as Partial<TokenPair> | undefined;
  if (typeof body?.access_token !== 'string' || typeof body.refresh_token !== 'string') {
    throw new UpstreamFailure('bad_response', route, answer.status);
  }
  return body as TokenPair;
}

/**
 * A path or query part. Request values with an unpaired surrogate are refused before they get
 * here (src/http/conventions.ts); should one slip through, it is sent as U+FFFD rather than
 * throwing (encodeURIComponent's URIError would be a 500).
 */
const enc = (value: string) => encodeURIComponent(value.toWellFormed());
