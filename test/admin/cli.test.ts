import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { stores } from '../../src/db/schema.js';
import { createPostgresDatabase, embeddedOnlySkipped, migratedDataDir } from '../helpers/db.js';
import { type Run, runProcess } from '../helpers/process.js';

if (embeddedOnlySkipped) {
  console.log(
    "The embedded database's cases skipped: they ran in the embedded pass (TEST_SERVER_PASS=1).",
  );
}

const bin = fileURLToPath(new URL('../../bin/ordering-admin.js', import.meta.url));
const dataDir = migratedDataDir();

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs the real bin; embedded databases only, whatever TEST_DATABASE_URL says. */
function admin(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const { DATABASE_URL: _, ...rest } = process.env;
  return runProcess(process.execPath, [bin, ...args], {
    env: { ...rest, NODE_ENV: 'development', DATA_DIR: dataDir, ...env },
  });
}

function expectOneErrorLine(run: Run): void {
  expect(run.code).not.toBe(0);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
}

// Concurrent: each spawn spends seconds starting PGlite (20-25 s for `seed demo` on a loaded
// 2-core machine); the tests share no database. The bounds are for a hung command, not speed.
describe.skipIf(embeddedOnlySkipped).concurrent('ordering-admin', () => {
  it('creates a store, imports into the same DATA_DIR, reports a bad entry', {
    timeout: 180_000,
  }, async () => {
    const created = await admin([
      'stores',
      'create',
      '--gln',
      '4000000000001',
      '--name',
      'Store A',
      '--active-period',
      '03:00:00',
    ]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/created store 4000000000001/);

    const file = join(dataDir, 'stores.json');
    writeFileSync(
      file,
      JSON.stringify([
        { gln: '4000000000001', name: 'Store A renamed' },
        { gln: '4000000000002', name: 'Store B', carts_for_random_control: 1 },
      ]),
    );
    const imported = await admin(['stores', 'import', file]);
    expect(imported).toMatchObject({ code: 0, stderr: '' });
    expect(imported.stdout).toMatch(/imported 2 stores/);

    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(stores).orderBy(asc(stores.gln));
      expect(rows).toMatchObject([
        { gln: '4000000000001', name: 'Store A renamed', activePeriodSeconds: 10_800 },
        { gln: '4000000000002', name: 'Store B', cartsForRandomControl: 1 },
      ]);
    } finally {
      await database.close();
    }

    const bad = join(dataDir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify([
        { gln: '1', name: 'ok' },
        { gln: 'x', name: 'bad' },
      ]),
    );
    const run = await admin(['stores', 'import', bad]);
    expectOneErrorLine(run);
    expect(run.stderr).toMatch(/^error: entry 1: gln/);
  });

  it('prints the session settings as role defaults, for a pooler', {
    timeout: 90_000,
  }, async () => {
    const run = await admin(['db-settings'], { DATABASE_STATEMENT_TIMEOUT_MS: '7000' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        "ALTER ROLE CURRENT_USER SET statement_timeout = '7000';",
        "ALTER ROLE CURRENT_USER SET idle_in_transaction_session_timeout = '7000';",
        "ALTER ROLE CURRENT_USER SET TimeZone = 'UTC';",
        "ALTER ROLE CURRENT_USER SET max_parallel_workers_per_gather = '0';",
        '',
      ].join('\n'),
    );
  });

  it('rejects a bad role with one line', { timeout: 90_000 }, async () => {
    const run = await admin(['users', 'grant', 'dora', 'boss'], { DATABASE_URL: 'memory://' });
    expectOneErrorLine(run);
    expect(run.stderr).toMatch(/boss/);
  });

  it('checkouts: lists no unconfirmed cart, refuses to confirm one that is not', {
    timeout: 120_000,
  }, async () => {
    const env = { DATABASE_URL: 'memory://' };
    const listed = await admin(['checkouts', 'unconfirmed'], env);
    expect(listed).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'no cart is checked out unconfirmed\n',
    });
    const refused = await admin(
      ['checkouts', 'confirm', '1', '--order-id', 'ord_1', '--order-number', 'SO-1'],
      env,
    );
    expectOneErrorLine(refused);
    expect(refused.stderr).toMatch(/cart 1 is not checked out unconfirmed/);
    const bad = await admin(
      ['checkouts', 'confirm', '0', '--order-id', 'ord_1', '--order-number', 'SO-1'],
      env,
    );
    expectOneErrorLine(bad);
    expect(bad.stderr).toMatch(/<cart> must be a cart id/);
  });

  it('seeds the demo data into a memory database', { timeout: 180_000 }, async () => {
    const run = await admin(['seed', 'demo'], { DATABASE_URL: 'memory://' });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).not.toBe('');
  });
});

