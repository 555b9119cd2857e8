import createClient from 'openapi-fetch';
import type { paths } from './api-schema';
import { type MessageKey, t } from './i18n';

/*
 * The console's only way to the service: the public API, typed from its OpenAPI document
 * (api-schema.ts, generated), with the JWT of the signed-in user.
 */

type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type Ok<Op> = Op extends { responses: infer R }
  ? R extends { 200: infer A }
    ? Json<A>
    : R extends { 201: infer B }
      ? Json<B>
      : never
  : never;

export type Me = Ok<paths['/api/v1/users/me/']['get']>;
export type CartPage = Ok<paths['/api/v1/carts/']['get']>;
export type Cart = CartPage['results'][number];
export type Checkout = NonNullable<Cart['checkout']>;
export type Store = Ok<paths['/api/v1/stores/{gln}/']['get']>;
export type StoreHour = Ok<paths['/api/v1/stores/{gln}/store-hours/']['get']>[number];
export type Control = Ok<paths['/api/v1/controls/{id}/']['get']>;
export type Stats = Ok<paths['/api/v1/carts/stats/']['get']>;
export type ControlStats = Ok<paths['/api/v1/controls/stats/']['get']>;
export type ControlCounts = ControlStats['random'];
export type TimeSeries = Ok<paths['/api/v1/carts/time-series/']['get']>;
export type Ranking = Ok<paths['/api/v1/monthly-scores/ranking/']['get']>;
export type AuditPage = Ok<paths['/api/v1/audit-events/']['get']>;
export type AuditEvent = AuditPage['results'][number];
export type AuditFilters = NonNullable<
  paths['/api/v1/audit-events/']['get']['parameters']['query']
>;
export type CartFilters = NonNullable<paths['/api/v1/carts/']['get']['parameters']['query']>;

/** An error body of the API: `{detail, code}` or `{field: [messages]}`. */
export type ErrorBody = Record<string, unknown>;

const TOKEN_KEY = 'ordering-console.token';
/** The ERP's token of the login, for the live product names (the catalogue passthrough). */
const UPSTREAM_KEY = 'ordering-console.upstream';
let token: string | null = sessionStorage.getItem(TOKEN_KEY);
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
/** Why a session ended: a message key, shown in the current language on the login page. */
export type EndReason = '' | Extract<MessageKey, `session.${string}`>;
const endListeners = new Set<(reason: EndReason) => void>();

export const api = createClient<paths>({ baseUrl: location.origin });
api.use({
  onRequest({ request }) {
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ response }) {
    if (response.status === 401 && token) {
      // The ERP refusing its own token (a product name) does not end the console's session.
      const body = await response
        .clone()
        .json()
        .catch(() => ({}));
      if (body?.code !== 'upstream_token_not_valid') endSession('session.ended');
    }
    return response;
  },
});

export const hasToken = () => token !== null;

