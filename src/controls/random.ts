import { recordAudit } from '../audit/logic.js';
import type { CheckoutRecord } from '../carts/schemas.js';
import { randomControlDraws } from '../db/schema.js';
import { statement } from '../db/statement.js';
import type { Deps } from '../deps.js';
import type { AppEventBus } from '../events/app-events.js';
import { insertControl } from './logic.js';
import type { Control } from './schemas.js';

export const CRITERION_OPTION = 'criteria_for_random_controls';
type Criterion = 'carts' | 'users';

/**
 * Random controls (docs/http-contract.md), drawn once per checkout after it has committed. With
 * N = the store's `carts_for_random_control` (0 disables), a checkout is drawn when
 * `random() < 1/N` (N = 1 always draws). Under the criterion `users` only the user's
 * first checkout in the store per UTC day is drawn on; the (user, store, day) row makes
 * that hold across concurrent checkouts and instances. A drawn checkout gets a pending
 * control with no controller, holding the user's active carts in the store.
 *
 * N is read with the checkout's claim; a store whose N was 0 then draws nothing. Otherwise N
 * and the criterion are read again here, and one transaction writes the day's draw row and
 * the control together or not at all.
 * Returns the created control, or null. Warehouse carts (no store) are never drawn.
 */
export async function drawRandomControl(
  deps: Deps,
  record: CheckoutRecord,
  cart: { userId: number; storeId: number | null; cartsForRandomControl: number },
): Promise<Control | null> {
  const { storeId, userId } = cart;
  // Most stores draw nothing (N = 0): known from the checkout's claim, without a statement.
  if (storeId === null || cart.cartsForRandomControl <= 0) return null;
  const nowMicros = deps.clock.nowMicros();
  // Read again, outside any transaction: N may have changed since the claim.
  const [store] = await deps.database.run<{ n: number; criterion: string | null }>(DRAW_SETTINGS, [
    storeId,
    CRITERION_OPTION,
  ]);
  const n = store?.n ?? 0;
  if (n <= 0) return null;
  const criterion: Criterion =
    store.criterion?.trim().toLowerCase() === 'users' ? 'users' : 'carts';
  return deps.database.db.transaction(async (tx) => {
    if (criterion === 'users') {
      // The checkout's own UTC day (record.created is `YYYY-MM-DDT…Z`).
      const day = record.created.slice(0, 10);
      const first = await tx
        .insert(randomControlDraws)
        .values({ userId, storeId, day })
        .onConflictDoNothing()
        .returning({ userId: randomControlDraws.userId });
      if (first.length === 0) return null;
    }
    if (!(deps.random() < 1 / n)) return null;
    const control = await insertControl(
      tx,
      {
        userId,
        storeId,
        status: 'pending',
        controllerId: null,
        isRandom: true,
        alsoCartId: record.cart,
      },
      nowMicros,
    );
    if (control) {
      await recordAudit(
        tx,
        {
          kind: 'control.created',
          via: 'random-draw',
          storeId,
          userId,
          objectId: control.id,
          after: { status: control.status, carts: control.carts, is_random: true },
        },
        nowMicros,
      );
    }
    return control;
  });
}

/** The store's N and the criterion option (missing, or an unknown value, means `carts`). */
const DRAW_SETTINGS = statement(`select carts_for_random_control as n,
  (select value from options where name = $2) as criterion from stores where id = $1`);

/**
 * The draw subscribes to `cart.checked_out`; a control it creates is published as
 * `control.created`. A failed draw is logged by the bus ("random control draw failed"):
 * the order is placed and recorded by then, so the checkout still answers its record.
 */
export function subscribeRandomControls(events: AppEventBus, deps: Deps): void {
  events.subscribe(
    'cart.checked_out',
    'random control draw',
    async ({ checkout, cart }, context) => {
      const control = await drawRandomControl(deps, checkout, cart);
      if (control) await context.events.publish('control.created', { control });
    },
  );
}
