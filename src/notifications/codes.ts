import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { wsCodes } from '../db/schema.js';

/** Only the hash is stored: a database dump does not let anyone connect. */
const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new connection code for the user, valid `ttlSeconds` from now. */
export async function issueCode(
  db: Db,
  userId: number,
  nowMicros: number,
  ttlSeconds: number,
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const now = formatMicros(nowMicros);
  // Expired codes are swept on issue: the table stays as small as the codes in use.
  await db.delete(wsCodes).where(lte(wsCodes.expiresAt, now));
  await db.insert(wsCodes).values({
    codeHash: hashOf(code),
    userId,
    expiresAt: formatMicros(nowMicros + ttlSeconds * 1_000_000),
  });
  return code;
}

/**
 * Spends a code: the user it was issued to, or null when it is unknown, expired or
 * already used. One statement, so two connections racing on one code cannot both win.
 */
export async function redeemCode(db: Db, code: string, nowMicros: number): Promise<number | null> {
  const [row] = await db
    .delete(wsCodes)
    .where(and(eq(wsCodes.codeHash, hashOf(code)), gt(wsCodes.expiresAt, formatMicros(nowMicros))))
    .returning({ userId: wsCodes.userId });
  return row?.userId ?? null;
}
