/**
 * The bundled ERP simulator: a real HTTP server implementing the whole upstream contract
 * (docs/erp-contract.md) over demo data, with a fault switch for the failure modes the service
 * must survive. Plain node:http, so faults (reset, malformed JSON) are fully under control.
 */
import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  CreditAnswer,
  OrderRequest,
  ProductPrice,
  ProductStock,
  TokenPair,
  UpstreamProfile,
} from '../src/upstream/types.js';
import {
  CENTRAL_WAREHOUSE,
  DEMO_SERVICE_ACCOUNT,
  demoData,
  type SimProduct,
  type SimUser,
  type SimulatorData,
} from './data.js';
import {
  type Fault,
  FaultSwitch,
  faultAnswer,
  parseFaultRequest,
  type SimRoute,
} from './faults.js';

export {
  CENTRAL_WAREHOUSE,
  DEMO_SERVICE_ACCOUNT,
  DEMO_STORE_GLNS,
  DEMO_USERS,
  demoData,
  type SimOrganization,
  type SimProduct,
  type SimUser,
  type SimulatorData,
} from './data.js';
export type { Fault, SimRoute } from './faults.js';

export interface PlacedOrder {
  order_id: string;
  order_number: string;
  idempotency_key: string;
  status: 'placed' | 'queued';
  /** The order as docs/erp-contract.md has the service send it. */
  body: OrderRequest;
  /** Username of the token that placed it. */
  placed_by: string;
  created: string;
}

export interface SimCall {
  route: SimRoute;
  method: string;
  /** The request target as received, query string included. */
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** W3C trace context the caller sent (a traced service sends it). */
  traceparent: string | undefined;
}

export interface Simulator {
  /** e.g. http://127.0.0.1:43567 (no trailing slash) */
  url: string;
  /** Also cuts delayed requests short. */
  close(): Promise<void>;
  /** The live data; tests may mutate it. */
  data: SimulatorData;
  /** Every order placed, in order. */
  orders: PlacedOrder[];
  /** Every request received that matched a route. */
  calls: SimCall[];
  /** The target (path and query, as received) of every request, matched or not. */
  targets: string[];
  /** The next `times` (default 1) calls of `route` get `fault`, FIFO across injections. */
  inject(route: SimRoute, fault: Fault, times?: number): void;
  clearFaults(): void;
  /**
   * Lets calls held by a 'hang' fault go on (each is then answered as usual, or gets the
   * fault's `next`): all of them, or the first `count` in the order they arrived.
   */
  release(count?: number): void;
  /** Invalidates issued access tokens (all, or one user's); refresh tokens stay valid. */
  revokeTokens(username?: string): void;
}

export interface SimulatorOptions {
  host?: string;
  port?: number;
  data?: SimulatorData;
  /** Default service / service-password. */
  serviceAccount?: { username: string; password: string };
  /** Default 3600. */
  tokenTtlSeconds?: number;
}

interface Answer {
  status: number;
  body?: unknown;
}

interface Principal {
  username: string;
  service: boolean;
  /** Null for the service account. */
  user: SimUser | null;
}

interface Call {
  params: string[];
  query: URLSearchParams;
  body: unknown;
  principal: Principal;
  idempotencyKey: string | undefined;
  /** A 'saturated' fault is on this orders call: place it, answer 202. */
  saturated: boolean;
}

