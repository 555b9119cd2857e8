import { and, asc, eq, inArray } from 'drizzle-orm';
import { formatDbTimestamp } from '../clock.js';
import type { Db } from '../db/client.js';
import { countRows, type PageSource } from '../db/pages.js';
import { memberships, organizations } from '../db/schema.js';
import type { Organization } from './schemas.js';

export function organizationRecord(row: typeof organizations.$inferSelect): Organization {
  return {
    id: row.id,
    code: row.code,
    created: formatDbTimestamp(row.created) as string,
    name: row.name,
    organization_id: row.organizationId,
    parent_code: row.parentCode,
  };
}

/**
 * The organizations the user is a member of (staff see only theirs too), optionally only
 * the (non-)favourites; by name then id (names repeat: the id keeps pages stable).
 */
export function memberOrganizations(
  db: Db,
  userId: number,
  favorite: boolean | undefined,
): PageSource<Organization> {
  const where = and(
    eq(memberships.userId, userId),
    favorite === undefined ? undefined : eq(memberships.favorite, favorite),
  );
  return {
    count: () => countRows(db, memberships, where),
    rows: async (limit, offset) => {
      const rows = await db
        .select({ organization: organizations })
        .from(memberships)
        .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
        .where(where)
        .orderBy(asc(organizations.name), asc(organizations.id))
        .limit(limit)
        .offset(offset);
      return rows.map((r) => organizationRecord(r.organization));
    },
  };
}

/** The user's membership of the organization with that `organization_id`: a condition. */
export const membershipOf = (db: Db, userId: number, organizationId: string) =>
  and(
    eq(memberships.userId, userId),
    inArray(
      memberships.organizationId,
      db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.organizationId, organizationId)),
    ),
  );

export async function isMember(db: Db, userId: number, organizationId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(membershipOf(db, userId, organizationId))
    .limit(1);
  return rows.length > 0;
}
