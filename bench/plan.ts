import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createSigner } from 'fast-jwt';
import type { Plan } from './scenarios.js';
import { CUSTOMERS, cartOf, type Shape, STAFF_ID, storeGln } from './seed.js';

/** The services' signing key in the benchmark: the plan's tokens are signed with it. */
export const JWT_SECRET = 'bench-secret-bench-secret-bench-secret';

/**
 * The users, tokens and carts the scenarios draw from, for the seeded `shape` (bench/seed.ts
 * says which cart is whose without reading them back), written to bench/results/.
 */
export function writePlan(shape: Shape): { file: string; plan: Plan } {
  const sign = createSigner({ key: JWT_SECRET, algorithm: 'HS256' });
  const iat = Math.floor(Date.now() / 1000);
  const token = (id: number) =>
    sign({
      sub: String(id),
      username: `bench-${id}`,
      iat,
      exp: iat + 24 * 3600,
      orig_iat: iat,
      jti: randomUUID(),
    });
  const tokens: Record<string, string> = {};
  const customers: number[] = [];
  for (let id = 1; id <= CUSTOMERS; id++) {
    tokens[id] = token(id);
    customers.push(id);
  }
  const plan: Plan = {
    tokens,
    staffToken: token(STAFF_ID),
    customers,
    glns: Array.from({ length: shape.stores }, (_, s) => storeGln(s + 1)),
    anyCarts: [],
    itemCarts: [],
    checkoutCarts: [],
  };
  // Up to 20,000 carts per list, spread over the whole id range.
  const stride = Math.max(1, Math.floor(shape.scale / 20_000));
  // The carts to check out: up to 100,000 of the open ones (state 9: every tenth id), so that
  // no server runs out within its warm-up and timed run when several share them (a repeated
  // checkout answers the stored record: cheap, and not a checkout).
  const checkoutStep = 10 * Math.max(1, Math.floor(shape.scale / 1_000_000));
  for (let j = 9; j <= shape.scale && plan.checkoutCarts.length < 100_000; j += checkoutStep) {
    const cart = cartOf(j);
    if (cart.state === 9) plan.checkoutCarts.push([j, cart.userId]);
  }
  for (let i = 1; i <= shape.scale; i += stride) {
    // Ten carts after each step (fewer when the steps are shorter: no cart twice).
    for (let j = i; j < i + Math.min(10, stride) && j <= shape.scale; j++) {
      const cart = cartOf(j);
      if (j === i) plan.anyCarts.push([j, cart.userId, cart.existingPart]);
      if (cart.open && cart.state < 9) plan.itemCarts.push([j, cart.userId, cart.existingPart]);
    }
  }
  // Checkout scenario: distinct carts in random order.
  plan.checkoutCarts.sort(() => Math.random() - 0.5);
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/plan-${process.pid}.json`;
  writeFileSync(file, JSON.stringify(plan));
  return { file, plan };
}
