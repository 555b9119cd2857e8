import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import { endSessions } from '../auth/sessions.js';
import { type Clock, formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { restoreCodes } from '../db/schema.js';
import { Invalid } from '../errors.js';
import type { BackgroundMailer } from '../mail/mailer.js';
import type { UpstreamClient } from '../upstream/client.js';
import { codeMail, linkMail } from './html.js';
import type { RestoreCodeBody, RestoreLinkBody } from './schemas.js';

/** 'code': 6 digits e-mailed for `restore-password/`; 'link': the code in the e-mailed link. */
export type Variant = 'code' | 'link';

/**
 * Only this hash is stored. A 6-digit code is short, so its hash is bound to the username
 * (two users may hold the same digits); a link code is long enough to stand alone.
 */
export function codeHash(secret: string, variant: Variant, code: string, username = ''): string {
  const input =
    variant === 'code' ? `code:${username.trim().toLowerCase()}:${code}` : `link:${code}`;
  return createHmac('sha256', secret).update(`restore-password:${input}`).digest('hex');
}

export function newCode(variant: Variant): string {
  return variant === 'code'
    ? String(randomInt(0, 1_000_000)).padStart(6, '0')
    : randomBytes(32).toString('base64url');
}

export interface IssueOptions {
  db: Db;
  secret: string;
  nowMicros: number;
  ttlSeconds: number;
}

/** Stores a new code for the user and returns it (the only time it exists in clear). */
export async function issueCode(
  options: IssueOptions,
  variant: Variant,
  username: string,
): Promise<string> {
  const { db, secret, nowMicros, ttlSeconds } = options;
  const code = newCode(variant);
  const values = {
    username,
    created: formatMicros(nowMicros),
    expiresAt: formatMicros(nowMicros + ttlSeconds * 1_000_000),
    usedAt: null,
  };
  // Expired codes of the user are of no further use: the table stays small.
  await db
    .delete(restoreCodes)
    .where(and(eq(restoreCodes.username, username), lte(restoreCodes.expiresAt, values.created)));
  await db
    .insert(restoreCodes)
    .values({ variant, codeHash: codeHash(secret, variant, code, username), ...values })
    // The same user drew the same digits again: that code is simply issued anew.
    .onConflictDoUpdate({ target: restoreCodes.codeHash, set: values });
  return code;
}

const usable = (hash: string, nowMicros: number) =>
  and(
    eq(restoreCodes.codeHash, hash),
    isNull(restoreCodes.usedAt),
    gt(restoreCodes.expiresAt, formatMicros(nowMicros)),
  );

/** Whether the code can still be used (the restore page shows its form only then). */
export async function isUsable(db: Db, hash: string, nowMicros: number): Promise<boolean> {
  const rows = await db
    .select({ id: restoreCodes.id })
    .from(restoreCodes)
    .where(usable(hash, nowMicros));
  return rows.length > 0;
}

/**
 * Spends the code and sets the new password upstream. The code is claimed first, so two
 * concurrent requests cannot both use it; if upstream fails, the claim is given back (the
 * user can retry) and the failure propagates. On success every other unused code of that
 * user is spent too. false: no such usable code.
 */
export async function redeem(
  db: Db,
  upstream: UpstreamClient,
  hash: string,
  newPassword: string,
  nowMicros: number,
): Promise<boolean> {
  const now = formatMicros(nowMicros);
  const [claimed] = await db
    .update(restoreCodes)
    .set({ usedAt: now })
    .where(usable(hash, nowMicros))
    .returning({ id: restoreCodes.id, username: restoreCodes.username });
  if (!claimed) return false;
  let set: boolean;
  try {
    set = await upstream.setPassword(claimed.username, newPassword);
  } catch (error) {
    await db.update(restoreCodes).set({ usedAt: null }).where(eq(restoreCodes.id, claimed.id));
    throw error;
  }
  if (!set) return false;
  await endSessions(db, { username: claimed.username });
  await db
    .update(restoreCodes)
    .set({ usedAt: now })
    .where(and(eq(restoreCodes.username, claimed.username), isNull(restoreCodes.usedAt)));
  return true;
}

/** What the password-restore operations use. */
export interface RestoreDeps {
  db: Db;
  upstream: UpstreamClient;
  mailer: Pick<BackgroundMailer, 'enqueue'>;
  clock: Clock;
  /** The key of the stored code hashes (JWT_SECRET). */
  secret: string;
  /** How long a code stays usable (RESTORE_CODE_TTL_SECONDS). */
  ttlSeconds: number;
}

const issueOptions = (deps: RestoreDeps): IssueOptions => ({
  db: deps.db,
  secret: deps.secret,
  nowMicros: deps.clock.nowMicros(),
  ttlSeconds: deps.ttlSeconds,
});

/**
 * Variant A: e-mails a 6-digit code to the user when upstream knows them with an e-mail
 * address, and does nothing otherwise (the answer is the same: no enumeration). The mail is
 * sent in the background.
 */
export async function sendRestoreCode(deps: RestoreDeps, username: string): Promise<void> {
  const user = await deps.upstream.findUser(username.trim());
  if (!user?.email) return;
  const code = await issueCode(issueOptions(deps), 'code', user.username);
  deps.mailer.enqueue(codeMail(user.email, code, deps.ttlSeconds), 'restore code e-mail');
}

/** Variant A: sets the new password with the e-mailed code; Invalid on `code` otherwise. */
export async function restoreWithCode(deps: RestoreDeps, body: RestoreCodeBody): Promise<void> {
  const hash = codeHash(deps.secret, 'code', body.code.trim(), body.username);
  if (!(await redeem(deps.db, deps.upstream, hash, body.password, deps.clock.nowMicros()))) {
    throw Invalid.field('code', 'Invalid or expired code.');
  }
}

/**
 * Variant B: e-mails a link (`linkTo(code)`) to every account upstream has with that e-mail
 * address, each with its own code; nothing for an unknown address (no enumeration).
 */
export async function sendRestoreLinks(
  deps: RestoreDeps,
  email: string,
  linkTo: (code: string) => string,
): Promise<void> {
  const accounts = await deps.upstream.findUsersByEmail(email.trim());
  for (const account of Array.isArray(accounts) ? accounts : []) {
    if (typeof account?.username !== 'string' || !account.email) continue;
    const code = await issueCode(issueOptions(deps), 'link', account.username);
    deps.mailer.enqueue(
      linkMail(account.email, linkTo(code), deps.ttlSeconds),
      'restore link e-mail',
    );
  }
}

/**
 * Variant B: sets the new password with the code of the link. Invalid on `repeat_password`
 * when the two passwords differ (the code is not spent), on `restore_password_code` for a
 * wrong, expired or used code.
 */
export async function restoreWithLink(deps: RestoreDeps, body: RestoreLinkBody): Promise<void> {
  if (body.password !== body.repeat_password) {
    throw Invalid.field('repeat_password', 'The two passwords do not match.');
  }
  const hash = codeHash(deps.secret, 'link', body.restore_password_code.trim());
  if (!(await redeem(deps.db, deps.upstream, hash, body.password, deps.clock.nowMicros()))) {
    throw Invalid.field('restore_password_code', 'Invalid or expired code.');
  }
}
