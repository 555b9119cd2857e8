import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { formatMicros } from '../clock.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { iso, statement } from '../db/statement.js';
import type { Deps } from '../deps.js';
import { CheckoutInProgress, Invalid, NotFound } from '../errors.js';
import type { AppPublisher } from '../events/app-events.js';
import { currentUser, writeWithCaller } from '../http/auth.js';
import { type ApiError, errors } from '../http/errors.js';
import { withSpan } from '../tracing/spans.js';
import type { Caller } from '../upstream/client.js';
import { UpstreamFailure } from '../upstream/errors.js';
import type { OrderRequest } from '../upstream/types.js';
import {
  CHECKOUT_COLUMNS,
  type ClaimReleases,
  orderMayBePlaced,
  orderPlacedUnreadable,
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
 * have been placed. An attempt whose order the ERP placed (201 or 202) with an answer that
 * cannot be stored checks the cart out unconfirmed instead (`uncertainOrder`): 502, and the
 * next attempt asks the ERP again under the same key. After an upstream failure
 * `cart.checkout_failed` is published once the claim is released, and the UpstreamFailure is
 * thrown on (upstream's own 503 JSON is in it: the route passes it through). Events resolve
 * once every subscriber ran.
 */
export async function checkoutCart(
  deps: Deps,
  events: AppPublisher,
  releases: ClaimReleases,
  request: FastifyRequest,
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
    claim = await withSpan('checkout claim', {}, () =>
      claimCart(deps, request, cartId, now, staleBefore, token),
    );
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
    if (orderPlacedUnreadable(error)) {
      return uncertainOrder(deps, events, releases, { cartId, userId: cart.user_id, token }, error);
    }
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
  const values = [cartId, finishedAt, answer.orderId, answer.orderNumber, answer.queued, token];
  let row: CheckoutRow & { added: boolean };
  try {
    row = await withSpan('checkout record', {}, () => recordCheckout(deps, cartId, token, values));
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
 * The function claims exactly when none of the answers below applies. Behind a pooler the
 * same call looks the caller up and claims only for a caller the service accepts (migration
 * 0023, `callerInRead`): one round trip less.
 */
async function claimCart(
  deps: Deps,
  request: FastifyRequest,
  cartId: number,
  now: string,
  staleBefore: string,
  token: string,
) {
  const withCaller = await writeWithCaller<ClaimAsRow>(request, deps.database, CLAIM_CART_AS, [
    cartId,
    now,
    staleBefore,
    token,
  ]);
  const cart = withCaller
    ? claimOf(withCaller.row)
    : (
        await deps.database.run<ClaimRow>(CLAIM_CART, [
          cartId,
          currentUser(request).id,
          now,
          staleBefore,
          token,
        ])
      )[0];
  if (!cart) throw new NotFound('cart');
  if (cart.record) return { record: checkoutRecord(cart.record), cart };
  if (cart.checked_out) throw new Error(`cart ${cartId} is checked out without a checkout record`);
  if (cart.in_progress) throw new CheckoutInProgress();
  if (cart.items_count === 0) throw Invalid.nonField('A cart with no items cannot be checked out.');
  if (!cart.claimed || !cart.lines) throw new Error(`cart ${cartId} was not claimed`);
  return { record: undefined, cart, lines: cart.lines };
}

/** The claim's columns of `checkout_claim_as` (the cart's reference renamed beside the user's). */
type ClaimAsRow = Omit<ClaimRow, 'user_id' | 'reference'> & {
  user_id: number | null;
  cart_reference: string | null;
};

/** The claim of a combined answer; none when the cart is not there or not the caller's. */
function claimOf({ cart_reference, user_id, ...rest }: ClaimAsRow): ClaimRow | undefined {
  return user_id === null ? undefined : { ...rest, user_id, reference: cart_reference };
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

/** Behind a pooler: the caller's id, username and session generation, then the cart's claim. */
const CLAIM_CART_AS = 'select * from checkout_claim_as($1, $2, $3, $4, $5, $6, $7::uuid)';

/**
 * The record, sent once, without a transaction of its own (issue 33: a verified commit cost
 * a round trip more on every checkout). The record names the attempt that stored it: when the
 * statement's answer is lost (or it was never sent), reading the record settles whether this
 * attempt stored it, and so whether it publishes the checkout. No record: the statement did
 * not commit, and the error is the answer (the claim is released, the retry records the same
 * order). A statement still running on a connection that gave no answer in time may commit
 * after that read: its record stands, and no attempt publishes it, as when a verified commit's
 * outcome stays unknown (decision 0001).
 */
async function recordCheckout(
  deps: Deps,
  cartId: number,
  token: string,
  values: unknown[],
): Promise<CheckoutRow & { added: boolean }> {
  /** The record as stored now, and whether this attempt stored it. */
  const settled = async () => {
    const [found] = await deps.database.run<CheckoutRow & { attempt: string | null }>(
      READ_CHECKOUT_ATTEMPT,
      [cartId],
    );
    if (!found) return undefined;
    const { attempt, ...record } = found;
    return { ...record, added: attempt === token };
  };
  let stored: (CheckoutRow & { added: boolean }) | undefined;
  try {
    [stored] = await deps.database.run<CheckoutRow & { added: boolean }>(RECORD_CHECKOUT, values);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    const found = await settled().catch(() => undefined);
    if (!found) throw error;
    return found;
  }
  // No row: a record committed by a concurrent attempt after this statement's snapshot.
  return stored ?? (await settled())!;
}

/** The record and the attempt that stored it. */
const READ_CHECKOUT_ATTEMPT = statement(
  `select ${CHECKOUT_COLUMNS}, attempt::text as attempt from checkouts where cart_id = $1`,
);

/**
 * The record and the closed cart, in one statement, sent once (recordCheckout). The unique
 * cart_id makes a second record impossible; `added` says whether this statement stored it
 * (only then does the cart change, and only then is the checkout published). The outcome
 * is known now: no attempt is unsettled any more.
 */
export const RECORD_CHECKOUT = statement(
  `with added as (
    insert into checkouts (cart_id, created, order_id, order_number, timed_out, attempt)
    values ($1, $2, $3, $4, $5, $6::uuid)
    on conflict (cart_id) do nothing
    returning id, cart_id, created, order_id, order_number, timed_out
  ), closed as (
    update carts set checked_out = true, checkout_claim = null, checkout_started_at = null,
      checkout_unsettled = '{}', checkout_frozen = false, last_activity = $2,
      checkout_unconfirmed_at = null
    where id = $1 and exists (select from added)
  )
  select true as added, id, cart_id, ${iso('created')} as created, order_id, order_number,
    timed_out
  from added
  union all
  select false, ${CHECKOUT_COLUMNS} from checkouts
  where cart_id = $1 and not exists (select from added)`,
  // Behind a pooler: its function (migration 0026, the same text), its plan kept.
  { unverifiedWrite: true, pooled: 'select * from checkout_record($1, $2, $3, $4, $5, $6)' },
);

/**
 * A checkout whose order the ERP placed (it answered 201 or 202) but whose answer cannot be
 * stored (src/upstream/client.ts, `placeOrder`). The cart is checked out unconfirmed, in one
 * statement: closed to item changes, its attempts settled (the outcome is known: the order
 * exists), `checkout_unconfirmed_at` set, and no record, since there is no order number to
 * put in one. The client gets 502 `upstream_error` saying so, `cart.checkout_failed` is
 * published; the next checkout asks the ERP again under the same key and records its answer
 * once it can be stored (docs/decisions/0001-exactly-once-checkout.md). A record stored
 * meanwhile by another attempt is the answer instead.
 */
async function uncertainOrder(
  deps: Deps,
  events: AppPublisher,
  releases: ClaimReleases,
  attempt: { cartId: number; userId: number; token: string },
  failure: UpstreamFailure,
): Promise<CheckoutRecord> {
  const { cartId, userId, token } = attempt;
  const now = formatMicros(deps.clock.nowMicros());
  let row: (CheckoutRow & { marked: boolean }) | undefined;
  try {
    [row] = await deps.database.run<CheckoutRow & { marked: boolean }>(MARK_UNCONFIRMED, [
      cartId,
      now,
      token,
    ]);
  } catch (error) {
    // As when a record fails: the order is placed, the lines stay frozen, the retry asks again.
    await releases.release({ cartId, token, placedNothing: false, availabilityError: false });
    throw error;
  }
  if (row && !row.marked) return checkoutRecord(row);
  const unconfirmed = new OrderUnconfirmed(failure);
  await events.publish('cart.checkout_failed', {
    cart: { id: cartId, userId },
    failure: unconfirmed,
  });
  throw unconfirmed;
}

/** The ERP placed the order and its answer cannot be stored: what the client is told. */
export class OrderUnconfirmed extends UpstreamFailure {
  constructor(failure: UpstreamFailure) {
    super(failure.kind, failure.route, failure.status, undefined, failure.cause);
  }

  override toApiError(): ApiError {
    return errors.upstreamError(
      'The ordering system accepted the order, but its answer could not be stored: the cart ' +
        'is checked out and its order number awaits confirmation. Check out again later to ' +
        'fetch it, or ask staff.',
    );
  }
}

/**
 * The cart checked out unconfirmed, unless it was checked out otherwise (a record stored by
 * another attempt: answered). The condition reads the cart row itself, so a record committed
 * while this statement waited for the row is seen. `last_activity` and the time are those of
 * the first such answer; only this attempt's claim is dropped.
 */
const MARK_UNCONFIRMED = statement(`with marked as (
    update carts set checked_out = true,
      last_activity = case when checkout_unconfirmed_at is null then $2 else last_activity end,
      checkout_unconfirmed_at = coalesce(checkout_unconfirmed_at, $2::timestamptz),
      checkout_claim = case when checkout_claim = $3::uuid then null else checkout_claim end,
      checkout_started_at =
        case when checkout_claim = $3::uuid then null else checkout_started_at end,
      checkout_unsettled = '{}', checkout_frozen = false
    where id = $1 and (not checked_out or checkout_unconfirmed_at is not null)
    returning id
  )
  select true as marked, null::int as id, null::int as cart_id, null as created,
    null as order_id, null as order_number, null::boolean as timed_out
  from marked
  union all
  select false, ${CHECKOUT_COLUMNS} from checkouts
  where cart_id = $1 and not exists (select from marked)`);

/**
 * When a claim is presumed dead: the upstream part of an attempt (service login, the call,
 * the login again after a 401 and the repeated call: four exchanges, each bounded by the
 * timeout), plus slack. Database waits are not counted: a takeover while the first attempt
 * still records or releases is safe (see checkoutCart), only a repeated call upstream.
 */
export function staleAfterMicros(upstreamTimeoutMs: number): number {
  return (4 * upstreamTimeoutMs + 10_000) * 1000;
}
