import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { type Clock, formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { restoreCodes } from '../db/schema.js';
import { Invalid } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { accountOf } from '../protections/keys.js';
import { endSessions, type SessionSockets } from '../protections/sessions.js';
import type { UpstreamClient } from '../upstream/client.js';
import { isCommonPassword, refuseCommonPassword, TOO_COMMON } from './common-passwords.js';
import { codeMail, linkMail } from './html.js';
import type { RestoreCodeBody, RestoreLinkBody } from './schemas.js';

/** 'code': 6 digits e-mailed for `restore-password/`; 'link': the code in the e-mailed link. */
export type Variant = 'code' | 'link';

/** Attempts at one code before it dies, counted across all client addresses. */
export const RESTORE_CODE_MAX_ATTEMPTS = 5;

/** The budget window of an account: codes issued and attempts made count for 24 hours. */
const DAY_MICROS = 24 * 3600 * 1_000_000;

/**
 * Only this hash is stored. A 6-digit code is short, so its hash is bound to the username
 * (two users may hold the same digits); a link code is long enough to stand alone.
 */
export function codeHash(secret: string, variant: Variant, code: string, username = ''): string {
  const input = variant === 'code' ? `code:${accountOf(username)}:${code}` : `link:${code}`;
  return createHmac('sha256', secret).update(`restore-password:${input}`).digest('hex');
}

export function newCode(variant: Variant): string {
  return variant === 'code'
    ? String(randomInt(0, 1_000_000)).padStart(6, '0')
    : randomBytes(32).toString('base64url');
}

/** The budget of an account: what RESTORE_CODES_PER_DAY and RESTORE_ATTEMPTS_PER_DAY allow. */
export interface Budget {
  codesPerDay: number;
  attemptsPerDay: number;
}

export interface IssueOptions {
  db: Db;
  secret: string;
  nowMicros: number;
  ttlSeconds: number;
  budget: Budget;
}

/**
 * Stores a new code for the user, replacing any earlier one of that variant (one statement:
 * two concurrent requests leave one live code), and returns it: the only time it exists in
 * clear. undefined when the account has had its codes of the day: nothing is issued.
 */
export async function issueCode(
  options: IssueOptions,
  variant: Variant,
  username: string,
): Promise<string | undefined> {
  const { db, secret, nowMicros, ttlSeconds, budget } = options;
  const code = newCode(variant);
  const now = formatMicros(nowMicros);
  const dayAgo = formatMicros(nowMicros - DAY_MICROS);
  const t = restoreCodes;
  const current = sql`${t.windowStart} > ${dayAgo}`;
  const issued = await db
    .insert(t)
    .values({
      username,
      account: accountOf(username),
      variant,
      codeHash: codeHash(secret, variant, code, username),
      created: now,
      expiresAt: formatMicros(nowMicros + ttlSeconds * 1_000_000),
      usedAt: null,
      attempts: 0,
      windowStart: now,
      windowCodes: 1,
      windowAttempts: 0,
    })
    .onConflictDoUpdate({
      target: [t.account, t.variant],
      set: {
        username: sql`excluded.username`,
        codeHash: sql`excluded.code_hash`,
        created: sql`excluded.created`,
        expiresAt: sql`excluded.expires_at`,
        usedAt: null,
        attempts: 0,
        windowStart: sql`CASE WHEN ${current} THEN ${t.windowStart} ELSE excluded.window_start END`,
        windowCodes: sql`CASE WHEN ${current} THEN ${t.windowCodes} + 1 ELSE 1 END`,
        windowAttempts: sql`CASE WHEN ${current} THEN ${t.windowAttempts} ELSE 0 END`,
      },
      // Over the day's codes: the row (and the code it holds) stays as it is.
      setWhere: sql`NOT (${current}) OR ${t.windowCodes} < ${budget.codesPerDay}`,
    })
    .returning({ id: t.id });
  return issued.length > 0 ? code : undefined;
}

const live = (nowMicros: number) =>
  and(
    isNull(restoreCodes.usedAt),
    gt(restoreCodes.expiresAt, formatMicros(nowMicros)),
    lt(restoreCodes.attempts, RESTORE_CODE_MAX_ATTEMPTS),
  );

/** The account's attempts of the day are not spent (a window past 24 hours starts afresh). */
const withinBudget = (nowMicros: number, budget: Budget) =>
  or(
    sql`${restoreCodes.windowStart} <= ${formatMicros(nowMicros - DAY_MICROS)}`,
    lt(restoreCodes.windowAttempts, budget.attemptsPerDay),
  );

/** Whether the link's code can still be used (the restore page shows its form only then). */
export async function isUsable(
  db: Db,
  hash: string,
  nowMicros: number,
  budget: Budget,
): Promise<boolean> {
  const rows = await db
    .select({ id: restoreCodes.id })
    .from(restoreCodes)
    .where(and(eq(restoreCodes.codeHash, hash), live(nowMicros), withinBudget(nowMicros, budget)));
  return rows.length > 0;
}

/**
 * Which code an attempt is at: for a 6-digit code the account's live one (a wrong guess
 * still costs that code an attempt), for a link the code itself (a wrong link code, 256
 * random bits, matches no account).
 */
export type Target =
  | { variant: 'code'; account: string; hash: string }
  | { variant: 'link'; hash: string };

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Spends the code and sets the new password upstream. Every attempt first takes one of the
 * code's attempts and one of the account's attempts of the day, in one UPDATE (the row lock
 * orders concurrent attempts: however many arrive at once, at most RESTORE_CODE_MAX_ATTEMPTS
 * are compared). A right code is then claimed, so two concurrent uses cannot both succeed;
 * if upstream fails, the claim and the attempt are given back (the user can retry) and the
 * failure propagates. On success every other unused code of that user is spent too.
 * false: no such usable code (wrong, expired, used, or out of attempts).
 */
export async function redeem(
  db: Db,
  upstream: UpstreamClient,
  target: Target,
  newPassword: string,
  nowMicros: number,
  budget: Budget,
  sockets?: SessionSockets,
): Promise<boolean> {
  const t = restoreCodes;
  const now = formatMicros(nowMicros);
  const current = sql`${t.windowStart} > ${formatMicros(nowMicros - DAY_MICROS)}`;
  const which =
    target.variant === 'code'
      ? and(eq(t.account, target.account), eq(t.variant, 'code'))
      : eq(t.codeHash, target.hash);
  const [attempt] = await db
    .update(t)
    .set({
      attempts: sql`${t.attempts} + 1`,
      windowAttempts: sql`CASE WHEN ${current} THEN ${t.windowAttempts} + 1 ELSE 1 END`,
      windowStart: sql`CASE WHEN ${current} THEN ${t.windowStart} ELSE ${now} END`,
      windowCodes: sql`CASE WHEN ${current} THEN ${t.windowCodes} ELSE 0 END`,
    })
    .where(and(which, live(nowMicros), withinBudget(nowMicros, budget)))
    .returning({ id: t.id, codeHash: t.codeHash });
  if (!attempt || !sameHash(attempt.codeHash, target.hash)) return false;
  const mine = and(eq(t.id, attempt.id), eq(t.codeHash, target.hash));
  const [claimed] = await db
    .update(t)
    .set({ usedAt: now })
    .where(and(mine, isNull(t.usedAt)))
    .returning({ username: t.username });
  if (!claimed) return false;
  let set: boolean;
  try {
    set = await upstream.setPassword(claimed.username, newPassword);
  } catch (error) {
    await db
      .update(t)
      .set({
        usedAt: null,
        attempts: sql`greatest(${t.attempts} - 1, 0)`,
        windowAttempts: sql`greatest(${t.windowAttempts} - 1, 0)`,
      })
      .where(mine);
    throw error;
  }
  if (!set) return false;
  await endSessions(db, { username: claimed.username }, sockets);
  await db
    .update(t)
    .set({ usedAt: now })
    .where(and(eq(t.username, claimed.username), isNull(t.usedAt)));
  return true;
}

/** What the password-restore operations use. */
export interface RestoreDeps {
  db: Db;
  upstream: UpstreamClient;
  mailer: Mailer;
  clock: Clock;
  /** The key of the stored code hashes (JWT_SECRET). */
  secret: string;
  /** How long a code stays usable (RESTORE_CODE_TTL_SECONDS). */
  ttlSeconds: number;
  budget: Budget;
  /** Closes the WebSockets of a user whose password was reset (the Notifier). */
  sockets?: SessionSockets;
}

const issueOptions = (deps: RestoreDeps): IssueOptions => ({
  db: deps.db,
  secret: deps.secret,
  nowMicros: deps.clock.nowMicros(),
  ttlSeconds: deps.ttlSeconds,
  budget: deps.budget,
});

/**
 * Variant A, in the background (the request answered already): e-mails a 6-digit code to the
 * user when upstream knows them with an e-mail address and the account has codes left today;
 * nothing otherwise.
 */
export async function sendRestoreCode(deps: RestoreDeps, username: string): Promise<void> {
  const user = await deps.upstream.findUser(username.trim());
  if (!user?.email) return;
  const code = await issueCode(issueOptions(deps), 'code', user.username);
  if (code === undefined) return;
  await deps.mailer.send(codeMail(user.email, code, deps.ttlSeconds));
}

/**
 * Variant A: sets the new password with the e-mailed code. Invalid on `password` for a common
 * password (the code is not tried), on `code` for a wrong, expired or used code.
 */
export async function restoreWithCode(deps: RestoreDeps, body: RestoreCodeBody): Promise<void> {
  refuseCommonPassword('password', body.password);
  const target = {
    variant: 'code' as const,
    account: accountOf(body.username),
    hash: codeHash(deps.secret, 'code', body.code.trim(), body.username),
  };
  const now = deps.clock.nowMicros();
  if (
    !(await redeem(deps.db, deps.upstream, target, body.password, now, deps.budget, deps.sockets))
  ) {
    throw Invalid.field('code', 'Invalid or expired code.');
  }
}

/**
 * Variant B, in the background: e-mails a link (`linkTo(code)`) to every account upstream
 * has with that e-mail address, each with its own code; nothing for an unknown address.
 */
export async function sendRestoreLinks(
  deps: RestoreDeps,
  email: string,
  linkTo: (code: string) => string,
): Promise<void> {
  const accounts = await deps.upstream.findUsersByEmail(email.trim());
  let failed: unknown;
  for (const account of Array.isArray(accounts) ? accounts : []) {
    if (typeof account?.username !== 'string' || !account.email) continue;
    const code = await issueCode(issueOptions(deps), 'link', account.username);
    if (code === undefined) continue;
    // One account's failed mail does not keep the others from theirs.
    await deps.mailer
      .send(linkMail(account.email, linkTo(code), deps.ttlSeconds))
      .catch((error: unknown) => {
        failed ??= error;
      });
  }
  if (failed !== undefined) throw failed;
}

/**
 * Variant B: sets the new password with the code of the link. Invalid on `password` for a
 * common password and on `repeat_password` when the two passwords differ (the code is not
 * tried then), on `restore_password_code` for a wrong, expired or used code.
 */
export async function restoreWithLink(deps: RestoreDeps, body: RestoreLinkBody): Promise<void> {
  const problems: Record<string, string[]> = {};
  if (isCommonPassword(body.password)) problems.password = [TOO_COMMON];
  if (body.password !== body.repeat_password) {
    problems.repeat_password = ['The two passwords do not match.'];
  }
  if (Object.keys(problems).length > 0) throw new Invalid(problems);
  const target = {
    variant: 'link' as const,
    hash: codeHash(deps.secret, 'link', body.restore_password_code.trim()),
  };
  const now = deps.clock.nowMicros();
  if (
    !(await redeem(deps.db, deps.upstream, target, body.password, now, deps.budget, deps.sockets))
  ) {
    throw Invalid.field('restore_password_code', 'Invalid or expired code.');
  }
}
