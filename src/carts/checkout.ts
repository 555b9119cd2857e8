import { randomUUID } from 'node:crypto';
import { formatMicros } from '../clock.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { iso, statement } from '../db/statement.js';
import type { Deps } from '../deps.js';
import { CheckoutInProgress, Invalid, NotFound } from '../errors.js';
import type { AppPublisher } from '../events/app-events.js';
import type { AuthUser } from '../http/auth.js';
import type { Caller } from '../upstream/client.js';
import { UpstreamFailure } from '../upstream/errors.js';
import type { OrderRequest } from '../upstream/types.js';
import {
  CHECKOUT_COLUMNS,
  type ClaimReleases,
  orderMayBePlaced,
  READ_CHECKOUT,
  type Released,
} from './claims.js';
import { checkoutRecord } from './queries.js';
import type { CheckoutRecord } from './schemas.js';

/**
 * Exactly-once checkout (docs/decisions/0001-exactly-once-checkout.md).
 *
 * 1. One statement claims the cart under a token of this attempt (`checkout_claim`,
 *    `checkout_started_at`) and adds the token to the cart's unsettled attempts, which
 *    freezes its lines. A second request while the claim is fresh gets 409; after a record
 *    exists, the record.
 * 2. The order goes upstream under an idempotency key derived from the cart, so a retry
 *    after a crash or a lost answer cannot place a second order.
 * 3. A second transaction stores the record, unless one exists (a concurrent attempt that
 *    took a stale claim over may have stored it first): only the attempt whose insert stored
 *    it publishes `cart.checked_out`. If the process dies before it, the claim goes stale
 *    and the next attempt repeats the same request and gets upstream's first answer.
 *
 * An attempt that fails releases its claim (src/carts/claims.ts), settling its token when it
 * surely placed nothing (`orderMayBePlaced`): the lines stay frozen only while an order may
 * have been placed. After an upstream failure `cart.checkout_failed` is published once the
 * claim is released, and the UpstreamFailure is thrown on (upstream's own 503 JSON is in it:
 * the route passes it through). Events resolve once every subscriber ran.
 */
export async function checkoutCart(
  deps: Deps,
  events: AppPublisher,
  releases: ClaimReleases,
  user: AuthUser,
  cartId: number,
  caller: Caller,
): Promise<CheckoutRecord> {
  const now = formatMicros(deps.clock.nowMicros());
  // A claim older than this is presumed dead and may be taken over. Should its attempt still
  // be running (waiting for the database, say), it cannot harm: it records only if no record
  // exists, publishes only what it recorded, and releases only its own token.
  const staleBefore = formatMicros(
    deps.clock.nowMicros() - staleAfterMicros(deps.config.upstreamTimeoutMs),
  );
  // Made here, not by the database: known even when the claim's commit outcome is not.
  const token = randomUUID();

  let claim: Awaited<ReturnType<typeof claimCart>>;
  try {
    claim = await claimCart(deps, user, cartId, now, staleBefore, token);
  } catch (error) {
    // The claim may have committed although its answer was lost: this attempt sent nothing.
    if (isDatabaseUnavailable(error)) {
      releases.later({ cartId, token, placedNothing: true, availabilityError: false });
    }
    throw error;
  }
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
    const release = {
      cartId,
      token,
      placedNothing: !orderMayBePlaced(error),
      availabilityError:
        error instanceof UpstreamFailure &&
        error.kind === 'unavailable' &&
        error.body !== undefined,
    };
    const failed = async (released: Released) => {
      if (released.state === 'released' && error instanceof UpstreamFailure) {
        await events.publish('cart.checkout_failed', {
          cart: { id: cartId, userId: cart.user_id },
          failure: error,
        });
      }
    };
    const released = await releases.release(release, failed);
    // Checked out meanwhile by an attempt that took the claim over: that is the answer.
    if (released.state === 'checked out') return released.record;
    await failed(released);
    // Pending (the database is unavailable): the upstream failure is this attempt's answer.
    throw error;
  }
  await deps.faults?.afterOrderPlaced?.(cartId);

  const finishedAt = formatMicros(deps.clock.nowMicros());
  const values = [cartId, finishedAt, answer.orderId, answer.orderNumber, answer.queued];
  let row: CheckoutRow & { added: boolean };
  try {
    [row] = await deps.database.run<CheckoutRow & { added: boolean }>(RECORD_CHECKOUT, values);
    // A record committed by a concurrent attempt after this statement's snapshot: read it now.
    if (!row) {
      const [found] = await deps.database.run<CheckoutRow>(READ_CHECKOUT, [cartId]);
      row = { ...found, added: false };
    }
  } catch (error) {
    // The order may be placed: the lines stay frozen, and the claim is dropped so that the
    // next attempt can record it at once (same key, upstream's first answer).
    await releases.release({ cartId, token, placedNothing: false, availabilityError: false });
    throw error;
  }
  const record = checkoutRecord(row);
  if (row.added) {
    await events.publish('cart.checked_out', {
      checkout: record,
      cart: {
        id: cartId,
        userId: cart.user_id,
        storeId: cart.store_id,
        cartsForRandomControl: cart.carts_for_random_control ?? 0,
      },
    });
  }
  return record;
}

