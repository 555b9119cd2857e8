import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { memberships, organizations } from '../db/schema.js';
import { organizationRecord } from './queries.js';

/** The user's memberships, optionally only (non-)favourites. Staff see only theirs too. */
export function membershipFilter(userId: number, favorite: boolean | undefined): SQL | undefined {
  return and(
    eq(memberships.userId, userId),
    favorite === undefined ? undefined : eq(memberships.favorite, favorite),
  );
}

export async function countOrganizations(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(memberships)
    .where(where);
  return row.count;
}

/** One page, ordered by name then id (names repeat: the id keeps pages stable). */
export async function listOrganizations(
  db: Db,
  where: SQL | undefined,
  limit: number,
  offset: number,
) {
  const rows = await db
    .select({ organization: organizations })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(where)
    .orderBy(asc(organizations.name), asc(organizations.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => organizationRecord(r.organization));
}

const organizationIdOf = (db: Db, organizationId: string) =>
  db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.organizationId, organizationId));

/**
 * Marks or unmarks a membership as favourite, in one statement. false when the user is not
 * a member of that organization (or it does not exist). Setting the same value again is
 * still a match: idempotent.
 */
export async function setFavorite(
  db: Db,
  userId: number,
  organizationId: string,
  favorite: boolean,
): Promise<boolean> {
  const rows = await db
    .update(memberships)
    .set({ favorite })
    .where(
      and(
        eq(memberships.userId, userId),
        inArray(memberships.organizationId, organizationIdOf(db, organizationId)),
      ),
    )
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}

export async function isMember(db: Db, userId: number, organizationId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        inArray(memberships.organizationId, organizationIdOf(db, organizationId)),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
