import type { App, Deps } from '../deps.js';
import { BackgroundMailer, createMailer } from '../mail/mailer.js';
import { MemoryStore, RedisStore, Throttle } from './throttle.js';

/** What the account routes share in one app: the mailer and the auth rate limit. */
export interface UsersContext {
  mailer: BackgroundMailer;
  throttle: Throttle;
}

const contexts = new WeakMap<Deps, UsersContext>();

/**
 * One mailer and one counter store per app, whichever plugin asks first (login, the API
 * routes or the restore page); closed with the app.
 */
export function usersContext(app: App): UsersContext {
  const { deps } = app;
  let context = contexts.get(deps);
  if (context) return context;
  const { config, clock } = deps;
  const log = app.log;
  const store =
    config.redisUrl && config.authRateLimitPerMinute > 0
      ? new RedisStore(config.redisUrl, 'ordering:throttle:', log)
      : new MemoryStore();
  context = {
    mailer: new BackgroundMailer(
      createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log }),
      log,
    ),
    throttle: new Throttle(store, config.authRateLimitPerMinute, clock, log),
  };
  contexts.set(deps, context);
  const created = context;
  app.addHook('onClose', async () => {
    contexts.delete(deps);
    await Promise.all([created.mailer.close(), created.throttle.close()]);
  });
  return created;
}
