import { formatMicros } from '../clock.js';
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
  toStaff = false,
): void {
  try {
    deps.notifier?.publish(
      userIds,
      { type, data, created: formatMicros(deps.clock.nowMicros()) },
      { staff: toStaff },
    );
  } catch (error) {
    log.error({ err: error, type }, 'notification failed');
  }
}

/**
 * Subscribes the notifications to the events of the bus. Subscribe before the random
 * draw: a client hears `cart.checked_out` before the `control.created` it led to.
 */
export function subscribeNotifications(events: AppEventBus, deps: Deps): void {
  // To the cart's owner and to every staff user and admin (their console lists checkouts
  // live): each instance knows which of its sockets are staff's (src/notifications/notifier.ts).
  events.subscribe(
    'cart.checked_out',
    'cart.checked_out notification',
    ({ checkout, cart }, { log }) => {
      emit(deps, log, [cart.userId], 'cart.checked_out', { cart: checkout.cart, checkout }, true);
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
  events.subscribe('control.created', 'control.created notification', ({ control }, { log }) => {
    emit(deps, log, [control.user], 'control.created', { control }, true);
  });

  events.subscribe('control.verified', 'control.verified notification', ({ control }, { log }) => {
    emit(deps, log, [control.user], 'control.verified', { control });
  });
}
