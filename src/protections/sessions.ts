import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { users, wsCodes } from '../db/schema.js';

/** Who closes the user's open WebSockets on every instance (the Notifier). */
export interface SessionSockets {
  endSessions(userId: number): void;
}

/**
 * Ends every session of the user: every token issued before (access and refresh alike) is
 * refused from the moment this commits, on every instance. A token carries its user's
 * session generation (the `gen` claim) and the auth hook compares it with the user row it
 * reads anyway, so this costs requests no extra look-up. Pass the transaction that records
 * the change when there is one. A user without a local row has no tokens: nothing to do.
 * Called on a password change or reset, logout-all and the erasure
 * of a user's personal data. `sockets` closes the user's open WebSockets everywhere.
 */
export async function endSessions(
  db: Db | Tx,
  user: number | { username: string },
  sockets?: SessionSockets,
): Promise<number | undefined> {
  const [row] = await db
    .update(users)
    .set({ sessionGeneration: sql`${users.sessionGeneration} + 1` })
    .where(typeof user === 'number' ? eq(users.id, user) : eq(users.username, user.username))
    .returning({ id: users.id });
  // Connection codes issued to the old sessions die with them (they open a socket for 5 min).
  if (!row) return undefined;
  await db.delete(wsCodes).where(eq(wsCodes.userId, row.id));
  // Sockets already open were authenticated by those sessions: closed on every instance.
  sockets?.endSessions(row.id);
  return row.id;
}

/**
 * The current session generation of each of the users that still exist, and whether they
 * are staff (or admin): one indexed look-up for all the sockets of an instance, on the
 * notification heartbeat.
 */
export async function sessionGenerations(
  db: Db,
  userIds: number[],
): Promise<Map<number, { generation: number; staff: boolean }>> {
  const rows = await db
    .select({
      id: users.id,
      generation: users.sessionGeneration,
      staff: sql<boolean>`${users.isStaff} or ${users.isAdmin}`,
    })
    .from(users)
    .where(inArray(users.id, userIds));
  return new Map(rows.map(({ id, generation, staff }) => [id, { generation, staff }]));
}