/** Seconds until the token expires (from its `exp` claim); 0 when unreadable. */
function secondsLeft(jwt: string): number {
  try {
    const payload = JSON.parse(atob(jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    return Math.max(0, payload.exp - Date.now() / 1000);
  } catch {
    return 0;
  }
}

function keep(newToken: string): void {
  token = newToken;
  sessionStorage.setItem(TOKEN_KEY, newToken);
  clearTimeout(refreshTimer);
  // Refresh a minute before expiry (halfway for short-lived tokens).
  const left = secondsLeft(newToken);
  const wait = left > 120 ? left - 60 : left / 2;
  refreshTimer = setTimeout(refresh, Math.max(1, wait) * 1000);
}

async function refresh(): Promise<void> {
  if (!token) return;
  const { data } = await api.POST('/api/v1/auth/jwt/refresh/', { body: { token } });
  if (data) keep(data.token);
  else endSession('session.ended');
}

/** Forgets the token; listeners show the login page with the reason. */
export function endSession(reason: EndReason = ''): void {
  token = null;
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(UPSTREAM_KEY);
  products.clear();
  clearTimeout(refreshTimer);
  for (const listener of endListeners) listener(reason);
}

export function onSessionEnd(listener: (reason: EndReason) => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

/** The signed-in user, when staff or admin; the session ends otherwise. */
export async function whoAmI(): Promise<Me | null> {
  if (!token) return null;
  keep(token);
  const { data } = await api.GET('/api/v1/users/me/');
  if (!data) return null;
  if (!data.is_staff && !data.is_admin) {
    endSession('session.staffOnly');
    return null;
  }
  return data;
}

/** Logs in upstream through the service; a customer is turned away. */
export async function logIn(username: string, password: string): Promise<Me | string> {
  const { data, error } = await api.POST('/api/v1/auth/jwt/token/', {
    body: { username, password },
  });
  if (!data) return errorText(error as ErrorBody | undefined);
  keep(data.token);
  sessionStorage.setItem(UPSTREAM_KEY, data.upstream_token);
  const me = await whoAmI();
  return me ?? t('session.staffOnly');
}

/** The messages of an error body by field (`non_field_errors` and `detail` under '' ). */
export function fieldErrors(body: ErrorBody | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body) return { '': t('error.noAnswer') };
  for (const [key, value] of Object.entries(body)) {
    if (key === 'code') continue;
    const text = Array.isArray(value) ? value.join(' ') : String(value);
    const field = key === 'non_field_errors' || key === 'detail' ? '' : key;
    out[field] = out[field] ? `${out[field]} ${text}` : text;
  }
  return out;
}

/** An error body as one sentence. */
export function errorText(body: ErrorBody | undefined): string {
  return Object.entries(fieldErrors(body))
    .map(([field, text]) => (field ? `${field}: ${text}` : text))
    .join(' ');
}

/** Every store (the service has few: one page of 100). */
export async function loadStores(): Promise<Store[]> {
  const { data } = await api.GET('/api/v1/stores/', { params: { query: { page_size: '100' } } });
  return data?.results ?? [];
}

export type CartUser = Cart['user'];

/** The users with an active cart (in a store, or anywhere): the most recent cart of each. */
export async function activeUsers(gln?: string): Promise<CartUser[]> {
  const { data } = await api.GET('/api/v1/carts/', {
    params: { query: { active: 'True', each_user: 'True', page_size: '100', gln } },
  });
  const users = (data?.results ?? []).map((cart) => cart.user);
  return users.sort((a, b) => userName(a).localeCompare(userName(b)));
}

/** A person as "first last (username)"; the username alone when the names are empty. */
export function userName(user: { first_name?: string; last_name?: string; username: string }) {
  const full = `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim();
  return full ? `${full} (${user.username})` : user.username;
}

/** A cart by id (cached for the page: controls and alerts show the same carts again). */
const carts = new Map<number, Promise<Cart | null>>();
export function cartById(id: number, fresh = false): Promise<Cart | null> {
  let cart = carts.get(id);
  if (!cart || fresh) {
    cart = api
      .GET('/api/v1/carts/{id}/', { params: { path: { id: String(id) } } })
      .then(({ data }) => data ?? null);
    carts.set(id, cart);
  }
  return cart;
}

/**
 * A product's name from the ERP, live through the catalogue passthrough with the login's
 * ERP token; null when the ERP has none (or no token, or it is refused): the part number
 * alone is shown then.
 */
const products = new Map<string, Promise<string | null>>();
export function productName(partNumber: string): Promise<string | null> {
  const upstream = sessionStorage.getItem(UPSTREAM_KEY);
  if (!upstream) return Promise.resolve(null);
  let name = products.get(partNumber);
  if (!name) {
    name = api
      .GET('/api/v1/products/{article_number}/', {
        params: { path: { article_number: partNumber } },
        headers: { 'Authorization-Upstream': `Bearer ${upstream}` },
      })
      .then(({ data }) => (data as { name?: string } | undefined)?.name || null)
      .catch(() => null);
    products.set(partNumber, name);
  }
  return name;
}
