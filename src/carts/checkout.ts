import { and, asc, eq, sql } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import { carts, checkouts, items, organizations, stores } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { CheckoutInProgress, Invalid, NotFound } from '../errors.js';
import type { AppPublisher } from '../events/app-events.js';
import type { AuthUser } from '../http/auth.js';
import type { Caller } from '../upstream/client.js';
import { UpstreamFailure } from '../upstream/errors.js';
import type { OrderRequest } from '../upstream/types.js';
import { checkoutRecord } from './queries.js';
import type { CheckoutRecord } from './schemas.js';

/**
 * Exactly-once checkout (docs/decisions/0001-exactly-once-checkout.md).
 *
 * 1. A short transaction claims the cart (`checkout_started_at`) and freezes its items.
 *    A second request while the claim is fresh gets 409; after a record exists, the record.
 * 2. The order goes upstream under an idempotency key derived from the cart, so a retry
 *    after a crash or a lost answer cannot place a second order.
 * 3. A second transaction stores the record. If the process dies before it, the claim goes
 *    stale and the next attempt repeats the same request and gets upstream's first answer.
 *
 * After the record commits, `cart.checked_out` is published (the random-control draw and
 * the notification subscribe to it); after an attempt failed upstream and its claim was
 * released, `cart.checkout_failed`, and the UpstreamFailure is thrown on (upstream's own
 * 503 JSON is in it: the route passes it through). Both resolve once every subscriber ran.
 */
export async function checkoutCart(
  deps: Deps,
  events: AppPublisher,
  user: AuthUser,
  cartId: number,
  caller: Caller,
): Promise<CheckoutRecord> {
  const { db } = deps.database;
  const now = formatMicros(deps.clock.nowMicros());
  // A claim older than this belongs to a request that can no longer be running.
  const staleBefore = formatMicros(
    deps.clock.nowMicros() - staleAfterMicros(deps.config.upstreamTimeoutMs),
  );

  const claim = await db.transaction(async (tx) => {
    const [cart] = await tx
      .select({
        id: carts.id,
        userId: carts.userId,
        storeId: carts.storeId,
        created: carts.created,
        customerOrderNumber: carts.customerOrderNumber,
        orderMark: carts.orderMark,
        reference: carts.reference,
        itemsCount: carts.itemsCount,
        startedAt: carts.checkoutStartedAt,
        frozen: carts.checkoutFrozen,
        fresh: sql<boolean>`${carts.checkoutStartedAt} > ${staleBefore}::timestamptz`,
        gln: stores.gln,
        organizationId: organizations.organizationId,
      })
      .from(carts)
      .leftJoin(stores, eq(stores.id, carts.storeId))
      .innerJoin(organizations, eq(organizations.id, carts.organizationId))
      // Only the owner checks a cart out (as only the owner changes its lines).
      .where(and(eq(carts.id, cartId), eq(carts.userId, user.id)))
      .for('update', { of: carts });
    if (!cart) throw new NotFound('cart');
    const [done] = await tx.select().from(checkouts).where(eq(checkouts.cartId, cartId));
    if (done) return { record: checkoutRecord(done), cart, lines: [] };
    if (cart.startedAt !== null && cart.fresh) throw new CheckoutInProgress();
    if (cart.itemsCount === 0) {
      throw Invalid.nonField('A cart with no items cannot be checked out.');
    }
    await tx
      .update(carts)
      .set({ checkoutStartedAt: now, checkoutFrozen: true })
      .where(eq(carts.id, cartId));
    const lines = await tx
      .select({ part_number: items.partNumber, quantity: items.quantity })
      .from(items)
      .where(eq(items.cartId, cartId))
      // Byte order, whatever the database's collation: the body under the key never changes.
      .orderBy(asc(sql`${items.partNumber} collate "C"`));
    return { record: undefined, cart, lines };
  });
  if (claim.record) return claim.record;
  const { cart, lines } = claim;

  const order: OrderRequest = {
    channel: cart.storeId === null ? 'warehouse' : 'store',
    store_gln: cart.gln ?? null,
    organization_id: cart.organizationId,
    customer_order_number: cart.customerOrderNumber,
    order_mark: cart.orderMark,
    reference: cart.reference,
    lines,
  };
  // The cart's id and its creation instant (microseconds): unique even across wiped databases.
  const key = `cart-${cart.id}-${cart.created.replace(/\D/g, '')}`;

  let answer: Awaited<ReturnType<typeof deps.upstream.placeOrder>>;
  try {
    answer = await deps.upstream.placeOrder(caller, key, order);
  } catch (error) {
    await releaseClaim(deps, cartId, error, cart.frozen);
    if (error instanceof UpstreamFailure) {
      await events.publish('cart.checkout_failed', {
        cart: { id: cartId, userId: cart.userId },
        failure: error,
      });
    }
    throw error;
  }
  await deps.faults?.afterOrderPlaced?.(cartId);

  const finishedAt = formatMicros(deps.clock.nowMicros());
  const record = await db.transaction(async (tx) => {
    await tx
      .insert(checkouts)
      .values({
        cartId,
        created: finishedAt,
        orderId: answer.orderId,
        orderNumber: answer.orderNumber,
        timedOut: answer.queued,
      })
      .onConflictDoNothing({ target: checkouts.cartId });
    await tx
      .update(carts)
      .set({ checkedOut: true, checkoutStartedAt: null, lastActivity: finishedAt })
      .where(eq(carts.id, cartId));
    const [row] = await tx.select().from(checkouts).where(eq(checkouts.cartId, cartId));
    return checkoutRecord(row!);
  });
  await events.publish('cart.checked_out', {
    checkout: record,
    cart: { id: cartId, userId: cart.userId, storeId: cart.storeId },
  });
  return record;
}

/**
 * After a failed attempt the claim is dropped. Items stay frozen unless upstream surely
 * placed nothing under the key (its 503, a refused connection, a refused token, a timeout
 * while the order still waited for a connection, so was never sent; and no earlier attempt
 * that may have placed it): otherwise a retry must send the same lines under the same key.
 * `wasFrozen`: the items were already frozen by an earlier attempt whose outcome is
 * unknown (a timeout, an unusable answer, a crash); this attempt's failure says nothing
 * about that one.
 */
async function releaseClaim(
  deps: Deps,
  cartId: number,
  error: unknown,
  wasFrozen: boolean,
): Promise<void> {
  const placedNothing =
    !wasFrozen &&
    error instanceof UpstreamFailure &&
    (error.kind === 'unavailable' ||
      error.kind === 'token_not_valid' ||
      (error.kind === 'timeout' && error.phase === 'queued'));
  const availabilityError =
    error instanceof UpstreamFailure && error.kind === 'unavailable' && error.body !== undefined;
  const now = formatMicros(deps.clock.nowMicros());
  await deps.database.db
    .update(carts)
    .set({
      checkoutStartedAt: null,
      ...(placedNothing ? { checkoutFrozen: false } : {}),
      ...(availabilityError
        ? { checkoutAvailabilityError: true, checkoutAvailabilityErrorAt: now }
        : {}),
    })
    .where(eq(carts.id, cartId));
}

/**
 * Longest a live attempt can take: service login, the call, the login again after a 401
 * and the repeated call (four upstream exchanges, each bounded by the timeout), plus slack.
 */
export function staleAfterMicros(upstreamTimeoutMs: number): number {
  return (4 * upstreamTimeoutMs + 10_000) * 1000;
}
