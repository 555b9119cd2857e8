import { LoginFailures } from '../auth/failures.js';
import type { App, Deps } from '../deps.js';
import { canMail, createMailer, type Mailer } from '../mail/mailer.js';
import { BackgroundJobs } from './jobs.js';
import { MemoryStore, RedisStore, Throttle } from './throttle.js';

/** What the account routes share in one app: the mailer, its jobs and the auth rate limit. */
export interface UsersContext {
  mailer: Mailer;
  /** Restore requests' work after the answer (look-up, code, mail). */
  jobs: BackgroundJobs;
  throttle: Throttle;
  /** The daily bounds of wrong passwords per account (login and the password-checking routes). */
  failures: LoginFailures;
  /** false in production without SMTP_URL: restore requests answer 503 `restore_unavailable`. */
  restoreOn: boolean;
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
  const mailOptions = { smtpUrl: config.smtpUrl, production: config.production };
  const restoreOn = canMail(mailOptions);
  if (!restoreOn) {
    log.warn(
      'password restore is off: NODE_ENV=production and SMTP_URL is not set; ' +
        'request-restore-code/ and request_restore_code/ answer 503 restore_unavailable',
    );
  } else if (!config.smtpUrl) {
    log.warn('SMTP_URL is not set: e-mails, restore codes and links included, go to the log');
  }
  context = {
    mailer: createMailer({ ...mailOptions, from: config.mailFrom, log }),
    jobs: new BackgroundJobs(log),
    throttle: new Throttle(store, config.authRateLimitPerMinute, clock, log),
    failures: new LoginFailures(deps.database.db, clock, {
      perAddress: config.authFailuresPerDay,
      perAccount: config.authAccountFailuresPerDay,
    }),
    restoreOn,
  };
  contexts.set(deps, context);
  const created = context;
  app.addHook('onClose', async () => {
    contexts.delete(deps);
    await created.jobs.idle();
    await Promise.all([created.mailer.close(), created.throttle.close()]);
  });
  return created;
}
