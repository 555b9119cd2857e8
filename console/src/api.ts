import createClient from 'openapi-fetch';
import type { paths } from './api-schema';

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
let token: string | null = sessionStorage.getItem(TOKEN_KEY);
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
const endListeners = new Set<(reason: string) => void>();

export const api = createClient<paths>({ baseUrl: location.origin });
api.use({
  onRequest({ request }) {
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401 && token) endSession('Your session has ended. Log in again.');
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
  else endSession('Your session has ended. Log in again.');
}

/** Forgets the token; listeners show the login page with the reason. */
export function endSession(reason = ''): void {
  token = null;
  sessionStorage.removeItem(TOKEN_KEY);
  clearTimeout(refreshTimer);
  for (const listener of endListeners) listener(reason);
}

export function onSessionEnd(listener: (reason: string) => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

export const LOGGED_OUT = 'You are logged out.';

export const STAFF_ONLY =
  'This console is for store staff and administrators. Customers use the phone app.';

/** The signed-in user, when staff or admin; the session ends otherwise. */
export async function whoAmI(): Promise<Me | null> {
  if (!token) return null;
  keep(token);
  const { data } = await api.GET('/api/v1/users/me/');
  if (!data) return null;
  if (!data.is_staff && !data.is_admin) {
    endSession(STAFF_ONLY);
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
  const me = await whoAmI();
  return me ?? STAFF_ONLY;
}

/** The messages of an error body by field (`non_field_errors` and `detail` under '' ). */
export function fieldErrors(body: ErrorBody | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body) return { '': 'The service did not answer. Try again.' };
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

export function userName(user: { first_name: string; last_name: string; username: string }) {
  const full = `${user.first_name} ${user.last_name}`.trim();
  return full ? `${full} (${user.username})` : user.username;
}
