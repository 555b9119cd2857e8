import { eq, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { CheckoutRecord } from '../carts/schemas.js';
import { formatMicros } from '../clock.js';
import type { Control } from '../controls/schemas.js';
import { users } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { ApiError } from '../http/errors.js';
import { UpstreamFailure } from '../upstream/errors.js';
import type { NotificationType } from './notifier.js';

/**
 * The events of conventions.md, emitted after the change they report has committed.
 * None of these throws: a notification that cannot be sent is logged, and the request
 * that caused it answers as it would without notifications.
 */
function emit(
  deps: Deps,
  log: FastifyBaseLogger,
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

export function notifyCheckedOut(
  deps: Deps,
  log: FastifyBaseLogger,
  userId: number,
  record: CheckoutRecord,
): void {
  emit(deps, log, [userId], 'cart.checked_out', { cart: record.cart, checkout: record });
}

/**
 * `cart.checkout_failed` when the attempt failed upstream (401, 502, 503, 504); other
 * errors (404, 409, 400) are answers about the request, not events of the cart.
 */
export function notifyCheckoutFailed(
  deps: Deps,
  log: FastifyBaseLogger,
  userId: number,
  cartId: number,
  error: unknown,
): void {
  let answered: ApiError | undefined;
  if (error instanceof UpstreamFailure) answered = error.toApiError();
  // Upstream's own 503 JSON, passed through (see checkoutCart).
  else if (error instanceof ApiError && error.statusCode === 503) answered = error;
  if (!answered) return;
  const code = typeof answered.body.code === 'string' ? answered.body.code : null;
  emit(deps, log, [userId], 'cart.checkout_failed', {
    cart: cartId,
    status: answered.statusCode,
    code,
  });
}

/** `control.created` goes to the controlled user and to every staff user and admin. */
export async function notifyControlCreated(
  deps: Deps,
  log: FastifyBaseLogger,
  control: Control,
): Promise<void> {
  try {
    const staff = await deps.database.db
      .select({ id: users.id })
      .from(users)
      .where(or(eq(users.isStaff, true), eq(users.isAdmin, true)));
    emit(deps, log, [control.user, ...staff.map((s) => s.id)], 'control.created', { control });
  } catch (error) {
    log.error({ err: error, control: control.id }, 'control.created notification failed');
  }
}

export function notifyControlVerified(deps: Deps, log: FastifyBaseLogger, control: Control): void {
  emit(deps, log, [control.user], 'control.verified', { control });
}
