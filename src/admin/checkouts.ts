import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { Compile } from 'typebox/compile';
import { recordAudit } from '../audit/logic.js';
import { formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { carts, checkouts, stores, users } from '../db/schema.js';
import { UpstreamOrderSchema } from '../upstream/schemas.js';
import { AdminError } from './commands.js';

/**
 * Carts checked out unconfirmed: the ERP placed their order (201 or 202) but its answer could
 * not be stored (decision 0001). A checkout of the cart asks the ERP again; when the ERP keeps
 * answering so, the operator reads the order's id and number in the ERP and records them here.
 */
export interface UnconfirmedCart {
  cart: number;
  username: string;
  store: string | null;
  customerOrderNumber: string;
  unconfirmedSince: string;
}

export async function unconfirmedCarts(db: Db): Promise<UnconfirmedCart[]> {
  return db
    .select({
      cart: carts.id,
      username: users.username,
      store: stores.gln,
      customerOrderNumber: carts.customerOrderNumber,
      unconfirmedSince: carts.checkoutUnconfirmedAt,
    })
    .from(carts)
    .innerJoin(users, eq(users.id, carts.userId))
    .leftJoin(stores, eq(stores.id, carts.storeId))
    .where(isNotNull(carts.checkoutUnconfirmedAt))
    .orderBy(asc(carts.id)) as Promise<UnconfirmedCart[]>;
}

const orderCheck = Compile(UpstreamOrderSchema);

/**
 * Records the order of an unconfirmed cart as the ERP shows it: the Checkout record the
 * checkout could not store, and the cart confirmed, in one transaction with its audit event.
 * The values obey the bounds of an ERP answer (src/upstream/schemas.ts). No notification and
 * no random-control draw: those belong to a checkout the service served.
 */
export async function confirmCheckout(
  db: Db,
  input: { cart: number; orderId: string; orderNumber: string; queued: boolean },
  nowMicros: number,
): Promise<void> {
  const order = { order_id: input.orderId, order_number: input.orderNumber };
  if (
    !orderCheck.Check(order) ||
    !input.orderId.isWellFormed() ||
    !input.orderNumber.isWellFormed()
  ) {
    throw new AdminError(
      'order id and number must be one line of 1 to 255 characters without control characters',
    );
  }
  const now = formatMicros(nowMicros);
  await db.transaction(async (tx) => {
    const [cart] = await tx
      .select({ id: carts.id, userId: carts.userId, storeId: carts.storeId })
      .from(carts)
      .where(and(eq(carts.id, input.cart), isNotNull(carts.checkoutUnconfirmedAt)))
      .for('update');
    if (!cart) {
      throw new AdminError(
        `cart ${input.cart} is not checked out unconfirmed (see checkouts unconfirmed)`,
      );
    }
    const [record] = await tx
      .insert(checkouts)
      .values({
        cartId: cart.id,
        created: now,
        orderId: input.orderId,
        orderNumber: input.orderNumber,
        timedOut: input.queued,
      })
      .returning({ id: checkouts.id });
    await tx
      .update(carts)
      .set({
        checkoutUnconfirmedAt: null,
        checkoutClaim: null,
        checkoutStartedAt: null,
        checkoutUnsettled: [],
        checkoutFrozen: false,
      })
      .where(eq(carts.id, cart.id));
    await recordAudit(
      tx,
      {
        kind: 'checkout.confirmed',
        via: 'admin-command',
        storeId: cart.storeId,
        userId: cart.userId,
        objectId: cart.id,
        after: { checkout: record.id, ...order, timed_out: input.queued },
      },
      nowMicros,
    );
  });
}
