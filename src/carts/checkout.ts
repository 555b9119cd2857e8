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
 * 1. A short transaction claims the cart under a token of this attempt (`checkout_claim`,
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
      cart: { id: cartId, userId: cart.user_id, storeId: cart.store_id },
    });
  }
  return record;
}

/** The claim transaction: the record if there is one, else the claimed cart and its lines. */
function claimCart(
  deps: Deps,
  user: AuthUser,
  cartId: number,
  now: string,
  staleBefore: string,
  token: string,
) {
  return deps.database.transaction(async (run) => {
    const [cart] = await run<ClaimRow>(LOCK_CART, [cartId, user.id, staleBefore]);
    if (!cart) throw new NotFound('cart');
    if (cart.checkout_id !== null) {
      return { record: checkoutRecord({ ...cart, id: cart.checkout_id, cart_id: cartId }), cart };
    }
    if (cart.checked_out) {
      // Recorded by an attempt whose transaction held the lock this statement waited for:
      // the locked row is its latest version, the joined record was read from the snapshot
      // taken before the wait. A statement of its own sees it.
      const [record] = await run<CheckoutRow>(READ_CHECKOUT, [cartId]);
      if (record) return { record: checkoutRecord(record), cart };
      throw new Error(`cart ${cartId} is checked out without a checkout record`);
    }
    if (cart.started_at !== null && cart.fresh) throw new CheckoutInProgress();
    if (cart.items_count === 0) {
      throw Invalid.nonField('A cart with no items cannot be checked out.');
    }
    const lines = await run<OrderRequest['lines'][number]>(CLAIM_CART, [cartId, now, token]);
    return { record: undefined, cart, lines };
  });
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
  started_at: string | null;
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

/**
 * The owner's cart, locked, with what the order needs and its checkout record if any. After
 * a wait for the lock, `c` is the row's latest version but the joined record is read from
 * the statement's snapshot, taken before the wait: `checked_out` without a record means one
 * was committed meanwhile (see claimCart).
 */
const LOCK_CART = statement(`select c.user_id, c.store_id, c.created::text as cart_created,
    c.customer_order_number, c.order_mark, c.reference, c.items_count, c.checked_out,
    c.checkout_started_at as started_at,
    c.checkout_started_at > $3::timestamptz as fresh, s.gln, o.organization_id,
    k.id as checkout_id, ${iso('k.created')} as created, k.order_id, k.order_number, k.timed_out
  from carts c
  left join stores s on s.id = c.store_id
  join organizations o on o.id = c.organization_id
  left join checkouts k on k.cart_id = c.id
  where c.id = $1 and c.user_id = $2
  for update of c`);

/**
 * Claims the locked cart under this attempt's token ($3) and adds the token to the unsettled
 * attempts, which freezes the lines; answers them in byte order (whatever the database's
 * collation: the body under the key never changes). A statement of its own after the lock,
 * so that it sees every line committed before the lock was granted. A cart frozen before
 * attempts had tokens keeps a placeholder token (nil UUID): its outcome is still unknown.
 */
const CLAIM_CART = statement(`with claimed as (
    update carts set checkout_started_at = $2, checkout_claim = $3::uuid,
      checkout_unsettled = case when checkout_frozen and cardinality(checkout_unsettled) = 0
        then array['00000000-0000-0000-0000-000000000000'::uuid, $3::uuid]
        else array_append(checkout_unsettled, $3::uuid) end,
      checkout_frozen = true
    where id = $1
  )
  select part_number, quantity from items where cart_id = $1 order by part_number collate "C"`);

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