interface RouteDef {
  route: SimRoute;
  method: string;
  pattern: RegExp;
  access: 'public' | 'user' | 'service';
  handle(call: Call): Answer;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** Marks a body that did not parse (undefined means no body). */
const INVALID_JSON = Symbol('invalid_json');
const MIN_PASSWORD_LENGTH = 8;
const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;

const error = (status: number, code: string, detail?: string): Answer => ({
  status,
  body: detail === undefined ? { error: code } : { error: code, detail },
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Formats non-negative integer cents (or hundredths of a percent) as "12.90". */
export function formatCents(cents: number): string {
  const c = Math.max(0, Math.trunc(cents));
  return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
}

/** `cents * basisPoints / 10000`, rounded half up, in integers. */
function percentOf(cents: number, basisPoints: number): number {
  return Math.floor((cents * basisPoints + 5000) / 10000);
}

/** part / whole in hundredths of a percent, rounded half up. */
function ratioBasisPoints(part: number, whole: number): number {
  return whole <= 0 ? 0 : Math.floor((part * 20000 + whole) / (2 * whole));
}

export function priceFor(p: SimProduct, discountBasisPoints: number): ProductPrice {
  const { pricing } = p;
  const pre = pricing.list_cents;
  const sales = pricing.campaign_cents ?? pre;
  const campaignDiscount = Math.max(0, pre - sales);
  const customerDiscount = percentOf(sales, discountBasisPoints);
  const customerPrice = sales - customerDiscount;
  const alloyingAmount = pricing.alloying?.amount_cents ?? 0;
  const discounts = [];
  if (campaignDiscount > 0) {
    discounts.push({
      name: 'Campaign price',
      type: 'campaign',
      percentage: formatCents(ratioBasisPoints(campaignDiscount, pre)),
      amount: formatCents(campaignDiscount),
    });
  }
  if (customerDiscount > 0) {
    discounts.push({
      name: 'Customer discount',
      type: 'customer',
      percentage: formatCents(discountBasisPoints),
      amount: formatCents(customerDiscount),
    });
  }
  const totalDiscount = campaignDiscount + customerDiscount;
  return {
    article_number: p.product.article_number,
    net_price: formatCents(customerPrice + alloyingAmount),
    price_type: campaignDiscount > 0 ? 'campaign' : customerDiscount > 0 ? 'customer' : 'list',
    sales_price: formatCents(sales),
    customer_discount_price: formatCents(customerPrice),
    pre_campaign_price: formatCents(pre),
    sales_price_unit: pricing.unit,
    ask_for_price: pricing.ask_for_price,
    discounts,
    discount_amount: formatCents(totalDiscount),
    discount_percentage: formatCents(ratioBasisPoints(totalDiscount, pre)),
    alloying_price: formatCents(pricing.alloying?.price_cents ?? 0),
    alloying_unit: pricing.alloying?.unit ?? '',
    alloying_amount: formatCents(alloyingAmount),
  };
}

export function availabilityLevel(quantity: number): 'green' | 'yellow' | 'red' {
  return quantity >= 10 ? 'green' : quantity >= 1 ? 'yellow' : 'red';
}

export function stockFor(p: SimProduct, locationId: string, now = new Date()): ProductStock {
  const stockedAt = (id: string) => Object.hasOwn(p.stock, id);
  const quantityAt = (id: string) => (stockedAt(id) ? Math.max(0, Math.trunc(p.stock[id])) : 0);
  const stocked = stockedAt(locationId);
  const quantity = quantityAt(locationId);
  const [fromDays, toDays] = p.lead_days;
  const restocks = stocked && quantity === 0 && !p.product.discontinued;
  const date = new Date(now.getTime() + fromDays * 86_400_000).toISOString().slice(0, 10);
  const subAvailabilities =
    locationId !== CENTRAL_WAREHOUSE && stockedAt(CENTRAL_WAREHOUSE)
      ? [
          {
            location_id: CENTRAL_WAREHOUSE,
            quantity: quantityAt(CENTRAL_WAREHOUSE),
            availability: availabilityLevel(quantityAt(CENTRAL_WAREHOUSE)),
          },
        ]
      : [];
  return {
    location_id: locationId,
    availability_date: restocks ? date.split('-').reverse().join('.') : null,
    availability_date_iso: restocks ? date : null,
    quantity,
    sub_availabilities: subAvailabilities,
    order_multiple: p.order_multiple,
    stocked,
    available_from_days: restocks ? fromDays : null,
    available_to_days: restocks ? toDays : null,
    availability: availabilityLevel(quantity),
  };
}

/** JSON with object keys sorted at every level, to compare bodies by meaning. */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (isObject(v)) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort(v[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

/** The order body, or what is wrong with it. */
export function validateOrder(body: unknown): OrderRequest | string {
  if (!isObject(body)) return 'body must be a JSON object';
  const { channel, store_gln, organization_id, customer_order_number, order_mark, reference } =
    body;
  if (channel !== 'store' && channel !== 'warehouse') {
    return 'channel must be "store" or "warehouse"';
  }
  if (channel === 'store' && (typeof store_gln !== 'string' || store_gln === '')) {
    return 'store_gln must be a non-empty string for channel "store"';
  }
  if (channel === 'warehouse' && store_gln !== null && store_gln !== undefined) {
    return 'store_gln must be null for channel "warehouse"';
  }
  if (typeof organization_id !== 'string' || organization_id === '') {
    return 'organization_id must be a non-empty string';
  }
  if (typeof customer_order_number !== 'string') return 'customer_order_number must be a string';
  if (typeof order_mark !== 'string') return 'order_mark must be a string';
  if (reference !== null && reference !== undefined && typeof reference !== 'string') {
    return 'reference must be a string or null';
  }
  if (!Array.isArray(body.lines) || body.lines.length === 0) {
    return 'lines must be a non-empty array';
  }
  const lines: OrderRequest['lines'] = [];
  for (const [i, line] of body.lines.entries()) {
    if (!isObject(line)) return `lines[${i}] must be an object`;
    if (typeof line.part_number !== 'string' || line.part_number === '') {
      return `lines[${i}].part_number must be a non-empty string`;
    }
    if (!Number.isSafeInteger(line.quantity) || (line.quantity as number) < 1) {
      return `lines[${i}].quantity must be an integer >= 1`;
    }
    lines.push({ part_number: line.part_number, quantity: line.quantity as number });
  }
  return {
    channel,
    store_gln: channel === 'store' ? (store_gln as string) : null,
    organization_id,
    customer_order_number,
    order_mark,
    reference: (reference as string | null | undefined) ?? null,
    lines,
  };
}

const digitsOnly = (s: string) => s.replace(/\D/g, '');

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const data = options.data ?? demoData();
  const service = { ...(options.serviceAccount ?? DEMO_SERVICE_ACCOUNT) };
  const ttlSeconds = options.tokenTtlSeconds ?? 3600;
  const accessTokens = new Map<string, { username: string; expiresAt: number }>();
  const refreshTokens = new Map<string, { username: string; expiresAt: number }>();
  const remembered = new Map<string, { canonical: string; answer: Answer }>();
  const orders: PlacedOrder[] = [];
  const calls: SimCall[] = [];
  const targets: string[] = [];
  const faults = new FaultSwitch();
  const pendingDelays = new Set<() => void>();
  /** Calls held by a 'hang' fault: true lets one go on, false cuts it short. */
  const held = new Set<(go: boolean) => void>();
  let nextOrderSeq = 100;
  let closed = false;

  const newToken = () => randomBytes(32).toString('base64url');
  const findUser = (username: string) => data.users.find((u) => u.username === username);
  const isKnown = (username: string) => username === service.username || !!findUser(username);

  function issueTokens(username: string): Answer {
    const access = newToken();
    const refresh = newToken();
    accessTokens.set(access, { username, expiresAt: Date.now() + ttlSeconds * 1000 });
    refreshTokens.set(refresh, { username, expiresAt: Date.now() + REFRESH_TTL_MS });
    const pair: TokenPair = {
      access_token: access,
      refresh_token: refresh,
      expires_in: ttlSeconds,
    };
    return { status: 200, body: pair };
  }

  function authenticate(authorization: string | undefined): Principal | null {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    const entry = token ? accessTokens.get(token) : undefined;
    if (!token || !entry) return null;
    if (entry.expiresAt <= Date.now()) {
      accessTokens.delete(token);
      return null;
    }
    if (entry.username === service.username) {
      return { username: entry.username, service: true, user: null };
    }
    const user = findUser(entry.username);
    return user ? { username: user.username, service: false, user } : null;
  }

  function profile(principal: Principal): UpstreamProfile {
    const user = principal.user;
    if (!user) {
      return {
        username: principal.username,
        email: `${principal.username}@erp.example.com`,
        first_name: 'Service',
        last_name: 'Account',
        telephone: '',
        reference: null,
        organizations: [],
      };
    }
    const organizations = user.memberships.flatMap((m) => {
      const org = data.organizations.find((o) => o.organization_id === m.organization_id);
      return org
        ? [
            {
              organization_id: org.organization_id,
              code: org.code,
              name: org.name,
              parent_code: org.parent_code,
              has_unlimited_credit: org.has_unlimited_credit,
            },
          ]
        : [];
    });
    return {
      username: user.username,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      telephone: user.telephone,
      reference: user.reference,
      organizations,
    };
  }

  function placeOrder(call: Call): Answer {
    const key = call.idempotencyKey;
    if (!key) return error(400, 'idempotency_key_required');
    const body = validateOrder(call.body);
    if (typeof body === 'string') return error(400, 'invalid_order', body);
    const canonical = canonicalJson(call.body);
    const seen = remembered.get(key);
    if (seen)
      return seen.canonical === canonical ? seen.answer : error(409, 'idempotency_key_reused');
    const order: PlacedOrder = {
      order_id: `ord_${randomBytes(10).toString('hex')}`,
      order_number: `SO-${new Date().getUTCFullYear()}-${String(nextOrderSeq++).padStart(6, '0')}`,
      idempotency_key: key,
      status: call.saturated ? 'queued' : 'placed',
      body,
      placed_by: call.principal.username,
      created: new Date().toISOString(),
    };
    orders.push(order);
    const { order_id, order_number } = order;
    const answer: Answer = call.saturated
      ? { status: 202, body: { order_id, order_number, status: 'queued' } }
      : { status: 201, body: { order_id, order_number } };
    remembered.set(key, { canonical, answer });
    return answer;
  }

  const product = (n: string) => (Object.hasOwn(data.products, n) ? data.products[n] : undefined);
  const notFound = () => error(404, 'not_found');
  const badRequest = (detail: string) => error(400, 'invalid_request', detail);

  const routes: RouteDef[] = [
    {
      route: 'auth.token',
      method: 'POST',
      pattern: /^\/auth\/token$/,
      access: 'public',
      handle: ({ body }) => {
        if (!isObject(body)) return badRequest('body must be a JSON object');
        const { username, password } = body;
        if (typeof username !== 'string' || typeof password !== 'string') {
          return badRequest('username and password must be strings');
        }
        const ok =
          username === service.username
            ? password === service.password
            : findUser(username)?.password === password;
        return ok ? issueTokens(username) : error(401, 'invalid_credentials');
      },
    },
    {
      route: 'auth.refresh',
      method: 'POST',
      pattern: /^\/auth\/refresh$/,
      access: 'public',
      handle: ({ body }) => {
        if (!isObject(body)) return badRequest('body must be a JSON object');
        const token = body.refresh_token;
        const entry = typeof token === 'string' ? refreshTokens.get(token) : undefined;
        if (typeof token !== 'string' || !entry) return error(401, 'invalid_token');
        // Rotation: the old refresh token is spent either way.
        refreshTokens.delete(token);
        if (entry.expiresAt <= Date.now() || !isKnown(entry.username)) {
          return error(401, 'invalid_token');
        }
        return issueTokens(entry.username);
      },
    },
    {
      route: 'me',
      method: 'GET',
      pattern: /^\/me$/,
      access: 'user',
      handle: ({ principal }) => ({ status: 200, body: profile(principal) }),
    },
    {
      route: 'me.password',
      method: 'PUT',
      pattern: /^\/me\/password$/,
      access: 'user',
      handle: ({ body, principal }) => {
        if (!isObject(body)) return badRequest('body must be a JSON object');
        const { password, new_password } = body;
        if (typeof password !== 'string' || typeof new_password !== 'string') {
          return badRequest('password and new_password must be strings');
        }
        const holder = principal.user ?? service;
        if (holder.password !== password) return error(400, 'invalid_password');
        if (new_password.length < MIN_PASSWORD_LENGTH) return error(400, 'invalid_new_password');
        holder.password = new_password;
        return { status: 204 };
      },
    },
    {
      route: 'admin.users',
      method: 'GET',
      pattern: /^\/admin\/users$/,
      access: 'service',
      handle: ({ query }) => {
        const email = query.get('email');
        if (!email) return error(400, 'email_required');
        const wanted = email.trim().toLowerCase();
        const found = data.users.filter((u) => u.email.toLowerCase() === wanted);
        return { status: 200, body: found.map((u) => ({ username: u.username, email: u.email })) };
      },
    },
    {
      route: 'admin.user',
      method: 'GET',
      pattern: /^\/admin\/users\/([^/]+)$/,
      access: 'service',
      handle: ({ params }) => {
        const user = findUser(params[0]);
        return user
          ? { status: 200, body: { username: user.username, email: user.email } }
          : notFound();
      },
    },
    {
      route: 'admin.password',
      method: 'PUT',
      pattern: /^\/admin\/users\/([^/]+)\/password$/,
      access: 'service',
      handle: ({ params, body }) => {
        const user = findUser(params[0]);
        if (!user) return notFound();
        if (!isObject(body) || typeof body.new_password !== 'string') {
          return badRequest('new_password must be a string');
        }
        if (body.new_password.length < MIN_PASSWORD_LENGTH) {
          return error(400, 'invalid_new_password');
        }
        user.password = body.new_password;
        return { status: 204 };
      },
    },
    {
      route: 'products.get',
      method: 'GET',
      pattern: /^\/products\/([^/]+)$/,
      access: 'user',
      handle: ({ params }) => {
        const p = product(params[0]);
        return p ? { status: 200, body: p.product } : notFound();
      },
    },
    {
      route: 'products.price',
      method: 'GET',
      pattern: /^\/products\/([^/]+)\/price$/,
      access: 'user',
      handle: ({ params, principal }) => {
        const p = product(params[0]);
        if (!p) return notFound();
        return { status: 200, body: priceFor(p, principal.user?.discount_basis_points ?? 0) };
      },
    },
    {
      route: 'products.stock',
      method: 'GET',
      pattern: /^\/products\/([^/]+)\/stock$/,
      access: 'user',
      handle: ({ params, query }) => {
        const location = query.get('location_id');
        if (!location) return error(400, 'location_id_required');
        const p = product(params[0]);
        return p ? { status: 200, body: stockFor(p, location) } : notFound();
      },
    },
    {
      route: 'categories',
      method: 'GET',
      pattern: /^\/categories$/,
      access: 'user',
      handle: () => ({ status: 200, body: data.categories }),
    },
    {
      route: 'credit',
      method: 'GET',
      pattern: /^\/organizations\/([^/]+)\/credit$/,
      access: 'user',
      handle: ({ params, principal }) => {
        const org = data.organizations.find((o) => o.organization_id === params[0]);
        const membership = principal.user?.memberships.find((m) => m.organization_id === params[0]);
        if (!org || !membership) return notFound();
        const answer: CreditAnswer = { credit: org.has_unlimited_credit || membership.credit };
        return { status: 200, body: answer };
      },
    },
    {
      route: 'shipments',
      method: 'GET',
      pattern: /^\/shipments$/,
      access: 'user',
      handle: ({ query }) => {
        const telephone = query.get('telephone');
        if (!telephone) return error(400, 'telephone_required');
        // Compare digits only: an unencoded "+" arrives as a space.
        const wanted = digitsOnly(telephone);
        const entry = Object.entries(data.shipments).find(([t]) => digitsOnly(t) === wanted);
        return { status: 200, body: entry?.[1] ?? [] };
      },
    },
    {
      route: 'orders',
      method: 'POST',
      pattern: /^\/orders$/,
      access: 'user',
      handle: placeOrder,
    },
  ];

  function match(method: string, pathname: string) {
    let pathExists = false;
    for (const def of routes) {
      const m = def.pattern.exec(pathname);
      if (!m) continue;
      pathExists = true;
      if (def.method !== method) continue;
      try {
        return { def, params: m.slice(1).map((p) => decodeURIComponent(p)) };
      } catch {
        return null; // bad percent-encoding: no such resource
      }
    }
    return pathExists ? 'method' : null;
  }

  function revokeTokens(username?: string) {
    for (const [token, entry] of accessTokens) {
      if (username === undefined || entry.username === username) accessTokens.delete(token);
    }
  }

  /** Resolves false when the simulator closes first. */
  function sleep(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const cancel = () => {
        clearTimeout(timer);
        pendingDelays.delete(cancel);
        resolve(false);
      };
      const timer = setTimeout(() => {
        pendingDelays.delete(cancel);
        resolve(true);
      }, ms);
      pendingDelays.add(cancel);
    });
  }

  /** Resolves true on release(), false when the simulator closes first. */
  function hang(): Promise<boolean> {
    return new Promise((resolve) => {
      const settle = (go: boolean) => {
        held.delete(settle);
        resolve(go);
      };
      held.add(settle);
    });
  }

  function release(count = Number.POSITIVE_INFINITY) {
    for (const settle of [...held].slice(0, count)) settle(true);
  }

  function simControl(method: string, pathname: string, body: unknown): Answer {
    if (pathname === '/_sim/faults' && method === 'POST') {
      const parsed = parseFaultRequest(body);
      if (typeof parsed === 'string') return error(400, 'invalid_fault', parsed);
      faults.inject(parsed.route, parsed.fault, parsed.times);
      return { status: 204 };
    }
    if (pathname === '/_sim/faults' && method === 'DELETE') {
      faults.clear();
      return { status: 204 };
    }
    if (pathname === '/_sim/release' && method === 'POST') {
      release(
        typeof body === 'object' && body !== null ? (body as { count?: number }).count : undefined,
      );
      return { status: 204 };
    }
    if (pathname === '/_sim/orders' && method === 'GET') return { status: 200, body: orders };
    if (pathname === '/_sim/calls' && method === 'GET') return { status: 200, body: calls };
    if (pathname === '/_sim/revoke' && method === 'POST') {
      const username = isObject(body) ? body.username : undefined;
      if (username !== undefined && typeof username !== 'string') {
        return badRequest('username must be a string');
      }
      revokeTokens(username);
      return { status: 204 };
    }
    return notFound();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    if (!target.startsWith('/_sim/')) targets.push(target);
    const q = target.indexOf('?');
    const pathname = q < 0 ? target : target.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
    if (raw === null) return send(res, error(413, 'payload_too_large'));
    let body: unknown;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = INVALID_JSON;
      }
    }

    if (pathname.startsWith('/_sim/')) {
      return send(
        res,
        body === INVALID_JSON ? error(400, 'invalid_json') : simControl(method, pathname, body),
      );
    }

    const found = match(method, pathname);
    if (found === null) return send(res, notFound());
    if (found === 'method') return send(res, error(405, 'method_not_allowed'));
    const { def, params } = found;
    const authorization = req.headers.authorization;
    const keyHeader = req.headers['idempotency-key'];
    const idempotencyKey = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
    const traceparent = req.headers.traceparent as string | undefined;
    calls.push({
      route: def.route,
      method,
      path: target,
      authorization,
      idempotencyKey,
      traceparent,
    });

    let fault = faults.take(def.route);
    // An `after` fault spoils the answer of a call that is handled (an order placed) first.
    let after = fault?.after ? fault : undefined;
    if (after) fault = undefined;
    if (fault?.type === 'hang') {
      if (!(await hang())) return void req.socket.destroy();
      fault = fault.next;
      if (fault?.after) [after, fault] = [fault, undefined];
    }
    let saturated = false;
    if (fault?.type === 'reset') return void req.socket.destroy();
    if (fault?.type === 'delay' && !(await sleep(fault.ms))) return void req.socket.destroy();
    if (fault?.type === 'saturated') {
      if (def.route !== 'orders') return send(res, { status: 202, body: { status: 'queued' } });
      saturated = true;
    }
    const canned = fault ? faultAnswer(fault) : null;
    if (canned) return sendCanned(res, canned);

    const answer = answerCall(def, params, query, body, authorization, idempotencyKey, saturated);
    if (!after) return send(res, answer);
    let spoil: Fault | undefined = after;
    if (spoil.type === 'hang') {
      if (!(await hang())) return void req.socket.destroy();
      spoil = spoil.next;
    }
    if (spoil?.type === 'reset') return void req.socket.destroy();
    if (spoil?.type === 'delay' && !(await sleep(spoil.ms))) return void req.socket.destroy();
    const spoilt = spoil ? faultAnswer(spoil) : null;
    return spoilt ? sendCanned(res, spoilt) : send(res, answer);
  }

