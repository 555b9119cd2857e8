import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DEMO_SERVICE_ACCOUNT, startSimulator } from '../../erp-simulator/server.js';
import { applyAuditGuard, auditGuardState } from '../../src/audit/guard.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import { builtStatement, type Run } from '../../src/db/statement.js';
import { runRetention } from '../../src/retention/logic.js';
import { startTestApp } from '../helpers/app.js';
import { createPostgresDatabase, createTestDatabase, onPostgres } from '../helpers/db.js';
import { createStore, loginStaff } from '../helpers/fixtures.js';
import { freePort, startServiceProcess } from '../helpers/process.js';

/**
 * The trail is append-only against the role the service runs as (decision 0011): the table
 * belongs to ordering_audit, the service's role reads and appends, and removes old events
 * only through audit_events_remove_before. Checked as that role: through SET ROLE on any
 * database (PGlite has one superuser), and on PostgreSQL as a login role an operator made,
 * with the app running as it.
 */

const sqlOf = (text: string) => builtStatement(text);

/** What the role may not do, each in a transaction of its own. */
const REFUSED: [string, string][] = [
  ['a delete', 'delete from audit_events'],
  ['an update', "update audit_events set kind = 'x'"],
  ['truncation', 'truncate audit_events'],
  [
    'a delete declared retention the old way',
    "select set_config('ordering.retention', 'on', true); delete from audit_events",
  ],
  [
    'a delete with the function setting set by hand',
    "select set_config('ordering.audit_retention', 'on', true); delete from audit_events",
  ],
  ['disabling the trigger', 'alter table audit_events disable trigger all'],
  ['dropping the trigger', 'drop trigger audit_events_append_only on audit_events'],
  ['taking the table', 'alter table audit_events owner to current_user'],
  [
    'replacing the door',
    `create or replace function public.audit_events_remove_before(cutoff timestamptz, max_rows integer)
      returns integer language sql security definer as $$ delete from public.audit_events returning 1 $$`,
  ],
  [
    'replacing the trigger',
    `create or replace function public.audit_events_append_only() returns trigger
      language plpgsql as $$ begin return old;end $$`,
  ],
];

