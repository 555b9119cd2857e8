import type { Db } from '../db/client.js';
import { memberships } from '../db/schema.js';
import { NotFound } from '../errors.js';
import { isMember, membershipOf } from './queries.js';

/**
 * Marks or unmarks a membership as favourite, in one statement. NotFound when the user is
 * not a member of that organization (or it does not exist). Setting the same value again is
 * still a match: idempotent.
 */
export async function setFavorite(
  db: Db,
  userId: number,
  organizationId: string,
  favorite: boolean,
): Promise<void> {
  const rows = await db
    .update(memberships)
    .set({ favorite })
    .where(membershipOf(db, userId, organizationId))
    .returning({ userId: memberships.userId });
  if (rows.length === 0) throw new NotFound('organization');
}

/** NotFound unless the user is a member of the organization (as far as this service knows). */
export async function requireMembership(
  db: Db,
  userId: number,
  organizationId: string,
): Promise<void> {
  if (!(await isMember(db, userId, organizationId))) throw new NotFound('organization');
}