/**
 * The claim, in one statement (drizzle/0012_checkout_claim.sql: the cart locked, then read
 * again after the lock): the record if there is one, else the claimed cart and its lines.
 * The function claims exactly when none of the answers below applies.
 */
async function claimCart(
  deps: Deps,
  user: AuthUser,
  cartId: number,
  now: string,
  staleBefore: string,
  token: string,
) {
  const [cart] = await deps.database.run<ClaimRow>(CLAIM_CART, [
    cartId,
    user.id,
    now,
    staleBefore,
    token,
  ]);
  if (!cart) throw new NotFound('cart');
  if (cart.record) return { record: checkoutRecord(cart.record), cart };
  if (cart.checked_out) throw new Error(`cart ${cartId} is checked out without a checkout record`);
  if (cart.in_progress) throw new CheckoutInProgress();
  if (cart.items_count === 0) throw Invalid.nonField('A cart with no items cannot be checked out.');
  if (!cart.claimed || !cart.lines) throw new Error(`cart ${cartId} was not claimed`);
  return { record: undefined, cart, lines: cart.lines };
}

interface ClaimRow {
  user_id: number;
  store_id: number | null;
  cart_created: string;
  customer_order_number: string;
  order_mark: string;
  reference: string | null;
  items_count: number;
  checked_out: boolean;
  /** Claimed by an attempt that is not yet presumed dead. */
  in_progress: boolean;
  gln: string | null;
  /** The store's, at the claim (null: no store). */
  carts_for_random_control: number | null;
  organization_id: string;
  record: CheckoutRow | null;
  claimed: boolean;
  lines: OrderRequest['lines'] | null;
}

type CheckoutRow = Parameters<typeof checkoutRecord>[0];

/** A write: the request goes on if its client leaves (an order may be placed after it). */
const CLAIM_CART = statement('select * from checkout_claim($1, $2, $3, $4, $5::uuid)', {
  unverifiedWrite: true,
});

/**
 * The record and the closed cart, in one statement (one verified transaction). The unique
 * cart_id makes a second record impossible; `added` says whether this statement stored it
 * (only then does the cart change, and only then is the checkout published). The outcome
 * is known now: no attempt is unsettled any more.
 */
const RECORD_CHECKOUT = statement(`with added as (
    insert into checkouts (cart_id, created, order_id, order_number, timed_out)
    values ($1, $2, $3, $4, $5)
    on conflict (cart_id) do nothing
    returning id, cart_id, created, order_id, order_number, timed_out
  ), closed as (
    update carts set checked_out = true, checkout_claim = null, checkout_started_at = null,
      checkout_unsettled = '{}', checkout_frozen = false, last_activity = $2
    where id = $1 and exists (select from added)
  )
  select true as added, id, cart_id, ${iso('created')} as created, order_id, order_number,
    timed_out
  from added
  union all
  select false, ${CHECKOUT_COLUMNS} from checkouts
  where cart_id = $1 and not exists (select from added)`);

/**
 * When a claim is presumed dead: the upstream part of an attempt (service login, the call,
 * the login again after a 401 and the repeated call: four exchanges, each bounded by the
 * timeout), plus slack. Database waits are not counted: a takeover while the first attempt
 * still records or releases is safe (see checkoutCart), only a repeated call upstream.
 */
export function staleAfterMicros(upstreamTimeoutMs: number): number {
  return (4 * upstreamTimeoutMs + 10_000) * 1000;
}
