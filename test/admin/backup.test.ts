import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { users } from '../../src/db/schema.js';
import { createPostgresDatabase, embeddedOnlySkipped, migratedDataDir } from '../helpers/db.js';
import {
  freePort,
  type Run,
  runProcess,
  type ServiceProcess,
  startServiceProcess,
} from '../helpers/process.js';
import { type Api, call, login, makeShopData, rollupsAndFresh, snapshot } from './shop-data.js';

/**
 * Backups that have been restored: data made through the API of a running service, backed
 * up, destroyed, restored, compared row by row, and served again. The embedded database
 * with the admin command; PostgreSQL with pg_dump -Fc / pg_restore and `check-schema`.
 */
if (embeddedOnlySkipped) {
  console.log(
    "The embedded database's cases skipped: they ran in the embedded pass (TEST_SERVER_PASS=1).",
  );
}

const bin = fileURLToPath(new URL('../../bin/ordering-admin.js', import.meta.url));
const PG_BIN = '/usr/lib/postgresql/15/bin';
const work = mkdtempSync(join(tmpdir(), 'ordering-backup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, DATA_DIR: __, ...rest } = process.env;
  return {
    ...rest,
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    // The test makes and counts its own carts.
    DEMO_CARTS: 'false',
    ...env,
  };
}

const admin = (args: string[], env: Record<string, string>): Promise<Run> =>
  runProcess(process.execPath, [bin, ...args], { env: baseEnv(env) });

async function start(env: Record<string, string>): Promise<ServiceProcess> {
  return startServiceProcess(baseEnv(env), await freePort(), '/readyz');
}

async function stop(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGTERM');
  const [code] = await service.exited;
  expect(code, service.output()).toBe(0);
}

/** What staff and a customer see: stats, a time series, the list's count, anna's carts. */
async function figures(api: Api) {
  const carla = await login(api, 'carla', 'carla-pass-2026');
  const anna = await login(api, 'anna', 'anna-pass-2026');
  const get = async (path: string, token: string) => {
    const answer = await call(api, 'GET', path, { token });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  };
  return {
    stats: await get('carts/stats/', carla.token),
    series: await get('carts/time-series/?aggregate=items', carla.token),
    count: (await get('carts/?page_size=1', carla.token)).count,
    annasCarts: (await get('carts/?page_size=100', anna.token)).results.map(
      (c: { id: number }) => c.id,
    ),
  };
}

function expectOneErrorLine(run: Run, pattern: RegExp): void {
  expect(run.code, run.stdout).not.toBe(0);
  expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
  expect(run.stderr).toMatch(pattern);
}

/** Runs the admin command, expects it to succeed, and answers its output. */
async function adminOk(args: string[], env: Record<string, string>): Promise<string> {
  const run = await admin(args, env);
  expect(run, run.stderr).toMatchObject({ code: 0, stderr: '' });
  return run.stdout;
}

/** The user record as `users export` prints it. */
async function exported(username: string, env: Record<string, string>) {
  return JSON.parse(await adminOk(['users', 'export', username], env)).user;
}

describe.skipIf(embeddedOnlySkipped)('the embedded database', () => {
  it('is backed up with the service stopped (refused while it runs), destroyed, restored, the same, and served', {
    timeout: 240_000,
  }, async () => {
    const dataDir = migratedDataDir();
    const file = join(work, 'backup.tar.gz');
    const env = { DATA_DIR: dataDir };
    let service = await start(env);
    await makeShopData(service);
    const before = await figures(service);
    expect(before.count).toBeGreaterThan(0);

    // PGlite is single-process: no copy of a live database, and the message says who holds it.
    const live = await admin(['backup', file], env);
    expectOneErrorLine(live, new RegExp(`in use by the service \\(pid ${service.child.pid}\\)`));
    expect(existsSync(file)).toBe(false);
    await stop(service);

    const open = () => openDatabase({ dataDir });
    let database = await open();
    const rows = await snapshot(database);
    await database.close();
    expect(rows.carts.length).toBe(5);
    expect(rows.items.length).toBe(8);
    expect(rows.shopping_list_items.length).toBe(4);
    expect(rows.control_carts.length).toBeGreaterThan(0);

    const backup = await admin(['backup', file], env);
    expect(backup, backup.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toMatch(/^backed up the embedded database to .* \(\d+ bytes\)\n$/);

    rmSync(join(dataDir, 'pglite'), { recursive: true });
    expectOneErrorLine(await admin(['check-schema'], env), /no embedded database/);

    const restored = await admin(['restore', file], env);
    expect(restored, restored.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(restored.stdout).toMatch(/^restored .*; schema up to date/);

    // Over an existing database only with --replace, which keeps the old one aside.
    expectOneErrorLine(
      await admin(['restore', file], env),
      /already holds a database; add --replace/,
    );

    database = await open();
    expect(await snapshot(database)).toEqual(rows);
    const { stored, fresh } = await rollupsAndFresh(database);
    expect(stored).toEqual(fresh);
    await database.close();
    const check = await admin(['check-schema'], env);
    expect(check).toMatchObject({ code: 0, stderr: '' });
    expect(check.stdout).toMatch(/^schema up to date: \d+ migrations/);

    service = await start(env);
    try {
      expect(await figures(service)).toEqual(before);
      expectOneErrorLine(await admin(['restore', file, '--replace'], env), /in use by the service/);
    } finally {
      await stop(service);
    }
  });

  it('refuses a file that is no backup and leaves DATA_DIR as it was', {
    timeout: 180_000,
  }, async () => {
    const dataDir = join(work, 'empty');
    const env = { DATA_DIR: dataDir };
    const bad = join(work, 'not-a-backup.tar.gz');
    await import('node:fs').then((fs) => fs.writeFileSync(bad, 'no tarball'));
    expectOneErrorLine(
      await admin(['restore', bad], env),
      /is not a backup of the embedded database/,
    );
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    expectOneErrorLine(
      await admin(['backup', join(work, 'x')], {
        DATABASE_URL: 'postgres://u@127.0.0.1:1/x',
        ...env,
      }),
      /pg_dump/,
    );
  });
});

describe.skipIf(embeddedOnlySkipped)('erasures and restored backups (decision 0012)', () => {
  it('restore applies the erasure journal again: the erased person is erased again, a newer person given the re-used id is not', {
    timeout: 240_000,
  }, async () => {
    const dataDir = migratedDataDir();
    const env = { DATA_DIR: dataDir };
    const file = join(work, 'before-erasure.tar.gz');
    await adminOk(['users', 'grant', 'anna', 'staff'], env);
    // Anna's personal fields, as a login stores them.
    const database = await openDatabase({ dataDir });
    await database.db
      .update(users)
      .set({ email: 'anna@example.com', firstName: 'Anna', telephone: '+49 40 1234' })
      .where(eq(users.username, 'anna'));
    await database.close();
    await adminOk(['backup', file], env);

    // After the backup: dora is made, then both are erased.
    await adminOk(['users', 'grant', 'dora', 'staff'], env);
    const anna = await exported('anna', env);
    const dora = await exported('dora', env);
    expect(await adminOk(['users', 'erase', 'anna'], env)).toContain(
      `recorded in ${join(dataDir, 'erasures.jsonl')}`,
    );
    await adminOk(['users', 'erase', 'dora'], env);
    // The journal names rows, never people.
    const journal = readFileSync(join(dataDir, 'erasures.jsonl'), 'utf8');
    expect(journal.trim().split('\n')).toHaveLength(2);
    expect(journal).not.toMatch(/anna|dora|example|1234/i);

    const restored = await adminOk(['restore', file, '--replace'], env);
    expectOneErrorLine(await admin(['users', 'export', 'anna'], env), /unknown user "anna"/);
    expect(restored).toMatch(
      /; 2 erasures recorded in \S+erasures\.jsonl: 1 applied again, 0 already applied, 1 of people not in this database; schema up to date/,
    );
    expect(await exported(`erased:${anna.id}`, env)).toMatchObject({
      id: anna.id,
      email: '',
      first_name: '',
      telephone: '',
      is_staff: false,
    });

    // The user sequence came back with the backup: a new person is given dora's id.
    await adminOk(['users', 'grant', 'erin', 'staff'], env);
    const erin = await exported('erin', env);
    expect(erin.id).toBe(dora.id);
    const replayed = await adminOk(['users', 'reapply-erasures'], env);
    expect(await exported('erin', env)).toMatchObject({ id: dora.id, is_staff: true });
    expect(replayed).toMatch(
      /^2 erasures recorded in \S+: 0 applied again, 1 already applied, 1 of people not in this database\n$/,
    );
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl)(
  'PostgreSQL (pg_dump -Fc / pg_restore; skipped without TEST_DATABASE_URL)',
  () => {
    it('is dumped while the service runs, dropped, restored, checked, the same, and served', {
      timeout: 240_000,
    }, async () => {
      const original = await createPostgresDatabase();
      const env = { DATABASE_URL: original.url, DATA_DIR: join(work, 'pg-secret') };
      let service = await start(env);
      const file = join(work, 'backup.dump');
      let rows: Awaited<ReturnType<typeof snapshot>>;
      let before: Awaited<ReturnType<typeof figures>>;
      try {
        await makeShopData(service);
        before = await figures(service);
        const dump = await runProcess(`${PG_BIN}/pg_dump`, ['-Fc', '-f', file, original.url]);
        expect(dump.code, dump.stderr).toBe(0);
      } finally {
        await stop(service);
      }
      const database = await openDatabase({ url: original.url });
      rows = await snapshot(database);
      await database.close();
      await original.drop();

      const target = await createPostgresDatabase({ empty: true });
      try {
        const restore = await runProcess(`${PG_BIN}/pg_restore`, [
          '--no-owner',
          '-d',
          target.url,
          file,
        ]);
        expect(restore.code, restore.stderr).toBe(0);
        const restored = await openDatabase({ url: target.url });
        try {
          expect(await snapshot(restored)).toEqual(rows);
          const { stored, fresh } = await rollupsAndFresh(restored);
          expect(stored).toEqual(fresh);
        } finally {
          await restored.close();
        }
        const check = await admin(['check-schema'], { DATABASE_URL: target.url });
        expect(check, check.stderr).toMatchObject({ code: 0, stderr: '' });
        expect(check.stdout).toMatch(/^schema up to date/);

        service = await start({ ...env, DATABASE_URL: target.url });
        try {
          expect(await figures(service)).toEqual(before);
        } finally {
          await stop(service);
        }

        // A database missing this release's last migration: behind, non-zero, one line.
        const client = new pg.Client({ connectionString: target.url });
        await client.connect();
        await client.query(
          'delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)',
        );
        await client.end();
        expectOneErrorLine(
          await admin(['check-schema'], { DATABASE_URL: target.url }),
          /schema behind this release: \d{4}_\w+ not applied/,
        );
      } finally {
        await target.drop();
      }
      const empty = await createPostgresDatabase({ empty: true });
      try {
        expectOneErrorLine(
          await admin(['check-schema'], { DATABASE_URL: empty.url }),
          /no migrations recorded/,
        );
      } finally {
        await empty.drop();
      }
    });

    it('after pg_restore, reapply-erasures erases again whom the dump still holds', {
      timeout: 120_000,
    }, async () => {
      const original = await createPostgresDatabase();
      const journal = join(work, 'pg-erasures.jsonl');
      const env = { DATABASE_URL: original.url, ERASURE_JOURNAL: journal };
      const file = join(work, 'before-erasure.dump');
      try {
        await adminOk(['users', 'grant', 'anna', 'staff'], env);
        const dump = await runProcess(`${PG_BIN}/pg_dump`, ['-Fc', '-f', file, original.url]);
        expect(dump.code, dump.stderr).toBe(0);
        await adminOk(['users', 'erase', 'anna'], env);
      } finally {
        await original.drop();
      }
      const target = await createPostgresDatabase({ empty: true });
      try {
        const restore = await runProcess(`${PG_BIN}/pg_restore`, [
          '--no-owner',
          '-d',
          target.url,
          file,
        ]);
        expect(restore.code, restore.stderr).toBe(0);
        const restored = { ...env, DATABASE_URL: target.url };
        // The dump predates the erasure: anna is back until the journal is applied.
        expect(await exported('anna', restored)).toMatchObject({ is_staff: true });
        expect(await adminOk(['users', 'reapply-erasures'], restored)).toBe(
          `1 erasures recorded in ${journal}: 1 applied again, 0 already applied, 0 of people not in this database\n`,
        );
        expectOneErrorLine(await admin(['users', 'export', 'anna'], restored), /unknown user/);
      } finally {
        await target.drop();
      }
    });
  },
);
