import { eq } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import { carts } from '../db/schema.js';
import { iso, statement } from '../db/statement.js';
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
  const now = formatMicros(deps.clock.nowMicros());
  // A claim older than this belongs to a request that can no longer be running.
  const staleBefore = formatMicros(
    deps.clock.nowMicros() - staleAfterMicros(deps.config.upstreamTimeoutMs),
  );

  const claim = await deps.database.transaction(async (run) => {
    const [cart] = await run<ClaimRow>(LOCK_CART, [cartId, user.id, staleBefore]);
    if (!cart) throw new NotFound('cart');
    if (cart.checkout_id !== null) {
      return { record: checkoutRecord({ ...cart, id: cart.checkout_id, cart_id: cartId }), cart };
    }
    if (cart.started_at !== null && cart.fresh) throw new CheckoutInProgress();
    if (cart.items_count === 0) {
      throw Invalid.nonField('A cart with no items cannot be checked out.');
    }
    const lines = await run<OrderRequest['lines'][number]>(CLAIM_CART, [cartId, now]);
    return { record: undefined, cart, lines };
  });
  if (claim.record) return claim.record;
  const { cart, lines } = claim;

  const order: OrderRequest = {
    channel: cart.store_id === null ? 'warehouse' : 'store',
    store_gln: cart.gln ?? null,
    organization_id: cart.organization_id,
    customer_order_number: cart.customer_order_number,
    order_mark: cart.order_mark,
    reference: cart.reference,
    lines,
  };
  // The cart's id and its creation instant (microseconds): unique even across wiped databases.
  const key = `cart-${cartId}-${cart.cart_created.replace(/\D/g, '')}`;

  let answer: Awaited<ReturnType<typeof deps.upstream.placeOrder>>;
  try {
    answer = await deps.upstream.placeOrder(caller, key, order);
  } catch (error) {
    await releaseClaim(deps, cartId, error, cart.frozen);
    if (error instanceof UpstreamFailure) {
      await events.publish('cart.checkout_failed', {
        cart: { id: cartId, userId: cart.user_id },
        failure: error,
      });
    }
    throw error;
  }
  await deps.faults?.afterOrderPlaced?.(cartId);

  const finishedAt = formatMicros(deps.clock.nowMicros());
  const values = [cartId, finishedAt, answer.orderId, answer.orderNumber, answer.queued];
  let [row] = await deps.database.run<CheckoutRow>(RECORD_CHECKOUT, values);
  // A record committed by a concurrent attempt after this statement's snapshot: read it now.
  if (!row) [row] = await deps.database.run<CheckoutRow>(READ_CHECKOUT, [cartId]);
  const record = checkoutRecord(row);
  await events.publish('cart.checked_out', {
    checkout: record,
    cart: { id: cartId, userId: cart.user_id, storeId: cart.store_id },
  });
  return record;
}

interface ClaimRow {
  user_id: number;
  store_id: number | null;
  cart_created: string;
  customer_order_number: string;
  order_mark: string;
  reference: string | null;
  items_count: number;
  started_at: string | null;
  frozen: boolean;
  fresh: boolean;
  gln: string | null;
  organization_id: string;
  checkout_id: number | null;
  created: string;
  order_id: string;
  order_number: string;
  timed_out: boolean;
}

type CheckoutRow = Parameters<typeof checkoutRecord>[0];

const CHECKOUT_COLUMNS = `id, cart_id, ${iso('created')} as created, order_id, order_number, timed_out`;

/** The owner's cart, locked, with what the order needs and its checkout record if any. */
const LOCK_CART = statement(`select c.user_id, c.store_id, c.created::text as cart_created,
    c.customer_order_number, c.order_mark, c.reference, c.items_count,
    c.checkout_started_at as started_at, c.checkout_frozen as frozen,
    c.checkout_started_at > $3::timestamptz as fresh, s.gln, o.organization_id,
    k.id as checkout_id, ${iso('k.created')} as created, k.order_id, k.order_number, k.timed_out
  from carts c
  left join stores s on s.id = c.store_id
  join organizations o on o.id = c.organization_id
  left join checkouts k on k.cart_id = c.id
  where c.id = $1 and c.user_id = $2
  for update of c`);

/**
 * Claims the locked cart and freezes its lines, answering them in byte order (whatever the
 * database's collation: the body under the key never changes). A statement of its own after
 * the lock, so that it sees every line committed before the lock was granted.
 */
const CLAIM_CART = statement(`with claimed as (
    update carts set checkout_started_at = $2, checkout_frozen = true where id = $1
  )
  select part_number, quantity from items where cart_id = $1 order by part_number collate "C"`);

/** The record and the closed cart, in one statement (one verified transaction). */
const RECORD_CHECKOUT = statement(`with added as (
    insert into checkouts (cart_id, created, order_id, order_number, timed_out)
    values ($1, $2, $3, $4, $5)
    on conflict (cart_id) do nothing
    returning id, cart_id, created, order_id, order_number, timed_out
  ), closed as (
    update carts set checked_out = true, checkout_started_at = null, last_activity = $2
    where id = $1
  )
  select id, cart_id, ${iso('created')} as created, order_id, order_number, timed_out from added
  union all
  select ${CHECKOUT_COLUMNS} from checkouts where cart_id = $1 and not exists (select from added)`);

const READ_CHECKOUT = statement(`select ${CHECKOUT_COLUMNS} from checkouts where cart_id = $1`);

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
