/**
 * One scenario of load, in its own process (never in a server's event loop):
 * `tsx bench/load.ts <base url> <scenario> <plan.json>`; BENCH_SECONDS, BENCH_CONNECTIONS,
 * BENCH_WARMING_UP, BENCH_CHECKOUT_SHARE.
 * Each request draws its user and cart from the plan run.ts wrote; prints the figures as JSON.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Plan {
  /** Token by user id. */
  tokens: Record<string, string>;
  staffToken: string;
  customers: number[];
  glns: string[];
  /** Cart id and owner. */
  anyCarts: [number, number, string][];
  itemCarts: [number, number, string][];
  checkoutCarts: [number, number][];
}

const [base, scenario, planFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile!, 'utf8')) as Plan;
// BENCH_CHECKOUT_SHARE=k/n: this server's carts to check out, every n-th from the k-th.
const [shareOf, shares] = (process.env.BENCH_CHECKOUT_SHARE ?? '0/1').split('/').map(Number);
plan.checkoutCarts = plan.checkoutCarts.filter((_, i) => i % shares! === shareOf);
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
const bearer = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});
const customer = () => bearer(plan.tokens[pick(plan.customers)]!);
const staff = bearer(plan.staffToken);

/** A window of 180–365 days in the seeded years (two or more), cut at random times of day. */
const range = () => {
  const day = 24 * 3600 * 1000;
  const end = Date.now() - Math.random() * 365 * day;
  const start = end - (180 + Math.random() * 185) * day;
  return `created_after=${new Date(start).toISOString()}&created_before=${new Date(end).toISOString()}`;
};

type Req = { method: 'GET' | 'POST' | 'PATCH'; path: string; headers?: object; body?: string };
let nextCheckout = 0;
const WARMING_UP = process.env.BENCH_WARMING_UP === '1';
let nextPart = 0;

const scenarios: Record<string, () => Req> = {
  'GET carts/{id}/': () => {
    const [id, owner] = pick(plan.anyCarts);
    return { method: 'GET', path: `/api/v1/carts/${id}/`, headers: bearer(plan.tokens[owner]!) };
  },
  'POST items/': () => {
    const [cart, owner, existing] = pick(plan.itemCarts);
    // Half new lines (a part number never used before), half merges into an existing line.
    const part = Math.random() < 0.5 ? `N-${process.pid}-${Date.now()}-${nextPart++}` : existing;
    return {
      method: 'POST',
      path: '/api/v1/items/',
      headers: bearer(plan.tokens[owner]!),
      body: JSON.stringify({ cart, part_number: part, quantity: 1 }),
    };
  },
  'GET carts/ (customer)': () => ({ method: 'GET', path: '/api/v1/carts/', headers: customer() }),
  'GET carts/ (staff)': () => ({ method: 'GET', path: '/api/v1/carts/', headers: staff }),
  'GET carts/?gln= (staff)': () => ({
    method: 'GET',
    path: `/api/v1/carts/?gln=${pick(plan.glns)}`,
    headers: staff,
  }),
  'carts/stats/ (customer)': () => ({
    method: 'GET',
    path: '/api/v1/carts/stats/',
    headers: customer(),
  }),
  'carts/stats/ (staff)': () => ({ method: 'GET', path: '/api/v1/carts/stats/', headers: staff }),
  'carts/time-series/?interval=D (customer)': () => ({
    method: 'GET',
    path: '/api/v1/carts/time-series/?interval=D',
    headers: customer(),
  }),
  'carts/time-series/?interval=D (staff)': () => ({
    method: 'GET',
    path: '/api/v1/carts/time-series/?interval=D',
    headers: staff,
  }),
  'carts/stats/?gln= (staff)': () => ({
    method: 'GET',
    path: `/api/v1/carts/stats/?gln=${pick(plan.glns)}`,
    headers: staff,
  }),
  'carts/stats/?created_after=&created_before= (staff)': () => ({
    method: 'GET',
    path: `/api/v1/carts/stats/?${range()}`,
    headers: staff,
  }),
  'carts/time-series/?interval=D&gln= (staff)': () => ({
    method: 'GET',
    path: `/api/v1/carts/time-series/?interval=D&gln=${pick(plan.glns)}`,
    headers: staff,
  }),
  'carts/time-series/?interval=D&created_after=&created_before= (staff)': () => ({
    method: 'GET',
    path: `/api/v1/carts/time-series/?interval=D&${range()}`,
    headers: staff,
  }),
  'GET carts/?created_after=&created_before= (staff)': () => ({
    method: 'GET',
    path: `/api/v1/carts/?${range()}`,
    headers: staff,
  }),
  'carts/time-series/?interval=M (staff)': () => ({
    method: 'GET',
    path: '/api/v1/carts/time-series/?interval=M',
    headers: staff,
  }),
  'carts/time-series/?interval=M&gln= (staff)': () => ({
    method: 'GET',
    path: `/api/v1/carts/time-series/?interval=M&gln=${pick(plan.glns)}`,
    headers: staff,
  }),
  'carts/time-series/?interval=M&created_after=&created_before= (staff)': () => ({
    method: 'GET',
    path: `/api/v1/carts/time-series/?interval=M&${range()}`,
    headers: staff,
  }),
  'PATCH carts/{id}/checkout/': () => {
    // Distinct open carts, in turn (a wrap-around repeats a checkout: it answers the record);
    // the warm-up's from the end of the list, so the timed run's are still open.
    const n = plan.checkoutCarts.length;
    const at = nextCheckout++ % n;
    const [id, owner] = plan.checkoutCarts[WARMING_UP ? n - 1 - at : at]!;
    return {
      method: 'PATCH',
      path: `/api/v1/carts/${id}/checkout/`,
      headers: bearer(plan.tokens[owner]!),
      body: '{}',
    };
  },
  'GET /healthz': () => ({ method: 'GET', path: '/healthz' }),
};

const make = scenarios[scenario!];
if (!make) throw new Error(`unknown scenario ${scenario}`);
/** 503 answers without `Retry-After` (the overload runs count them). */
let unavailableWithoutRetryAfter = 0;
const result = await autocannon({
  url: base!,
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  duration: Number(process.env.BENCH_SECONDS ?? 10),
  // A naive floor over a million carts takes seconds per answer: slow, not failed. The
  // overload runs set the bound a request must answer within (BENCH_TIMEOUT_SECONDS).
  timeout: Number(process.env.BENCH_TIMEOUT_SECONDS ?? 60),
  requests: [
    {
      // biome-ignore lint/suspicious/noExplicitAny: autocannon's request type is loose.
      setupRequest: (request: any) => ({ ...request, ...make() }),
      onResponse: (status: number, _body: unknown, _context: unknown, headers?: object) => {
        if (status !== 503) return;
        const names = Object.keys(headers ?? {}).map((name) => name.toLowerCase());
        if (!names.includes('retry-after')) unavailableWithoutRetryAfter++;
      },
    },
  ],
});
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    unavailableWithoutRetryAfter,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count]),
    ),
  })}\n`,
);
