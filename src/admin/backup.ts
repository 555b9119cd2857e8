import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { type Database, migrationsFolder, openDatabase } from '../db/client.js';
import { lockDataDir } from '../db/data-dir-lock.js';
import { statement } from '../db/statement.js';
import { AdminError } from './commands.js';

/**
 * Backups of the embedded database (PGlite): a gzipped tarball of its data directory, taken
 * by the admin command while it alone holds `DATA_DIR` (the service must be stopped: PGlite
 * is single-process, and the lock of src/db/data-dir-lock.ts refuses a second opener).
 * PostgreSQL is backed up with its own tools (pg_dump -Fc / pg_restore, docs/operations.md);
 * `check-schema` then tells whether a restored database is at this release's schema.
 */

/** Where PGlite keeps its files inside DATA_DIR (src/db/client.ts). */
const pgliteDir = (dataDir: string) => join(dataDir, 'pglite');

export function hasDatabase(dataDir: string): boolean {
  const dir = pgliteDir(dataDir);
  return existsSync(join(dir, 'PG_VERSION'));
}

/** Writes `data` to `file` whole or not at all (a temporary file renamed over it). */
function writeAtomically(file: string, data: Uint8Array): void {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.partial`);
  try {
    writeFileSync(temporary, data, { flag: 'wx', mode: 0o600 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    throw new AdminError(`cannot write ${file}: ${code ?? (error as Error).message}`);
  }
}

/** `backup <file>`: the embedded database of DATA_DIR as a gzipped tarball in `file`. */
export async function backupPglite(dataDir: string, file: string): Promise<number> {
  if (!hasDatabase(dataDir)) throw new AdminError(`no embedded database in ${dataDir}`);
  // Refuses (DataDirInUse) while the service or another command holds DATA_DIR.
  const database = await openDatabase({ dataDir, lockRole: 'ordering-admin backup' });
  try {
    // Everything written so far in the data files, so the copy needs no WAL replay.
    await database.run(statement('checkpoint'), []);
    const dump = await database.dumpDataDir!();
    const bytes = new Uint8Array(await dump.arrayBuffer());
    writeAtomically(file, bytes);
    return bytes.length;
  } finally {
    await database.close();
  }
}

/**
 * `restore <file>`: DATA_DIR's embedded database from a backup. Refuses while anything holds
 * DATA_DIR; refuses to replace an existing database unless `replace`, and then keeps it
 * beside (`pglite.replaced-<time>`), never deleting it. The backup is unpacked and opened in
 * a directory of its own first: a bad file leaves DATA_DIR as it was.
 */
export async function restorePglite(
  dataDir: string,
  file: string,
  options: {
    replace?: boolean;
    now: Date;
    /** Run on the restored database before it is put in place (the erasures applied again). */
    prepare?: (database: Database) => Promise<void>;
  },
): Promise<{ replacedTo?: string; schema: SchemaStatus }> {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    throw new AdminError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code}`);
  }
  // Holds DATA_DIR for the whole restore (DataDirInUse while the service runs).
  const unlock = lockDataDir(dataDir, 'ordering-admin restore');
  try {
    if (hasDatabase(dataDir) && !options.replace) {
      throw new AdminError(
        `${pgliteDir(dataDir)} already holds a database; add --replace to keep it aside and restore over it`,
      );
    }
    const staging = join(dataDir, '.restoring');
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(join(staging, 'pglite'), { recursive: true });
    let schema: SchemaStatus;
    try {
      // A directory of its own (with a lock of its own, inside it), removed below.
      const database = await openDatabase({
        dataDir: staging,
        loadDataDir: new Blob([new Uint8Array(data)]),
        lockRole: 'ordering-admin restore',
      }).catch((error: unknown) => {
        throw new AdminError(`${file} is not a backup of the embedded database: ${error}`);
      });
      try {
        await options.prepare?.(database);
        schema = await schemaStatus(database);
        await database.run(statement('checkpoint'), []);
      } finally {
        await database.close();
      }
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    let replacedTo: string | undefined;
    if (existsSync(pgliteDir(dataDir))) {
      const stamp = options.now.toISOString().replace(/[:.]/g, '-');
      replacedTo = join(dataDir, `pglite.replaced-${stamp}`);
      renameSync(pgliteDir(dataDir), replacedTo);
    }
    renameSync(join(staging, 'pglite'), pgliteDir(dataDir));
    rmSync(staging, { recursive: true, force: true });
    return { replacedTo, schema };
  } finally {
    unlock();
  }
}

export interface SchemaStatus {
  ok: boolean;
  /** One line: the version, or what is wrong and what to do. */
  message: string;
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * Compares the migrations recorded in the database (drizzle's `__drizzle_migrations`) with
 * those of this release (`drizzle/`): the same ones, in order, with the same contents.
 */
async function schemaStatusOf(query: Query): Promise<SchemaStatus> {
  const expected = readMigrationFiles({ migrationsFolder });
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8'))
    .entries as { tag: string; when: number }[];
  const tagOf = (when: number) => journal.find((e) => e.when === when)?.tag ?? String(when);
  const [table] = await query(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!table.present) {
    return {
      ok: false,
      message: 'no migrations recorded: not a database of this service, or an empty one',
    };
  }
  const applied = (
    await query('select hash, created_at::text as created_at from drizzle.__drizzle_migrations')
  ).map((r) => ({ hash: String(r.hash), when: Number(r.created_at) }));
  const last = expected[expected.length - 1];
  const unknown = applied.filter((a) => !expected.some((e) => e.folderMillis === a.when));
  if (unknown.length > 0 || applied.some((a) => a.when > last.folderMillis)) {
    return {
      ok: false,
      message: `the database has migrations this release does not know (applied at ${unknown
        .map((a) => a.when)
        .join(', ')}): it comes from a newer release; run that release`,
    };
  }
  const changed = expected.filter((e) =>
    applied.some((a) => a.when === e.folderMillis && a.hash !== e.hash),
  );
  if (changed.length > 0) {
    return {
      ok: false,
      message: `migration ${changed.map((e) => tagOf(e.folderMillis)).join(', ')} in the database differs from this release's`,
    };
  }
  const missing = expected.filter((e) => !applied.some((a) => a.when === e.folderMillis));
  if (missing.length > 0) {
    return {
      ok: false,
      message: `schema behind this release: ${missing.map((e) => tagOf(e.folderMillis)).join(', ')} not applied (run the migrate command, or start the service, which applies them)`,
    };
  }
  return {
    ok: true,
    message: `schema up to date: ${expected.length} migrations, the last ${tagOf(last.folderMillis)}`,
  };
}

/** `check-schema`: the status of an open database. */
export function schemaStatus(database: Database): Promise<SchemaStatus> {
  return schemaStatusOf((text) =>
    database.run<Record<string, unknown>>(statement(text), []).then((rows) => rows),
  );
}
