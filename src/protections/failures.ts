import { and, eq, gt, sql } from 'drizzle-orm';
import { type Clock, formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { loginFailures } from '../db/schema.js';
import { errors } from '../http/errors.js';
import { accountOf, addressKey } from './keys.js';

/** The window of the daily bounds: failures count for 24 hours from the first one. */
const DAY_MICROS = 24 * 3600 * 1_000_000;

/** The scope of the per-account row (an address key is never empty). */
const EVERY_ADDRESS = '';

export interface FailureLimits {
  /** AUTH_FAILURES_PER_DAY: wrong passwords for one account from one address (/64) in 24 h. */
  perAddress: number;
  /** AUTH_ACCOUNT_FAILURES_PER_DAY: wrong passwords for one account from all addresses in 24 h. */
  perAccount: number;
}

interface Reserved {
  scope: string;
  windowStart: string;
}

/**
 * The daily bounds of password guessing per account (ASVS 6.3.1), on top of the per-minute
 * limits: counted in PostgreSQL, so they hold across instances, with Redis or without, and
 * across restarts. Each password check reserves one failure on the account's row and on the
 * account-and-address row before it is made (so concurrent guesses can never pass the bound
 * together); an answer that is not a wrong password (success, an upstream failure that told
 * the client nothing) gives the reservation back. An account out of budget is refused with
 * 429 `throttled` and `Retry-After` until its window ends, the right password included:
 * otherwise the bound would still answer guesses.
 *
 * Lockout trade-off: the per-account bound lets anyone who knows a username block its
 * password logins for up to a day by spending it. Per address it takes AUTH_FAILURES_PER_DAY
 * (default 100); across addresses AUTH_ACCOUNT_FAILURES_PER_DAY (default 1000), at most
 * AUTH_RATE_LIMIT_PER_MINUTE per minute per username (over 1.5 hours at the default 10). A
 * locked-out user still has the restore e-mail and every session already open.
 */
export class LoginFailures {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly limits: FailureLimits,
  ) {}

  /**
   * Runs `check` (a password check upstream) within the daily bounds of `username` seen from
   * `ip`. `wrong(result)` says whether the password was wrong: only then the failure stays
   * counted. Throws 429 `throttled` without running `check` when a bound is spent.
   */
  async guard<T>(
    username: string,
    ip: string,
    check: () => Promise<T>,
    wrong: (result: T) => boolean,
  ): Promise<T> {
    const account = accountOf(username);
    const reserved = await this.reserve(account, addressKey(ip));
    let result: T;
    try {
      result = await check();
    } catch (error) {
      await this.release(account, reserved);
      throw error;
    }
    if (!wrong(result)) await this.release(account, reserved);
    return result;
  }

  private async reserve(account: string, address: string): Promise<Reserved[]> {
    const reserved: Reserved[] = [];
    const scopes: [string, number][] = [
      [address, this.limits.perAddress],
      [EVERY_ADDRESS, this.limits.perAccount],
    ];
    for (const [scope, limit] of scopes) {
      const taken = await this.take(account, scope, limit);
      if (typeof taken === 'number') {
        await this.release(account, reserved);
        throw errors.throttled(taken);
      }
      reserved.push(taken);
    }
    return reserved;
  }

  /**
   * One failure more on the row, in one statement (concurrent checks queue on the row lock
   * and see each other's counts): the reservation, or the seconds until the spent window ends.
   */
  private async take(account: string, scope: string, limit: number): Promise<Reserved | number> {
    const now = this.clock.nowMicros();
    const dayAgo = formatMicros(now - DAY_MICROS);
    const t = loginFailures;
    const current = sql`${t.windowStart} > ${dayAgo}`;
    const [row] = await this.db
      .insert(t)
      .values({ account, scope, windowStart: formatMicros(now), failures: 1 })
      .onConflictDoUpdate({
        target: [t.account, t.scope],
        set: {
          windowStart: sql`CASE WHEN ${current} THEN ${t.windowStart} ELSE excluded.window_start END`,
          failures: sql`CASE WHEN ${current} THEN ${t.failures} + 1 ELSE 1 END`,
        },
        setWhere: sql`NOT (${current}) OR ${t.failures} < ${limit}`,
      })
      .returning({ windowStart: t.windowStart });
    if (row) return { scope, windowStart: row.windowStart };
    const [spent] = await this.db
      .select({
        seconds: sql<number>`ceil(extract(epoch from ${t.windowStart} - ${dayAgo}::timestamptz))::int`,
      })
      .from(t)
      .where(and(eq(t.account, account), eq(t.scope, scope)));
    return Math.max(1, Number(spent?.seconds ?? 1));
  }

  /** Gives reservations back (only within the window they were taken in). */
  private async release(account: string, reserved: Reserved[]): Promise<void> {
    for (const { scope, windowStart } of reserved) {
      await this.db
        .update(loginFailures)
        .set({ failures: sql`${loginFailures.failures} - 1` })
        .where(
          and(
            eq(loginFailures.account, account),
            eq(loginFailures.scope, scope),
            eq(loginFailures.windowStart, windowStart),
            gt(loginFailures.failures, 0),
          ),
        );
    }
  }
}
