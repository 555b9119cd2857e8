import type { App, Deps } from '../deps.js';
import { canMail, createMailer, type Mailer } from '../mail/mailer.js';
import { BackgroundJobs } from './jobs.js';

/** What the account routes share in one app: the mailer and its jobs. */
export interface UsersContext {
  mailer: Mailer;
  /** Restore requests' work after the answer (look-up, code, mail). */
  jobs: BackgroundJobs;
  /** false in production without SMTP_URL: restore requests answer 503 `restore_unavailable`. */
  restoreOn: boolean;
}

const contexts = new WeakMap<Deps, UsersContext>();

/**
 * One mailer per app, whichever plugin asks first (the API routes or the restore page);
 * closed with the app.
 */
export function usersContext(app: App): UsersContext {
  const { deps } = app;
  let context = contexts.get(deps);
  if (context) return context;
  const { config } = deps;
  const log = app.log;
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
    restoreOn,
  };
  contexts.set(deps, context);
  const created = context;
  app.addHook('onClose', async () => {
    contexts.delete(deps);
    await created.jobs.idle();
    await created.mailer.close();
  });
  return created;
}
