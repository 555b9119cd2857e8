import { expect } from 'vitest';
import { organizationsOf, PASSWORDS, type Session, type TestContext } from '../helpers/app.js';

/**
 * A fourth login for the permission matrix: the demo data has three users, and the
 * matrix needs a customer, another customer, a staff user and an admin.
 */
export async function loginStaff(ctx: TestContext, username = 'dora'): Promise<Session> {
  if (!ctx.sim.data.users.some((u) => u.username === username)) {
    const bruno = ctx.sim.data.users.find((u) => u.username === 'bruno')!;
    ctx.sim.data.users.push({
      ...bruno,
      username,
      password: `${username}-pass-2026`,
      email: `${username}@example.com`,
    });
    PASSWORDS[username] = `${username}-pass-2026`;
  }
  return ctx.loginAs(username, 'staff');
}

/** A cart of the session's first organization; `gln` null: the customer warehouse. */
export async function createCart(
  ctx: TestContext,
  session: Session,
  gln: string | null,
): Promise<number> {
  const [organization] = await organizationsOf(ctx, session.userId);
  const answer = await ctx.request('POST', '/api/v1/carts/', {
    token: session.token,
    body: { store: gln, organization, customer_order_number: 'PO-1', order_mark: '' },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id;
}

/** A cart with one line, checked out; answers the cart id. */
export async function checkedOutCart(
  ctx: TestContext,
  session: Session,
  gln: string | null,
): Promise<number> {
  const cart = await createCart(ctx, session, gln);
  const item = await ctx.request('POST', '/api/v1/items/', {
    token: session.token,
    body: { cart, part_number: 'P-1', quantity: 1 },
  });
  expect(item.status, item.text).toBe(201);
  const checkout = await ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
    token: session.token,
  });
  expect(checkout.status, checkout.text).toBe(200);
  expect(checkout.body.cart).toBe(cart);
  return cart;
}

/** The `controls` of the cart as the cart list shows it to the session. */
export async function controlsOfCart(
  ctx: TestContext,
  session: Session,
  cart: number,
): Promise<number[] | undefined> {
  const answer = await ctx.request('GET', '/api/v1/carts/?page_size=100', {
    token: session.token,
  });
  expect(answer.status, answer.text).toBe(200);
  const listed = (answer.body.results as { id: number; controls: number[] }[]).find(
    (c) => c.id === cart,
  );
  return listed?.controls;
}
