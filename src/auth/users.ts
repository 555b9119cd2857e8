import { and, eq, isNull, notInArray, sql } from 'drizzle-orm';
import { formatMicros } from '../clock.js';
import type { Db } from '../db/client.js';
import { memberships, organizations, users } from '../db/schema.js';
import { UpstreamFailure } from '../upstream/errors.js';
import type { UpstreamProfile } from '../upstream/types.js';
import type { TokenUser } from './tokens.js';

/**
 * The username an erased user's row keeps (src/admin/personal-data.ts). No live row ever
 * holds one: a login or a grant naming one is refused, so a tombstone's name is always free.
 */
export const tombstone = (id: number) => `erased:${id}`;
export const isTombstoneName = (username: string) => /^erased:\d+$/.test(username);

/** The login's answer when the ERP's profile names an erased user or a tombstone's name. */
const erasedProfile = () =>
  new UpstreamFailure(
    'bad_response',
    'me',
    undefined,
    undefined,
    new Error('the profile names an erased user'),
  );

/**
 * Creates or refreshes the local user and their organization memberships from the upstream
 * profile, in one transaction. Favourites of memberships that remain are kept. An erased
 * user's row is never matched (the upsert updates only rows without `erased_at`): a profile
 * with its name, or any tombstone's name, is refused as unusable (502 `upstream_error`).
 */
export async function syncUser(
  db: Db,
  profile: UpstreamProfile,
  nowMicros: number,
): Promise<number> {
  const now = formatMicros(nowMicros);
  if (isTombstoneName(profile.username)) throw erasedProfile();
  return db.transaction(async (tx) => {
    const fields = {
      email: profile.email ?? '',
      firstName: profile.first_name ?? '',
      lastName: profile.last_name ?? '',
      telephone: profile.telephone ?? '',
      reference: profile.reference ?? null,
      lastLogin: now,
    };
    const [user] = await tx
      .insert(users)
      .values({ username: profile.username, created: now, ...fields })
      .onConflictDoUpdate({ target: users.username, set: fields, setWhere: isNull(users.erasedAt) })
      .returning({ id: users.id });
    // The name is an erased user's: the row was neither inserted nor updated.
    if (!user) throw erasedProfile();

    const orgs = (profile.organizations ?? []).filter(
      (o) => typeof o?.organization_id === 'string',
    );
    const orgIds: number[] = [];
    // Sorted, so concurrent logins lock organization rows in the same order.
    for (const org of [...orgs].sort((a, b) =>
      a.organization_id.localeCompare(b.organization_id),
    )) {
      const values = {
        code: org.code ?? '',
        name: org.name ?? '',
        parentCode: org.parent_code ?? '',
        hasUnlimitedCredit: org.has_unlimited_credit === true,
      };
      const [row] = await tx
        .insert(organizations)
        .values({ organizationId: org.organization_id, created: now, ...values })
        .onConflictDoUpdate({ target: organizations.organizationId, set: values })
        .returning({ id: organizations.id });
      orgIds.push(row.id);
    }
    await tx
      .delete(memberships)
      .where(
        orgIds.length > 0
          ? and(eq(memberships.userId, user.id), notInArray(memberships.organizationId, orgIds))
          : eq(memberships.userId, user.id),
      );
    if (orgIds.length > 0) {
      await tx
        .insert(memberships)
        .values(orgIds.map((organizationId) => ({ userId: user.id, organizationId })))
        .onConflictDoNothing();
    }
    return user.id;
  });
}

/**
 * The local record of a user who may never have logged in (the admin command grants roles),
 * or undefined when the name is an erased user's or a tombstone's: no record is made then.
 */
export async function ensureUser(
  db: Db,
  username: string,
  nowMicros: number,
): Promise<number | undefined> {
  if (isTombstoneName(username)) return undefined;
  const [row] = await db
    .insert(users)
    .values({ username, created: formatMicros(nowMicros) })
    .onConflictDoUpdate({
      target: users.username,
      set: { username: sql`excluded.username` },
      setWhere: isNull(users.erasedAt),
    })
    .returning({ id: users.id });
  return row?.id;
}

/** The columns a token names of its user. */
const TOKEN_USER = {
  id: users.id,
  username: users.username,
  sessionGeneration: users.sessionGeneration,
};

/** What a token names of its user (id, username, session generation), while the user exists. */
export async function findTokenUser(db: Db, id: number): Promise<TokenUser | undefined> {
  const [user] = await db.select(TOKEN_USER).from(users).where(eq(users.id, id));
  return user;
}

/** The stored user of a username, as a token names it, or undefined before the first login. */
export async function storedSession(db: Db, username: string): Promise<TokenUser | undefined> {
  const [user] = await db.select(TOKEN_USER).from(users).where(eq(users.username, username));
  return user;
}
