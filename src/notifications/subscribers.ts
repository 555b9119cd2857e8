import { eq, or } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import { users } from '../db/schema.js';
import type { Deps } from '../deps.js';
import type { AppEventBus } from '../events/app-events.js';
import type { Log } from '../events/bus.js';
import { upstreamAnswer } from '../http/conventions.js';
import type { NotificationType } from './notifier.js';

/**
 * The WebSocket messages of docs/http-contract.md: each event of the bus becomes a message to the
 * users it concerns. Events are published after the change they report has committed, and
 * a message that cannot be sent is logged: the request that caused it answers as it would
 * without notifications.
 */
function emit(
  deps: Deps,
  log: Log,
  userIds: number[],
  type: NotificationType,
  data: Record<string, unknown>,
): void {
  try {
    deps.notifier?.publish(userIds, { type, data, created: formatMicros(deps.clock.nowMicros()) });
  } catch (error) {
    log.error({ err: error, type }, 'notification failed');
  }
}

/** Every staff user and admin: they watch all carts and controls (the staff console). */
async function staffIds(deps: Deps): Promise<number[]> {
  const staff = await deps.database.db
    .select({ id: users.id })
    .from(users)
    .where(or(eq(users.isStaff, true), eq(users.isAdmin, true)));
  return staff.map((s) => s.id);
}

/**
 * Subscribes the notifications to the events of the bus. Subscribe before the random
 * draw: a client hears `cart.checked_out` before the `control.created` it led to.
 */
export function subscribeNotifications(events: AppEventBus, deps: Deps): void {
  // To the cart's owner and to every staff user and admin (their console lists checkouts live).
  events.subscribe(
    'cart.checked_out',
    'cart.checked_out notification',
    async ({ checkout, cart }, { log }) => {
      const recipients = [cart.userId, ...(await staffIds(deps))];
      emit(deps, log, recipients, 'cart.checked_out', { cart: checkout.cart, checkout });
    },
  );

  // The status and code the checkout answered (401, 502, 503 or 504): upstream's own 503
  // JSON is passed through there (its `code`, if any). Other errors of a checkout (404,
  // 409, 400) are answers about the request, not events of the cart: none is published.
  events.subscribe(
    'cart.checkout_failed',
    'cart.checkout_failed notification',
    ({ cart, failure }, { log }) => {
      const answered = upstreamAnswer(failure, true);
      const code = typeof answered.body.code === 'string' ? answered.body.code : null;
      emit(deps, log, [cart.userId], 'cart.checkout_failed', {
        cart: cart.id,
        status: answered.statusCode,
        code,
      });
    },
  );

  // To the controlled user and to every staff user and admin.
  events.subscribe(
    'control.created',
    'control.created notification',
    async ({ control }, { log }) => {
      const recipients = [control.user, ...(await staffIds(deps))];
      emit(deps, log, recipients, 'control.created', { control });
    },
  );

  events.subscribe('control.verified', 'control.verified notification', ({ control }, { log }) => {
    emit(deps, log, [control.user], 'control.verified', { control });
  });
}
