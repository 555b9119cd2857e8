import type { FastifyBaseLogger } from 'fastify';
import { formatMicros } from '../clock.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { iso, statement } from '../db/statement.js';
import type { Deps } from '../deps.js';
import { UnstorableOrderAnswer, UpstreamFailure } from '../upstream/errors.js';
import { checkoutRecord } from './queries.js';
import type { CheckoutRecord } from './schemas.js';

/**
 * The end of a checkout attempt that recorded nothing: its claim on the cart is dropped
 * (only if it still holds it: a later attempt may have taken a stale claim over), and its
 * token leaves the cart's unsettled attempts when it surely placed nothing. The lines stay
 * frozen while any attempt that may have placed the order is unsettled
 * (docs/decisions/0001-exactly-once-checkout.md).
 */
export interface Release {
  cartId: number;
  /** The attempt's claim token. */
  token: string;
  /** The attempt surely placed no order (see `orderMayBePlaced`). */
  placedNothing: boolean;
  /** Upstream answered its own 503 JSON: the cart is flagged (`checkout_availability_error`). */
  availabilityError: boolean;
}

/**
 * What the release found: the attempt is settled, or the cart was checked out meanwhile by
 * another attempt (its record is the truth about the cart), or the database was unavailable
 * and the release goes on in the background.
 */
export type Released =
  | { state: 'released' }
  | { state: 'checked out'; record: CheckoutRecord }
  | { state: 'pending' };

/**
 * Whether an order may have been placed by an attempt that failed with `error`, per failure
 * kind (docs/erp-contract.md, docs/decisions/0001):
 * - any failure of the service-account login (`auth.token`: 5xx, HTML, malformed JSON,
 *   timeout, refused connection, refused credentials): the order was not sent, or it was
 *   sent and answered 401 (refused, nothing placed) before the login again;
 * - the order's own answers: a 503 with JSON (upstream: "nothing was placed"), a 401 (the
 *   token refused), a refused connection (never sent), a timeout while still waiting for a
 *   connection (never sent);
 * - everything else may have placed it: a timeout after sending, a cut connection, an HTML
 *   or other 5xx (a gateway in front of upstream may have passed the order on), an unusable
 *   2xx, a 409 (the key already holds an order), an error that is not an upstream failure.
 */
export function orderMayBePlaced(error: unknown): boolean {
  if (!(error instanceof UpstreamFailure)) return true;
  if (error.route !== 'orders') return false;
  switch (error.kind) {
    case 'unavailable':
    case 'token_not_valid':
      return false;
    case 'timeout':
      return error.phase !== 'queued';
    default:
      return error.status !== 401;
  }
}

/**
 * Whether the ERP answered that it placed the order (201 or 202) with a whole JSON answer
 * whose order id or number cannot be stored (src/upstream/client.ts, `placeOrder`): the
 * order exists, its id and number are not known here. The cart is then checked out
 * unconfirmed (decision 0001). A cut or non-JSON 201 is not this: the lines stay frozen.
 */
export function orderPlacedUnreadable(error: unknown): error is UnstorableOrderAnswer {
  return error instanceof UnstorableOrderAnswer;
}

/**
 * Background release retries: first after this, doubling up to the cap. While a claim waits
 * for its release, the cart's checkout answers 409: the cap bounds how long that lasts once
 * the database is back (a planned switchover's writes fail for 5 s at most: docs/operations.md
 * "The database fails over"; at 2 s the releases' tail once took that window to 5.2 s).
 */
export const FIRST_RETRY_MS = 100;
export const MAX_RETRY_MS = 500;
/** At most this many releases wait for the database at once (one timer each). */
const MAX_PENDING = 10_000;

/**
 * Releases claims. A release that fails because the database is unavailable is retried in
 * the background until it lands (or the app closes): the claim is then claimable at once,
 * rather than only once it has gone stale, and lines the attempt surely did not send are
 * unfrozen. Retrying is safe at any time: the release only touches its own token.
 */
