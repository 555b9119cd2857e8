import type { CheckoutRecord } from '../carts/schemas.js';
import type { Control } from '../controls/schemas.js';
import type { UpstreamFailure } from '../upstream/errors.js';
import type { EventBus, Publisher } from './bus.js';

/**
 * The events of the service, by type, each published after the change it reports has
 * committed. Publishers: src/carts/checkout.ts (cart.*), src/controls/ (control.*).
 * Subscribers (wired in src/app.ts): src/notifications/subscribers.ts (all four) and
 * src/controls/random.ts (cart.checked_out: the random draw).
 */
export interface AppEvents {
  /** A checkout placed its order and recorded it (not on a repeat that answers the record). */
  'cart.checked_out': {
    checkout: CheckoutRecord;
    /** `cartsForRandomControl`: the store's at the claim (0 without a store). */
    cart: { id: number; userId: number; storeId: number | null; cartsForRandomControl: number };
  };
  /** A checkout attempt failed upstream; the claim on the cart is released by now. */
  'cart.checkout_failed': { cart: { id: number; userId: number }; failure: UpstreamFailure };
  /** By an administrator (POST controls/) or by a random draw. */
  'control.created': { control: Control };
  /** Moved from pending to verified (not on a repeated verification). */
  'control.verified': { control: Control };
}

export type AppEventBus = EventBus<AppEvents>;
export type AppPublisher = Publisher<AppEvents>;
