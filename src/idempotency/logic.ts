import { and, eq, lte, sql } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import { IdempotencyKeyReused } from '../errors.js';

/** How long a key holds its answer (Stripe's 24 hours); older keys are ignored and purged. */
export const KEY_LIFETIME_MICROS = 24 * 3600 * 1_000_000;

/** Expired keys deleted by each new key: far more than are made, so the table stays small. */
export const PURGE_BATCH = 100;

/** A write sent with an `Idempotency-Key`, as the user sent it. */
export interface KeyedRequest {
  userId: number;
  key: string;
  /** `POST /api/v1/items/` */
  operation: string;
  /** Of the operation and the canonical request: a repeat has the same one. */
  fingerprint: string;
}

export interface Answered<T> {
  status: number;
  answer: T;
  /** True when this is the stored answer of an earlier request with the key. */
  replayed: boolean;
}

/**
 * Runs `write` once per user and key: the key's row is inserted first, in the same
 * transaction as the write, and the answer stored in it before the commit. A concurrent
 * repeat's insert waits on the row's unique index until that transaction ends: after a
 * commit it reads the stored answer; after a rollback (the write failed: nothing is stored
 * for an error) it runs the write itself. Without the key's row committed, nothing of the
 * write is either (src/db/pool.ts verifies commits).
 *
 * A repeat with another fingerprint is IdempotencyKeyReused. A key older than
 * KEY_LIFETIME_MICROS counts as unused: its row is taken over.
 */
export async function runOnce<T>(
  db: Db,
  nowMicros: number,
  request: KeyedRequest,
  status: number,
  write: (tx: Db) => Promise<T>,
): Promise<Answered<T>> {
  const created = formatMicros(nowMicros);
  const expired = formatMicros(nowMicros - KEY_LIFETIME_MICROS);
  const { userId, key, operation, fingerprint } = request;
  const thisKey = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(idempotencyKeys)
      .values({ userId, key, operation, fingerprint, created })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.key],
        set: { operation, fingerprint, created, status: null, answer: null },
        setWhere: lte(idempotencyKeys.created, expired),
      })
      .returning({ userId: idempotencyKeys.userId });
    if (!claimed) {
      // Committed by an earlier request (this insert waited for it if it was in flight).
      // The conflict locked the row (PostgreSQL locks it even when the WHERE refuses the
      // update), so no purge can delete it before it is read.
      const [stored] = await tx
        .select({
          fingerprint: idempotencyKeys.fingerprint,
          status: idempotencyKeys.status,
          answer: idempotencyKeys.answer,
        })
        .from(idempotencyKeys)
        .where(thisKey);
      if (stored.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
      return { status: stored.status ?? status, answer: stored.answer as T, replayed: true };
    }
    const answer = await write(tx as unknown as Db);
    await tx
      .update(idempotencyKeys)
      .set({ status, answer: answer ?? null })
      .where(thisKey);
    await purgeExpired(tx, expired);
    return { status, answer, replayed: false };
  });
}

/**
 * Deletes up to PURGE_BATCH expired keys of any user. Rows another transaction holds are
 * skipped (a concurrent purge, or a take-over of an expired key).
 */
async function purgeExpired(tx: Tx, expired: string): Promise<void> {
  await tx.execute(sql`
    delete from ${idempotencyKeys} where (user_id, key) in (
      select user_id, key from ${idempotencyKeys} where created <= ${expired}
      limit ${PURGE_BATCH} for update skip locked)`);
}
