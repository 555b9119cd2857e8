import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildConsole } from '../../console/scripts/build.js';
import { buildServer } from '../../scripts/build.mjs';
import { migrationsFolder, openDatabase } from '../../src/db/client.js';

/** Hash of the migrations: a snapshot or template made from other migrations is not reused. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * Migrates once per run: a PGlite data-dir dump every test file loads (~0.6 s instead of a
 * 4 s initdb), and, with TEST_DATABASE_URL, a template database each file copies.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  // Tests start the service as `npm start` does: compiled, in dist/ (built when stale).
  await buildServer({ ifStale: true });
  // npm start's prestart then has nothing to build (tests read its output).
  await buildConsole(undefined, { ifStale: true });
  const hash = migrationsHash();
  const cacheDir = join(process.cwd(), 'node_modules/.cache/ordering-tests');
  mkdirSync(cacheDir, { recursive: true });
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `ordering_tmpl_${hash}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Parallel runs (several checkouts on one machine) must not build the template twice.
      await admin.query('select pg_advisory_lock(727274)');
      const exists = await admin.query('select 1 from pg_database where datname = $1', [template]);
      if (exists.rowCount === 0) {
        await admin.query(`create database ${template}`);
        const target = new URL(url);
        target.pathname = `/${template}`;
        const db = await openDatabase({ url: target.toString(), poolSize: 1 });
        await db.migrate();
        await db.close();
      }
    } finally {
      await admin.query('select pg_advisory_unlock(727274)').catch(() => {});
      await admin.end();
    }
    project.provide('pgTemplate', template);
  } else {
    console.log(
      'PostgreSQL server tests skipped: TEST_DATABASE_URL is not set; the suite runs on embedded PostgreSQL (PGlite).',
    );
    const file = join(cacheDir, `pglite-${hash}.tar`);
    try {
      readFileSync(file);
    } catch {
      const db = await openDatabase({});
      await db.migrate();
      // biome-ignore lint/suspicious/noExplicitAny: the PGlite handle is not part of Database
      const client = (db.db as any).$client;
      const dump: Blob = await client.dumpDataDir('none');
      writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
      await db.close();
    }
    project.provide('pgliteSnapshot', file);
  }
  project.provide('dataDirTemplate', await dataDirTemplate(cacheDir, hash));
  // The copies of it that tests start services on (test/helpers/db.ts, migratedDataDir).
  const copies = mkdtempSync(join(tmpdir(), 'ordering-data-dirs-'));
  project.provide('dataDirCopies', copies);
  return () => rmSync(copies, { recursive: true, force: true });
}

/**
 * A DATA_DIR holding the migrated embedded database, made once per set of migrations: a
 * service process started on a copy opens it (~4 s, 8 CPU-s to ready) where a fresh one
 * runs initdb and every migration first (~10 s, 16 CPU-s; 2026-11-27).
 */
async function dataDirTemplate(cacheDir: string, hash: string): Promise<string> {
  const template = join(cacheDir, `data-dir-${hash}`);
  if (existsSync(template)) return template;
  const building = mkdtempSync(join(cacheDir, 'data-dir-building-'));
  const db = await openDatabase({ dataDir: building });
  await db.migrate();
  await db.close();
  try {
    // Parallel runs: the first rename wins, the other's copy is dropped.
    renameSync(building, template);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return template;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate: string;
    pgliteSnapshot: string;
    dataDirTemplate: string;
    dataDirCopies: string;
  }
}