// After the concurrent ones: each of these spawns several commands in turn.
describe('ordering-admin: personal data and retention', () => {
  it('users export/erase refuse an unknown user with one line, also on PostgreSQL', {
    timeout: 180_000,
  }, async () => {
    // A DATA_DIR of its own, migrated: each command opens it in about a second.
    const dir = migratedDataDir();
    const targets: Record<string, string>[] = [{ DATA_DIR: dir }];
    // A scratch database of its own (never the server's shared one: its schema is whatever
    // other runs left there).
    const scratch = process.env.TEST_DATABASE_URL
      ? await createPostgresDatabase({ empty: true })
      : undefined;
    if (scratch) targets.push({ DATABASE_URL: scratch.url });
    try {
      for (const env of targets) {
        for (const action of ['export', 'erase']) {
          const run = await admin(['users', action, 'nobody'], env);
          expectOneErrorLine(run);
          expect(run.stderr).toBe('error: unknown user "nobody"\n');
        }
      }
    } finally {
      await scratch?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(embeddedOnlySkipped)(
    'exports a user as one JSON document and runs retention',
    {
      timeout: 180_000,
    },
    async () => {
      const dir = migratedDataDir();
      try {
        const env = { DATA_DIR: dir };
        expect((await admin(['users', 'grant', 'dora', 'staff'], env)).code).toBe(0);
        const exported = await admin(['users', 'export', 'dora'], env);
        expect(exported).toMatchObject({ code: 0, stderr: '' });
        expect(JSON.parse(exported.stdout)).toMatchObject({
          user: { username: 'dora', is_staff: true },
          carts: [],
        });
        const retention = await admin(['retention', '--older-than', '30'], env);
        expect(retention).toMatchObject({ code: 0, stderr: '' });
        // Every kind of row it removes is named, the audit trail with its own period (730 days).
        expect(retention.stdout).toMatch(
          /^removed 0 carts with 0 lines, 0 checkout records and 0 control links, 0 controls, 0 random-control draws, 0 restore codes, 0 failed-login counts and \d+ emptied statistics rows from before (\d{4}-\d\d-\d\d)T00:00:00.000Z; 0 audit events from before (\d{4}-\d\d-\d\d)T00:00:00.000Z \(\d+ batches\)\n$/,
        );
        const [, cartsBefore, auditBefore] = /before (\S+);.* before (\S+) /.exec(
          retention.stdout,
        )!;
        expect(Date.parse(cartsBefore) - Date.parse(auditBefore)).toBe(700 * 86_400_000);
        const kept = await admin(
          ['retention', '--older-than', '30', '--audit-older-than', '0'],
          env,
        );
        expect(kept.stdout).toMatch(/; no audit events \(the trail is kept whole\)/);
        const tooShort = await admin(
          ['retention', '--older-than', '30', '--audit-older-than', '7'],
          env,
        );
        expectOneErrorLine(tooShort);
        expect(tooShort.stderr).toMatch(/--audit-older-than must be 0 .* from 30/);
        const bad = await admin(['retention', '--older-than', '0'], env);
        expectOneErrorLine(bad);
        expect(bad.stderr).toMatch(/--older-than must be an integer from 1/);
        // The guard again, as the superuser the embedded database runs as: idempotent.
        const guard = await admin(['audit', 'guard'], env);
        expect(guard).toMatchObject({ code: 0, stderr: '' });
        expect(guard.stdout).toBe(
          'audit_events belongs to ordering_audit: the service role (as before) may read and append, and remove events older than 30 days only through audit_events_remove_before\n',
        );
        // The command's own environment says nothing of the service's heartbeat: the output
        // names the service's setting, never this process's value.
        const erased = await admin(['users', 'erase', 'dora'], {
          ...env,
          WS_HEARTBEAT_SECONDS: '7',
        });
        expect(erased).toMatchObject({ code: 0, stderr: '' });
        expect(erased.stdout).toMatch(/^erased dora: now erased:\d+;/);
        expect(erased.stdout).toContain(
          "at each instance's next heartbeat (within the service's WS_HEARTBEAT_SECONDS, 30 s unless set otherwise)",
        );
        expect(erased.stdout).not.toMatch(/\b7 s\b/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
