import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, migrationsFolder } from '../db/client.js';
import { builtStatement, type Run, statement } from '../db/statement.js';

/**
 * Whether the trail is append-only against the role this connection runs as (decision
 * 0011): it must not be a superuser, own the table or be able to become its owner, hold
 * UPDATE, DELETE or TRUNCATE on it, or create roles (CREATEROLE could make it a member of
 * the owner role).
 */
export type AuditGuardState =
  | 'held'
  | 'superuser'
  | 'owner'
  | 'privileged'
  | 'createrole'
  | 'missing-role';

const STATE = statement(`select r.rolsuper as superuser, r.rolcreaterole as createrole,
    pg_has_role(current_user, c.relowner, 'MEMBER') as owner,
    pg_get_userbyid(c.relowner) = 'ordering_audit' as guarded,
    has_table_privilege('public.audit_events', 'UPDATE, DELETE, TRUNCATE') as privileged
  from pg_class c, pg_roles r
  where c.oid = 'public.audit_events'::regclass and r.rolname = current_user`);

/** The state as seen by the role `run` runs as. */
export async function auditGuardState(run: Run): Promise<AuditGuardState> {
  const [row] = await run<{
    superuser: boolean;
    createrole: boolean;
    owner: boolean;
    guarded: boolean;
    privileged: boolean;
  }>(STATE, []);
  if (!row) return 'missing-role';
  if (row.superuser) return 'superuser';
  if (row.owner) return 'owner';
  if (!row.guarded) return 'missing-role';
  if (row.privileged) return 'privileged';
  if (row.createrole) return 'createrole';
  return 'held';
}

/** The state in words, for the log and the admin command. */
export function describeAuditGuard(state: AuditGuardState): string {
  switch (state) {
    case 'held':
      return 'the audit trail is append-only against this role';
    case 'superuser':
      return 'the audit trail is NOT append-only against this role: it is a superuser (docs/operations.md, "The audit trail")';
    case 'owner':
      return 'the audit trail is NOT append-only against this role: it owns audit_events or may become its owner; run `npm run admin -- audit guard` as a superuser (docs/operations.md, "The audit trail")';
    case 'missing-role':
      return 'the audit trail is NOT append-only: audit_events does not belong to ordering_audit; run `npm run admin -- audit guard` as a superuser (docs/operations.md, "The audit trail")';
    case 'privileged':
      return 'the audit trail is NOT append-only against this role: it was granted UPDATE, DELETE or TRUNCATE on audit_events';
    case 'createrole':
      return 'the audit trail is NOT append-only against this role: it has CREATEROLE';
  }
}

/** The role the trail belongs to before the guard: the service's (it created the table). */
const TRAIL_OWNER = statement(
  "select pg_get_userbyid(relowner) as service from pg_class where oid = 'public.audit_events'::regclass",
);

const IS_SUPERUSER = statement(
  'select rolsuper as superuser from pg_roles where rolname = current_user',
);

/**
 * Runs the guard migration (drizzle/*_audit_guard.sql) again, in one transaction: for a
 * database migrated by the service's own role (the table stayed its own) or restored
 * without owners. Needs a superuser; every statement of the file is idempotent.
 */
export async function applyAuditGuard(database: Database): Promise<string> {
  const [{ superuser }] = await database.run<{ superuser: boolean }>(IS_SUPERUSER, []);
  if (!superuser) throw new Error('audit guard needs a superuser connection (DATABASE_URL)');
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8'));
  const tag = (journal.entries as { tag: string }[]).find((entry) =>
    entry.tag.endsWith('_audit_guard'),
  )?.tag;
  if (!tag) throw new Error('the audit guard migration is missing from drizzle/');
  const statements = readFileSync(join(migrationsFolder, `${tag}.sql`), 'utf8')
    .split('--> statement-breakpoint')
    .map((text) => text.trim())
    .filter((text) => text !== '');
  return database.transaction(async (run) => {
    const [{ service }] = await run<{ service: string }>(TRAIL_OWNER, []);
    for (const text of statements) await run(builtStatement(text), []);
    return service === 'ordering_audit' ? 'the service role (as before)' : service;
  });
}
