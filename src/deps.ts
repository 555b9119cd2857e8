import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TokenService } from './auth/tokens.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { AppEventBus } from './events/app-events.js';
import type { Notifier } from './notifications/notifier.js';
import type { UpstreamClient } from './upstream/client.js';

/*
 * The types every area shares: what is injected (Deps) and the app it is served by (App).
 * They live apart from app.ts, which imports every area's routes, so no area imports app.ts.
 */

/**
 * Everything the routes need, made once at start and injected (tests swap clock, random,
 * notifier and upstream). Each seam a test replaces also runs once as `npm start` wires it,
 * in test/production-wiring.test.ts: keep it so when adding one.
 */
export interface Deps {
  config: Config;
  database: Database;
  upstream: UpstreamClient;
  clock: Clock;
  /** A number in [0, 1): the source of random controls. */
  random: () => number;
  /**
   * WebSocket notifications. Unset: buildApp makes one from config (Redis when REDIS_URL is
   * set). The app closes it on close.
   */
  notifier?: Notifier;
  /** Test seams for faults that cannot be caused from outside (a crash mid-checkout). */
  faults?: { afterOrderPlaced?: (cartId: number) => Promise<void> | void };
}

/**
 * `draining`: told to stop, the instance fails `/readyz` (404, HAProxy's `disable-on-404`) so
 * the balancer sends it no new work, ends each answered connection (`Connection: close`),
 * and otherwise serves as before until the drain period ends.
 */
export interface Lifecycle {
  draining: boolean;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    /** The app's event bus (src/events/): areas publish, others subscribe at start. */
    events: AppEventBus;
    tokens: TokenService;
    /** Where the instance is in its life: set by the service's stop (src/service.ts). */
    lifecycle: Lifecycle;
  }
}