  function answerCall(
    def: RouteDef,
    params: string[],
    query: URLSearchParams,
    body: unknown,
    authorization: string | undefined,
    idempotencyKey: string | undefined,
    saturated: boolean,
  ): Answer {
    if (body === INVALID_JSON) return error(400, 'invalid_json');
    let principal: Principal = { username: '', service: false, user: null };
    if (def.access !== 'public') {
      const who = authenticate(authorization);
      if (!who) return error(401, 'invalid_token');
      if (def.access === 'service' && !who.service) return error(403, 'forbidden');
      principal = who;
    }
    return def.handle({ params, query, body, principal, idempotencyKey, saturated });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) send(res, error(500, 'internal_error'));
      else req.socket.destroy();
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${urlHost(host)}:${port}`,
    data,
    orders,
    calls,
    targets,
    inject: (route, fault, times = 1) => faults.inject(route, fault, times),
    clearFaults: () => faults.clear(),
    release,
    revokeTokens,
    async close() {
      if (closed) return;
      closed = true;
      for (const cancel of [...pendingDelays]) cancel();
      for (const settle of [...held]) settle(false);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** The request body, or null when it exceeds the limit. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendCanned(
  res: ServerResponse,
  canned: { status: number; contentType: string; body: string },
): void {
  if (res.destroyed) return;
  res.writeHead(canned.status, {
    'content-type': canned.contentType,
    'content-length': Buffer.byteLength(canned.body),
  });
  res.end(canned.body);
}

function send(res: ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  if (answer.status === 204 || answer.body === undefined) {
    res.writeHead(answer.status);
    res.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
