import type { App, Deps } from '../deps.js';
import { MemoryStore, RedisStore } from './counters.js';
import { LoginFailures } from './failures.js';
import { Throttle } from './throttle.js';

/** The account's protections of one app, shared by the login and the account routes. */
export interface Protections {
  /** The per-minute limits of login, restore and the password-checking routes. */
  throttle: Throttle;
  /** The daily bounds of wrong passwords per account (login and the password-checking routes). */
  failures: LoginFailures;
}

const made = new WeakMap<Deps, Protections>();

/**
 * One throttle (one counter store: Redis with REDIS_URL, else in-process) and one set of
 * daily bounds per app, whichever plugin asks first; closed with the app.
 */
export function protections(app: App): Protections {
  const { deps } = app;
  const existing = made.get(deps);
  if (existing) return existing;
  const { config, clock } = deps;
  const store =
    config.redisUrl && config.authRateLimitPerMinute > 0
      ? new RedisStore(config.redisUrl, 'ordering:throttle:', app.log)
      : new MemoryStore();
  const created: Protections = {
    throttle: new Throttle(store, config.authRateLimitPerMinute, clock, app.log),
    failures: new LoginFailures(deps.database.db, clock, {
      perAddress: config.authFailuresPerDay,
      perAccount: config.authAccountFailuresPerDay,
    }),
  };
  made.set(deps, created);
  app.addHook('onClose', async () => {
    made.delete(deps);
    await created.throttle.close();
  });
  return created;
}
