import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { memberships, organizations, stores } from '../../src/db/schema.js';
import { usersContext } from '../../src/users/context.js';
import { type Answer, PASSWORDS, type Session, type TestContext } from './app.js';

/**
 * The data tests make through the service (carts, items, checkouts) or put in place
 * around it (stores, simulator users), written once for every test file.
 */

/** A store row for tests (the admin command is tested on its own). */
export async function createStore(
  ctx: TestContext,
  gln: string,
  fields: { name?: string; activePeriodSeconds?: number; cartsForRandomControl?: number } = {},
): Promise<number> {
  const [row] = await ctx.database.db
    .insert(stores)
    .values({
      gln,
      name: fields.name ?? `Store ${gln}`,
      activePeriodSeconds: fields.activePeriodSeconds ?? 7200,
      cartsForRandomControl: fields.cartsForRandomControl ?? 0,
      created: '2026-01-01T00:00:00.000001Z',
    })
    .returning({ id: stores.id });
  return row.id;
}

/** The organization_ids the user is a member of (after login). */
export async function organizationsOf(ctx: TestContext, userId: number): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ id: organizations.organizationId })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(organizations.organizationId);
  return rows.map((r) => r.id);
}

export type SimUser = TestContext['sim']['data']['users'][number];

/**
 * A user the demo data lacks, added to the simulator so the service can log them in: a copy
 * of the simulator's user `like` (default bruno) with `fields` over it, the password
 * `<username>-pass-2026` unless given (also set in PASSWORDS, for `ctx.login`).
 */
export function addSimUser(
  ctx: TestContext,
  username: string,
  { like = 'bruno', ...fields }: Partial<SimUser> & { like?: string } = {},
): SimUser {
  const template = ctx.sim.data.users.find((u) => u.username === like);
  if (!template) throw new Error(`no simulator user ${like}`);
  const user: SimUser = {
    ...structuredClone(template),
    username,
    password: `${username}-pass-2026`,
    ...fields,
  };
  ctx.sim.data.users.push(user);
  PASSWORDS[username] = user.password;
  return user;
}

/**
 * A fourth login for the permission matrices: the demo data has three users, and a matrix
 * needs a customer, another customer, a staff user and an admin. The user is a copy of
 * bruno, added once.
 */
export async function loginStaff(ctx: TestContext, username = 'dora'): Promise<Session> {
  if (!ctx.sim.data.users.some((u) => u.username === username)) {
    addSimUser(ctx, username, { email: `${username}@example.com` });
  }
  return ctx.loginAs(username, 'staff');
}

/**
 * The body of POST carts/ over its defaults: `organization`, the session's first;
 * `customer_order_number` 'PO-1'; `order_mark` ''. A field left undefined is not sent:
 * `store` unset is omitted, `store: null` is sent as null (both: the customer warehouse).
 */
export interface CartFields {
  store?: string | null;
  organization?: string;
  customer_order_number?: string;
  order_mark?: string;
  reference?: string | null;
}

/** The cart as POST carts/ answers it (the creation form). */
export interface CreatedCart {
  id: number;
  created: string;
  store: string | null;
  organization: string;
  customer_order_number: string;
  order_mark: string;
  reference: string | null;
}

/** POST carts/ as the session, asserting 201: the created cart. */
export async function createCartBody(
  ctx: TestContext,
  session: Session,
  fields: CartFields = {},
): Promise<CreatedCart> {
  const organization = fields.organization ?? (await organizationsOf(ctx, session.userId))[0];
  const answer = await ctx.request('POST', '/api/v1/carts/', {
    token: session.token,
    body: { customer_order_number: 'PO-1', order_mark: '', ...fields, organization },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

/** POST carts/ as the session, asserting 201: the cart's id. */
export async function createCart(
  ctx: TestContext,
  session: Session,
  fields: CartFields = {},
): Promise<number> {
  return (await createCartBody(ctx, session, fields)).id;
}

/** POST items/ as the session: the answer, whatever it is. */
export function postItem(
  ctx: TestContext,
  session: Session,
  cart: number,
  partNumber = 'P-1',
  quantity = 1,
): Promise<Answer> {
  return ctx.request('POST', '/api/v1/items/', {
    token: session.token,
    body: { cart, part_number: partNumber, quantity },
  });
}

/** POST items/ as the session, asserting 201: the line (merged with one of the part, if any). */
export async function addItem(
  ctx: TestContext,
  session: Session,
  cart: number,
  partNumber = 'P-1',
  quantity = 1,
): Promise<{ id: number; cart: number; part_number: string; quantity: number }> {
  const answer = await postItem(ctx, session, cart, partNumber, quantity);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

/** A line: `[part_number, quantity]`. */
export type Line = [string, number];

/** A cart (as createCart makes it) with its lines, each POST items/ asserted 201: its id. */
export async function cartWith(
  ctx: TestContext,
  session: Session,
  fields: CartFields = {},
  lines: Line[] = [['P-1', 1]],
): Promise<number> {
  const cart = await createCart(ctx, session, fields);
  for (const [partNumber, quantity] of lines)
    await addItem(ctx, session, cart, partNumber, quantity);
  return cart;
}

/** PATCH carts/{id}/checkout/ as the session: the answer, whatever it is. */
export function checkout(
  ctx: TestContext,
  session: Session,
  cart: number,
  headers?: Record<string, string>,
): Promise<Answer> {
  return ctx.request('PATCH', `/api/v1/carts/${cart}/checkout/`, {
    token: session.token,
    headers,
  });
}

/** A cart with its lines (default one P-1), checked out, asserting 200: its id. */
export async function checkedOutCart(
  ctx: TestContext,
  session: Session,
  fields: CartFields = {},
  lines?: Line[],
): Promise<number> {
  const cart = await cartWith(ctx, session, fields, lines);
  const done = await checkout(ctx, session, cart);
  expect(done.status, done.text).toBe(200);
  expect(done.body.cart).toBe(cart);
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

/** Resolves once the restore requests' background work (look-up, code, mail) is done. */
export function restoreJobsDone(ctx: TestContext): Promise<void> {
  return usersContext(ctx.app).jobs.idle();
}
