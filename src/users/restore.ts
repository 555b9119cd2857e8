import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { restoreCodes } from '../db/schema.js';
import type { UpstreamClient } from '../upstream/client.js';

/** 'code': 6 digits e-mailed for `restore-password/`; 'link': the code in the e-mailed link. */
export type Variant = 'code' | 'link';

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

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
  await db
    .update(restoreCodes)
    .set({ usedAt: now })
    .where(and(eq(restoreCodes.username, claimed.username), isNull(restoreCodes.usedAt)));
  return true;
}
