import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { users, wsCodes } from '../db/schema.js';

/** Only the hash is stored: a database dump does not let anyone connect. */
const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** A new connection code for the user's session of `sessionGeneration`, valid `ttlSeconds` from now. */
export async function issueCode(
  db: Db,
  userId: number,
  sessionGeneration: number,
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
    sessionGeneration,
    expiresAt: formatMicros(nowMicros + ttlSeconds * 1_000_000),
  });
  return code;
}

export interface CodeOwner {
  userId: number;
  /** The session the socket belongs to: it closes once that session is ended. */
  sessionGeneration: number;
  /** Staff or admin when the socket opened: it hears what staff hear (checked each heartbeat). */
  staff: boolean;
}

/**
 * Spends a code: the user and session it was issued to, or null when it is unknown, expired,
 * already used, or its session has ended since. One statement spends it, so two connections
 * racing on one code cannot both win. A session ended after the check is caught by the
 * socket's heartbeat (src/notifications/notifier.ts), which compares the same generation.
 */
export async function redeemCode(
  db: Db,
  code: string,
  nowMicros: number,
): Promise<CodeOwner | null> {
  const [row] = await db
    .delete(wsCodes)
    .where(and(eq(wsCodes.codeHash, hashOf(code)), gt(wsCodes.expiresAt, formatMicros(nowMicros))))
    .returning({ userId: wsCodes.userId, sessionGeneration: wsCodes.sessionGeneration });
  if (!row) return null;
  const [user] = await db
    .select({
      sessionGeneration: users.sessionGeneration,
      staff: sql<boolean>`${users.isStaff} or ${users.isAdmin}`,
    })
    .from(users)
    .where(eq(users.id, row.userId));
  return user?.sessionGeneration === row.sessionGeneration ? { ...row, staff: user.staff } : null;
}