export class ClaimReleases {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly deps: Pick<Deps, 'database' | 'clock'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>,
  ) {}

  /** Releases in the background now (a claim whose commit outcome is unknown, say). */
  later(release: Release, then?: (released: Released) => Promise<void>): void {
    this.retry(release, then, FIRST_RETRY_MS);
  }

  /**
   * Releases now; when the database is unavailable, answers `pending` and keeps trying in
   * the background, then runs `then` with what the release found.
   */
  async release(release: Release, then?: (released: Released) => Promise<void>): Promise<Released> {
    try {
      return await this.attempt(release);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.log.warn(
        { cart: release.cartId, err: { message: (error as Error).message } },
        'checkout claim not released (database unavailable): retrying in the background',
      );
      this.retry(release, then, FIRST_RETRY_MS);
      return { state: 'pending' };
    }
  }

  /** Pending releases (for tests and metrics). */
  get pending(): number {
    return this.timers.size;
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private retry(
    release: Release,
    then: ((released: Released) => Promise<void>) | undefined,
    delayMs: number,
  ): void {
    if (this.closed) return;
    if (this.timers.size >= MAX_PENDING) {
      this.log.error(
        { cart: release.cartId },
        'checkout claim not released: too many pending; it goes stale, its lines stay frozen',
      );
      return;
    }
    const timer = setTimeout(async () => {
      this.timers.delete(timer);
      let released: Released;
      try {
        released = await this.attempt(release);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          this.log.error({ cart: release.cartId, err: error }, 'checkout claim not released');
          return;
        }
        this.retry(release, then, Math.min(delayMs * 2, MAX_RETRY_MS));
        return;
      }
      this.log.info({ cart: release.cartId }, 'checkout claim released after a database outage');
      await then?.(released);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(release: Release): Promise<Released> {
    const { cartId, token, placedNothing, availabilityError } = release;
    const now = formatMicros(this.deps.clock.nowMicros());
    const run = this.deps.database.run;
    const values = [cartId, token, placedNothing, availabilityError, now];
    const [row] = await run<ReleaseRow>(RELEASE_CLAIM, values);
    if (row?.released) return { state: 'released' };
    // A record committed after that statement's snapshot is read by a statement of its own.
    const [record] = row ? [row] : await run<RecordRow>(READ_CHECKOUT, [cartId]);
    if (record) return { state: 'checked out', record: checkoutRecord(record) };
    // The attempt's token is not on the cart: its claim never committed. Nothing to undo.
    return { state: 'released' };
  }
}

type RecordRow = Parameters<typeof checkoutRecord>[0];
type ReleaseRow = RecordRow & { released: boolean };

export const CHECKOUT_COLUMNS = `id, cart_id, ${iso('created')} as created, order_id, order_number, timed_out`;

export const READ_CHECKOUT = statement(
  `select ${CHECKOUT_COLUMNS} from checkouts where cart_id = $1`,
);

/**
 * One statement (one verified transaction). `remaining`: the unsettled attempts once this
 * one's token is removed when it placed nothing; `checkout_frozen` follows it. A cart that
 * was checked out (unless unconfirmed: its order awaits a record), or that does not hold the
 * token (the claim never committed), is left alone: then the record, if any, is answered.
 */
const RELEASE_CLAIM = statement(`with released as (
    update carts set
      checkout_claim = case when checkout_claim = $2::uuid then null else checkout_claim end,
      checkout_started_at =
        case when checkout_claim = $2::uuid then null else checkout_started_at end,
      checkout_unsettled = case when $3::boolean
        then array_remove(checkout_unsettled, $2::uuid) else checkout_unsettled end,
      checkout_frozen = cardinality(case when $3::boolean
        then array_remove(checkout_unsettled, $2::uuid) else checkout_unsettled end) > 0,
      checkout_availability_error = checkout_availability_error or $4::boolean,
      checkout_availability_error_at =
        case when $4::boolean then $5::timestamptz else checkout_availability_error_at end
    where id = $1 and (not checked_out or checkout_unconfirmed_at is not null)
      and (checkout_claim = $2::uuid or $2::uuid = any(checkout_unsettled))
    returning id
  )
  select true as released, null::int as id, null::int as cart_id, null as created,
    null as order_id, null as order_number, null::boolean as timed_out
  from released
  union all
  select false, ${CHECKOUT_COLUMNS} from checkouts
  where cart_id = $1 and not exists (select from released)`);
