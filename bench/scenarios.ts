/**
 * The benchmark's scenarios: each a maker of one request, its user and cart drawn from the
 * plan run.ts wrote. bench/load.ts drives them with autocannon; bench/instructions.ts sends
 * them one at a time with a seeded random source, so that two runs send the same requests.
 */
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

export type Req = {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

/** A source of numbers in [0, 1): Math.random, or a seeded one (src/admin/demo-carts.ts). */
export type Random = () => number;

/**
 * Each scenario's request maker. `warmingUp`: the checkout takes its carts from the end of
 * the list, so that the timed run's are still open.
 */
export function scenarios(
  plan: Plan,
  { random = Math.random, warmingUp = false }: { random?: Random; warmingUp?: boolean } = {},
): Record<string, () => Req> {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const bearer = (token: string) => ({
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  });
  const customer = () => bearer(plan.tokens[pick(plan.customers)]!);
  const staff = bearer(plan.staffToken);
  /** A window of 180–365 days in the seeded years (two or more), cut at random times of day. */
  const range = () => {
    const day = 24 * 3600 * 1000;
    const end = Date.now() - random() * 365 * day;
    const start = end - (180 + random() * 185) * day;
    return `created_after=${new Date(start).toISOString()}&created_before=${new Date(end).toISOString()}`;
  };
  let nextCheckout = 0;
  let nextPart = 0;
  return {
    'GET carts/{id}/': () => {
      const [id, owner] = pick(plan.anyCarts);
      return { method: 'GET', path: `/api/v1/carts/${id}/`, headers: bearer(plan.tokens[owner]!) };
    },
    'POST items/': () => {
      const [cart, owner, existing] = pick(plan.itemCarts);
      // Half new lines (a part number never used before), half merges into an existing line.
      const part = random() < 0.5 ? `N-${process.pid}-${Date.now()}-${nextPart++}` : existing;
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
      const [id, owner] = plan.checkoutCarts[warmingUp ? n - 1 - at : at]!;
      return {
        method: 'PATCH',
        path: `/api/v1/carts/${id}/checkout/`,
        headers: bearer(plan.tokens[owner]!),
        body: '{}',
      };
    },
    'GET /healthz': () => ({ method: 'GET', path: '/healthz' }),
  };
}
