// First: stop on an unsupported Node before anything else loads.
import '../runtime.js';
import { readFileSync } from 'node:fs';
import { Argument, Command, CommanderError } from 'commander';
import { applyAuditGuard } from '../audit/guard.js';
import { systemClock } from '../clock.js';
import { AUDIT_MIN_DAYS, loadConfig } from '../config.js';
import { type Database, type Db, openDatabase } from '../db/client.js';
import { sessionDefaultsSql } from '../db/pool.js';
import { publishSessionsEnded } from '../notifications/notifier.js';
import { endSessions } from '../protections/sessions.js';
import { describeRetention, runRetention } from '../retention/logic.js';
import { flushTracing, withSpan } from '../tracing/spans.js';
import { exportAudit } from './audit-export.js';
import { backupPglite, hasDatabase, restorePglite, schemaStatus } from './backup.js';
import { confirmCheckout, unconfirmedCarts } from './checkouts.js';
import {
  AdminError,
  grantRole,
  importStores,
  ROLES,
  type Role,
  revokeRole,
  seedDemo,
  setOption,
  upsertStore,
} from './commands.js';
import { seedDemoCarts } from './demo-carts.js';
import { readErasures } from './erasure-journal.js';
import { eraseUser, exportUser, type Replay, reapplyErasures } from './personal-data.js';

/**
 * Opens the configured database, migrates it (a fresh DATA_DIR works) unless told not to,
 * runs, closes. The embedded database is refused while the service holds DATA_DIR.
 */
async function withDatabase(
  command: string,
  run: (database: Database) => Promise<string>,
  options: { migrate?: boolean } = {},
): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.inMemory ? undefined : config.dataDir,
    pooler: config.databasePooler,
    migrationUrl: config.databaseMigrationUrl,
    lockRole: `ordering-admin ${command}`,
  });
  try {
    if (options.migrate !== false) await database.migrate();
    const message = await run(database);
    process.stdout.write(`${message}\n`);
  } finally {
    await database.close().catch(() => {});
  }
}

const withDb = (run: (db: Db) => Promise<string>) =>
  withDatabase(process.argv.slice(2, 4).join(' '), (database) => run(database.db));

/** The embedded database's DATA_DIR, or an AdminError saying what to use instead. */
function embeddedDataDir(command: string): string {
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new AdminError(
      `${command} is for the embedded database; with DATABASE_URL use pg_dump -Fc / pg_restore (docs/operations.md), then check-schema`,
    );
  }
  if (config.inMemory) throw new AdminError(`${command}: DATABASE_URL=memory:// keeps nothing`);
  return config.dataDir;
}

/** The erasure journal of the settings (ERASURE_JOURNAL), or an AdminError with memory://. */
function erasureJournal(): string {
  const journal = loadConfig().erasureJournal;
  if (!journal) throw new AdminError('DATABASE_URL=memory:// keeps no erasure journal');
  return journal;
}

/** One line on what a replay of the erasure journal did. */
function replayLine(journal: string, replay: Replay | undefined): string {
  if (!replay) return `no erasures recorded in ${journal}`;
  const total = replay.erased + replay.alreadyErased + replay.absent;
  return `${total} erasures recorded in ${journal}: ${replay.erased} applied again, ${replay.alreadyErased} already applied, ${replay.absent} of people not in this database`;
}

/** How long the command waits for Redis to take the close message. */
const CLOSE_TIMEOUT_MS = 5000;

/**
 * Closes the user's open notification sockets on every running instance, and says how.
 * With REDIS_URL: a close message through Redis, waited for (bounded); every instance
 * closes them at once. Without Redis, or when Redis does not take it: each instance's
 * heartbeat finds the ended session and closes them within WS_HEARTBEAT_SECONDS. That is
 * the service's setting, which this process does not see (its own environment may say
 * otherwise): the message names the setting and its default, not a number of its own.
 */
async function closeSockets(userId: number): Promise<string> {
  const config = loadConfig();
  const heartbeat =
    "at each instance's next heartbeat (within the service's WS_HEARTBEAT_SECONDS, 30 s unless set otherwise)";
  if (!config.redisUrl) return `open notification sockets close ${heartbeat}`;
  try {
    await publishSessionsEnded(config.redisUrl, [userId], CLOSE_TIMEOUT_MS);
    return 'open notification sockets closed on every instance (through Redis)';
  } catch (err) {
    return `Redis did not take the close message (${(err as Error).message}): open notification sockets close ${heartbeat}`;
  }
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new AdminError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AdminError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

function nonNegativeInteger(value: string): number {
  if (!/^\d+$/.test(value)) {
    throw new AdminError(`--carts-for-random-control must be an integer >= 0, got "${value}"`);
  }
  return Number(value);
}

/** --audit-older-than: 0 (keep every event) or at least the database's floor. */
function auditPeriod(value: string): number {
  const days = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(days === 0 || (days >= AUDIT_MIN_DAYS && days <= 36_500))) {
    throw new AdminError(
      `--audit-older-than must be 0 (keep every audit event) or an integer from ${AUDIT_MIN_DAYS} to 36500, got ${JSON.stringify(value)}`,
    );
  }
  return days;
}