/** Each statement of `text` (split on `; `) in one transaction; the error's SQLSTATE, if any. */
async function attempt(
  transaction: (work: (run: Run) => Promise<void>) => Promise<void>,
  prefix: string[],
  text: string,
): Promise<string | undefined> {
  try {
    await transaction(async (run) => {
      for (const part of [...prefix, ...text.split('; ')]) await run(sqlOf(part), []);
    });
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/**
 * SET ROLE is checked against the session's login role: under SET ROLE from a superuser it
 * proves nothing, so only the login role's test tries it.
 */
const BECOME_OWNER: [string, string] = ['becoming its owner', 'set role ordering_audit'];

async function expectRefused(
  transaction: (work: (run: Run) => Promise<void>) => Promise<void>,
  prefix: string[] = [],
  refused = REFUSED,
): Promise<void> {
  for (const [what, text] of refused) {
    // 42501: permission denied / must be owner.
    expect({ what, code: await attempt(transaction, prefix, text) }).toEqual({
      what,
      code: '42501',
    });
  }
}

async function count(run: Run): Promise<number> {
  const [{ n }] = await run<{ n: number }>(
    sqlOf('select count(*)::int as n from audit_events'),
    [],
  );
  return n;
}

describe('the audit trail against the service role', () => {
  it('holds for a role that is neither superuser nor owner (SET ROLE)', async () => {
    const database = await createTestDatabase();
    const role = `ordering_svc_${randomBytes(5).toString('hex')}`;
    const asRole = `set local role ${role}`;
    const transaction = (work: (run: Run) => Promise<void>) => database.transaction(work);
    const stateAsRole = () =>
      database.transaction(async (run) => {
        await run(sqlOf(asRole), []);
        return auditGuardState(run);
      });
    try {
      // A database the role migrated itself: the trail is its own, unguarded.
      await database.run(sqlOf(`create role ${role} nologin`), []);
      await database.run(sqlOf(`alter table audit_events owner to ${role}`), []);
      expect(await auditGuardState(database.run)).toBe('superuser');
      expect(await stateAsRole()).toBe('owner');
      expect(await applyAuditGuard(database)).toBe(role);
      expect(await stateAsRole()).toBe('held');
      expect(await applyAuditGuard(database)).toBe('the service role (as before)');

      await expectRefused(transaction, [asRole]);
      // Granting itself more: refused, or a warning that nothing was granted.
      await attempt(
        transaction,
        [asRole],
        `grant delete, update, truncate on audit_events to ${role}`,
      );
      const [granted] = await database.run<{ ok: boolean }>(
        sqlOf(
          `select has_table_privilege('${role}', 'audit_events', 'DELETE, UPDATE, TRUNCATE') as ok`,
        ),
        [],
      );
      expect(granted.ok).toBe(false);

      // It appends, and removes old events through the one door, never young ones.
      const removed = await database.transaction(async (run) => {
        await run(sqlOf(asRole), []);
        const before = await count(run);
        await run(
          sqlOf(`insert into audit_events (created, kind, via) values
            (now() - interval '400 days', 'store.updated', 'admin-command'),
            (now() - interval '29 days', 'store.updated', 'admin-command')`),
          [],
        );
        const tooYoung = await run(sqlOf('savepoint young'), [])
          .then(() =>
            run(
              sqlOf("select public.audit_events_remove_before(now() - interval '29 days', 10)"),
              [],
            ),
          )
          .catch((error: { code?: string }) => error.code);
        await run(sqlOf('rollback to savepoint young'), []);
        const [{ n }] = await run<{ n: number }>(
          sqlOf("select public.audit_events_remove_before(now() - interval '30 days', 10) as n"),
          [],
        );
        return { before, tooYoung, n, after: await count(run) };
      });
      expect(removed).toMatchObject({ tooYoung: '22023', n: 1 });
      expect(removed.after).toBe(removed.before + 1);
    } finally {
      await database.close();
      if (onPostgres) await dropRole(role);
    }
  });

  it.skipIf(!onPostgres)(
    'holds for the login role the app runs as (PostgreSQL), migrated by it, then guarded by a superuser',
    { timeout: 120_000 },
    async () => {
      const role = `ordering_svc_${randomBytes(5).toString('hex')}`;
      const password = randomBytes(12).toString('hex');
      await superuser(`create role ${role} login password '${password}' nosuperuser nocreaterole`);
      const scratch = await createPostgresDatabase({ empty: true });
      const name = new URL(scratch.url).pathname.slice(1);
      await superuser(`alter database ${name} owner to ${role}`);
      const serviceUrl = new URL(scratch.url);
      serviceUrl.username = role;
      serviceUrl.password = password;
      let database: Database | undefined;
      try {
        // As the operator runs it: the service's role applies the migrations (the trail stays
        // its own, with a warning), then a superuser guards it once.
        database = await openDatabase({ url: serviceUrl.toString(), poolSize: 4 });
        await database.migrate();
        expect(await auditGuardState(database.run)).toBe('owner');
        // The service says so at start, in production at warn, naming the cure.
        const before = await startLine(serviceUrl.toString());
        expect(before).toMatchObject({ level: 40, auditGuard: 'owner' });
        expect(before.msg).toMatch(
          /NOT append-only .* `npm run admin -- audit guard` as a superuser/,
        );
        // Unguarded, retention still works through the function (the service owns it all).
        await database.run(
          sqlOf(`insert into audit_events (created, kind, via)
            values (now() - interval '400 days', 'store.updated', 'admin-command')`),
          [],
        );
        const unguarded = await runRetention(database, {
          days: 30,
          auditDays: 30,
          nowMicros: Date.now() * 1000,
        });
        expect(unguarded).toMatchObject({ auditEvents: 1, busy: false });
        // Only a superuser can give the trail away.
        await expect(applyAuditGuard(database)).rejects.toThrow(/needs a superuser/);
        const admin = await openDatabase({ url: scratch.url, poolSize: 1 });
        try {
          expect(await applyAuditGuard(admin)).toBe(role);
        } finally {
          await admin.close();
        }
        expect(await auditGuardState(database.run)).toBe('held');
        expect(await startLine(serviceUrl.toString())).toMatchObject({
          level: 30,
          auditGuard: 'held',
          msg: 'the audit trail is append-only against this role',
        });

        // The app, running as that role, records staff actions.
        const ctx = await startTestApp({ database });
        database = undefined; // closed with the app
        try {
          const gln = '4099992000016';
          await createStore(ctx, gln, { activePeriodSeconds: 3600 });
          for (const [day, period] of [
            ['2025-01-06T09:00:00Z', '02:00:00'],
            ['2026-03-02T09:00:00Z', '03:00:00'],
          ]) {
            ctx.clock.set(day);
            const staff = await loginStaff(ctx);
            const patched = await ctx.request('PATCH', `/api/v1/stores/${gln}/`, {
              token: staff.token,
              body: { active_period: period },
            });
            expect(patched.status, patched.text).toBe(200);
          }
          expect(await count(ctx.database.run)).toBe(2);

          // Nothing else gets at the rows, on a connection of its own as the service's role.
          const client = new pg.Client({ connectionString: serviceUrl.toString() });
          await client.connect();
          try {
            const [{ user }] = (await client.query('select current_user as user')).rows;
            expect(user).toBe(role);
            await expectRefused(
              async (work) => {
                await client.query('begin');
                try {
                  await work(async <Row>(s: { text: string }) => {
                    return (await client.query(s.text)).rows as Row[];
                  });
                } finally {
                  await client.query('rollback');
                }
              },
              [],
              [...REFUSED, BECOME_OWNER],
            );
          } finally {
            await client.end();
          }
          expect(await count(ctx.database.run)).toBe(2);

          // Retention, as the app's role, removes the old event through the function.
          const result = await runRetention(ctx.database, {
            days: 30,
            auditDays: 30,
            nowMicros: ctx.clock.nowMicros(),
          });
          expect(result).toMatchObject({ auditEvents: 1, busy: false });
          expect(await count(ctx.database.run)).toBe(1);
        } finally {
          await ctx.close();
        }
      } finally {
        await database?.close();
        await scratch.drop();
        await dropRole(role);
      }
    },
  );
});

/** The audit guard's line of a production start as `npm start` runs it, over `databaseUrl`. */
async function startLine(databaseUrl: string): Promise<Record<string, unknown>> {
  const sim = await startSimulator();
  const service = await startServiceProcess(
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(24).toString('hex'),
      UPSTREAM_URL: sim.url,
      UPSTREAM_ADMIN_USERNAME: DEMO_SERVICE_ACCOUNT.username,
      UPSTREAM_ADMIN_PASSWORD: DEMO_SERVICE_ACCOUNT.password,
      LOG_FORMAT: 'json',
    },
    await freePort(),
    '/readyz',
  );
  try {
    const line = service
      .output()
      .split('\n')
      .find((text) => text.includes('"auditGuard"'));
    if (!line) throw new Error(`no audit guard line: ${service.output()}`);
    return JSON.parse(line);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    await sim.close();
  }
}

async function superuser(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** After its database is gone: the role owns nothing and holds no grant any more. */
async function dropRole(role: string): Promise<void> {
  await superuser(`drop role if exists ${role}`);
}