function positiveInteger(option: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000) {
    throw new AdminError(
      `${option} must be an integer from 1 to 1000000, got ${JSON.stringify(value)}`,
    );
  }
  return Number(value);
}

function buildProgram(): Command {
  const program = new Command('ordering-admin')
    .description('Administration of the ordering service database')
    // Settings made before adding subcommands are inherited by them.
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} });
  const role = () => new Argument('<role>', 'staff or admin').choices(ROLES);

  program
    .command('migrate')
    .description('apply pending migrations')
    .action(() => withDb(async () => 'migrations applied'));

  program
    .command('db-settings')
    .description(
      'print the ALTER ROLE statements that make the session settings the role defaults (behind a pooler)',
    )
    .action(() => {
      // Printed, not applied: the operator runs them as the service's role (or with
      // ALTER ROLE <name>/DATABASE <name> as a superuser), then restarts the instances.
      const statements = sessionDefaultsSql(loadConfig().databaseStatementTimeoutMs);
      process.stdout.write(`${statements.map((text) => `${text};`).join('\n')}\n`);
    });

  program
    .command('check-schema')
    .description('exit 0 only when the database is at the schema this release expects')
    .action(() => {
      const config = loadConfig();
      // Opening an empty DATA_DIR would create a database: say there is none instead.
      if (!config.databaseUrl && !config.inMemory && !hasDatabase(config.dataDir)) {
        throw new AdminError(`no embedded database in ${config.dataDir}`);
      }
      return withDatabase(
        'check-schema',
        async (database) => {
          const status = await schemaStatus(database);
          if (!status.ok) throw new AdminError(status.message);
          return status.message;
        },
        { migrate: false },
      );
    });

  program
    .command('backup')
    .description('back up the embedded database (DATA_DIR) to a file; the service must be stopped')
    .argument('<file>')
    .action(async (file: string) => {
      const bytes = await backupPglite(embeddedDataDir('backup'), file);
      process.stdout.write(`backed up the embedded database to ${file} (${bytes} bytes)\n`);
    });

  program
    .command('restore')
    .description('restore the embedded database (DATA_DIR) from a backup file')
    .argument('<file>')
    .option('--replace', 'keep an existing database aside (pglite.replaced-<time>) and restore')
    .action(async (file: string, opts: { replace?: boolean }) => {
      const dataDir = embeddedDataDir('restore');
      const journal = erasureJournal();
      let replay: Replay | undefined;
      const result = await restorePglite(dataDir, file, {
        replace: opts.replace,
        now: new Date(),
        // The backup may predate erasures: they are applied again before it is put in place.
        prepare: async (database) => {
          const records = readErasures(journal);
          if (records.length === 0) return;
          await database.migrate();
          replay = await reapplyErasures(database.db, records, systemClock.nowMicros());
        },
      });
      const aside = result.replacedTo ? `; the previous database kept in ${result.replacedTo}` : '';
      process.stdout.write(
        `restored ${file}${aside}; ${replayLine(journal, replay)}; ${result.schema.message}\n`,
      );
    });

  const usersCmd = program.command('users').description('user roles');
  usersCmd
    .command('grant')
    .description('grant a role (creates the local user record if needed)')
    .argument('<username>')
    .addArgument(role())
    .action((username: string, r: Role) =>
      withDb(async (db) => {
        await grantRole(db, username, r, systemClock.nowMicros());
        return `granted ${r} to ${username}`;
      }),
    );
  usersCmd
    .command('revoke')
    .description('take a role away')
    .argument('<username>')
    .addArgument(role())
    .action((username: string, r: Role) =>
      withDb(async (db) => {
        await revokeRole(db, username, r, systemClock.nowMicros());
        return `revoked ${r} from ${username}`;
      }),
    );

  usersCmd
    .command('export')
    .description('print everything held about a user as one JSON document')
    .argument('<username>')
    .action((username: string) =>
      withDb(async (db) => {
        const document = await exportUser(db, username, new Date().toISOString());
        return JSON.stringify(document, null, 2);
      }),
    );
  usersCmd
    .command('erase')
    .description('erase a user: personal fields, lists, sessions; bookkeeping kept without them')
    .argument('<username>')
    .action((username: string) =>
      withDb(async (db) => {
        const journal = erasureJournal();
        const done = await eraseUser(db, username, { nowMicros: systemClock.nowMicros(), journal });
        const sockets = await closeSockets(done.id);
        return `erased ${username}: now ${done.tombstone}; ${done.shoppingLists} shopping lists deleted, ${done.carts} carts kept without the person; every session ended; recorded in ${journal} (applied again after a restore); ${sockets}`;
      }),
    );
  usersCmd
    .command('reapply-erasures')
    .description(
      'apply the erasures of ERASURE_JOURNAL again (after restoring a PostgreSQL backup; restore does it for the embedded database)',
    )
    .action(() =>
      withDb(async (db) => {
        const journal = erasureJournal();
        const records = readErasures(journal);
        const replay =
          records.length === 0
            ? undefined
            : await reapplyErasures(db, records, systemClock.nowMicros());
        return replayLine(journal, replay);
      }),
    );
  usersCmd
    .command('end-sessions')
    .description(
      "end every session of a user: tokens (access and refresh) refused from now on, the user's notification sockets closed",
    )
    .argument('<username>')
    .action((username: string) =>
      withDb(async (db) => {
        const userId = await endSessions(db, { username });
        if (userId === undefined) throw new AdminError(`unknown user ${JSON.stringify(username)}`);
        const sockets = await closeSockets(userId);
        return `ended the sessions of ${username}: every token issued before is refused; ${sockets}`;
      }),
    );

  program
    .command('retention')
    .description(
      'remove carts (lines, checkouts, control links), controls, draws, restore codes, failed-login counts and emptied statistics rows created before the period, and audit events before their own',
    )
    .requiredOption('--older-than <days>', 'keep this many whole UTC days before today')
    .option(
      '--audit-older-than <days>',
      `audit events: keep this many whole UTC days, at least ${AUDIT_MIN_DAYS}; 0: keep them all (default AUDIT_RETENTION_DAYS)`,
    )
    .option('--batch-size <n>', 'rows per transaction', '1000')
    .action((opts: { olderThan: string; auditOlderThan?: string; batchSize: string }) => {
      const days = positiveInteger('--older-than', opts.olderThan);
      const batchSize = positiveInteger('--batch-size', opts.batchSize);
      const auditDays =
        opts.auditOlderThan === undefined
          ? loadConfig().auditRetentionDays
          : auditPeriod(opts.auditOlderThan);
      return withDatabase('retention', async (database) => {
        const r = await runRetention(database, {
          days,
          auditDays,
          batchSize,
          nowMicros: systemClock.nowMicros(),
        });
        if (r.busy) throw new AdminError('another retention run holds the lock; try again later');
        return describeRetention(r);
      });
    });

  const checkoutsCmd = program
    .command('checkouts')
    .description('orders the ERP placed whose answer could not be stored (decision 0001)');
  checkoutsCmd
    .command('unconfirmed')
    .description('list the carts checked out unconfirmed')
    .action(() =>
      withDb(async (db) => {
        const rows = await unconfirmedCarts(db);
        if (rows.length === 0) return 'no cart is checked out unconfirmed';
        return rows
          .map(
            (r) =>
              `cart ${r.cart} of ${JSON.stringify(r.username)} (store ${r.store ?? 'none: warehouse'}, customer order number ${JSON.stringify(r.customerOrderNumber)}), unconfirmed since ${r.unconfirmedSince}`,
          )
          .join('\n');
      }),
    );
  checkoutsCmd
    .command('confirm')
    .description("record an unconfirmed cart's order as the ERP shows it")
    .argument('<cart>', 'cart id')
    .requiredOption('--order-id <id>', "the order's id in the ERP")
    .requiredOption('--order-number <number>', "the order's number in the ERP")
    .option('--queued', 'the ERP accepted it for later processing (202): timed_out')
    .action((cart: string, opts: { orderId: string; orderNumber: string; queued?: boolean }) => {
      if (!/^\d{1,10}$/.test(cart) || Number(cart) < 1 || Number(cart) > 2_147_483_647) {
        throw new AdminError(`<cart> must be a cart id, got ${JSON.stringify(cart)}`);
      }
      const id = Number(cart);
      return withDb(async (db) => {
        await confirmCheckout(
          db,
          { cart: id, orderId: opts.orderId, orderNumber: opts.orderNumber, queued: !!opts.queued },
          systemClock.nowMicros(),
        );
        return `recorded order ${JSON.stringify(opts.orderNumber)} for cart ${id}`;
      });
    });

  const storesCmd = program.command('stores').description('stores');
  storesCmd
    .command('create')
    .description('create or update a store')
    .requiredOption('--gln <gln>', 'global location number')
    .requiredOption('--name <name>', 'store name')
    .option('--active-period <HH:MM:SS>', 'how long a cart stays active')
    .option('--carts-for-random-control <n>', '1 in N checkouts draws a control (0 disables)')
    .action(
      (opts: {
        gln: string;
        name: string;
        activePeriod?: string;
        cartsForRandomControl?: string;
      }) => {
        const input = {
          gln: opts.gln,
          name: opts.name,
          activePeriod: opts.activePeriod,
          cartsForRandomControl:
            opts.cartsForRandomControl === undefined
              ? undefined
              : nonNegativeInteger(opts.cartsForRandomControl),
        };
        return withDb(async (db) => {
          const result = await upsertStore(db, input, systemClock.nowMicros());
          return `${result} store ${input.gln}`;
        });
      },
    );
  storesCmd
    .command('import')
    .description('create or update stores from a JSON array')
    .argument('<file>')
    .action((file: string) => {
      const json = readJson(file);
      return withDb(async (db) => {
        const count = await importStores(db, json, systemClock.nowMicros());
        return `imported ${count} store${count === 1 ? '' : 's'}`;
      });
    });

  program
    .command('options')
    .description('options')
    .command('set')
    .description('create or update an option')
    .argument('<name>')
    .argument('<value>')
    .option('--public', 'return it from GET options/')
    .option('--public-name <text>', 'name shown to users')
    .action((name: string, value: string, opts: { public?: boolean; publicName?: string }) =>
      withDb(async (db) => {
        const result = await setOption(db, name, value, {
          isPublic: opts.public,
          publicName: opts.publicName,
        });
        return `${result} option ${name}`;
      }),
    );

  const auditCmd = program.command('audit').description('the audit trail of staff actions');
  auditCmd
    .command('guard')
    .description(
      'make the trail append-only against the service role (run once as a superuser: DATABASE_URL)',
    )
    .action(() =>
      withDatabase(
        'audit guard',
        async (database) => {
          // Pending migrations are the service's to apply: as a superuser they would create
          // tables the service's role does not own.
          const status = await schemaStatus(database);
          if (!status.ok) throw new AdminError(status.message);
          const service = await applyAuditGuard(database).catch((err: Error) => {
            throw new AdminError(err.message);
          });
          return `audit_events belongs to ordering_audit: ${service} may read and append, and remove events older than 30 days only through audit_events_remove_before`;
        },
        { migrate: false },
      ),
    );
  auditCmd
    .command('export')
    .description('print the trail as a JSON array, oldest first')
    .option('--store <gln>', 'only events of this store')
    .option('--since <date>', 'only events after this date or date-time')
    .option('--until <date>', 'only events before this date or date-time')
    .action((flags: { store?: string; since?: string; until?: string }) =>
      withDb(async (db) => JSON.stringify(await exportAudit(db, flags), null, 1)),
    );

  program
    .command('seed')
    .description('seed data')
    .command('demo')
    .description(
      'demo stores, options and hours, and 90 days of carts (only into a database without carts)',
    )
    .option('--no-carts', 'stores, options and hours only')
    .action((flags: { carts: boolean }) =>
      withDb(async (db) => {
        await seedDemo(db, systemClock.nowMicros());
        if (!flags.carts) return 'demo data seeded (no carts)';
        const { carts } = await seedDemoCarts(db, systemClock.nowMicros());
        return carts > 0
          ? `demo data seeded (${carts} carts)`
          : 'demo data seeded (carts left as they were: the database already has carts)';
      }),
    );

  return program;
}

function oneLine(err: unknown): string {
  let message: string;
  if (err instanceof CommanderError) {
    message =
      err.code === 'commander.help'
        ? 'missing command (see --help)'
        : err.message.replace(/^error: /, '');
  } else if (err instanceof Error) {
    // Drizzle wraps driver errors in "Failed query: …"; the cause says what went wrong.
    message =
      err.message.startsWith('Failed query') && err.cause instanceof Error
        ? err.cause.message
        : err.message;
  } else {
    message = String(err);
  }
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

async function main(argv: string[]): Promise<number> {
  try {
    // With tracing on (bin/ordering-admin.js starts it), one span per command, named by the
    // command (`admin users erase`), never by its arguments; its statements under it.
    await withSpan('admin', {}, async (span) => {
      const program = buildProgram();
      program.hook('preAction', (_program, action) => {
        const names: string[] = [];
        for (let c: Command | null = action; c && c !== program; c = c.parent)
          names.unshift(c.name());
        span?.updateName(`admin ${names.join(' ')}`);
        span?.setAttribute('admin.command', names.join(' '));
      });
      await program.parseAsync(argv, { from: 'user' });
    });
    return 0;
  } catch (err) {
    // --help and --version end here with exit code 0.
    if (err instanceof CommanderError && err.exitCode === 0) return 0;
    // AdminError, ConfigError and unexpected errors alike: the message on one line, no stack.
    process.stderr.write(`error: ${oneLine(err)}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
await flushTracing();
process.exit(code);
