import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that never touch the database server (their services run on embedded or in-memory
 * databases, or none): they run the same in both of CI's passes, so the PostgreSQL pass
 * (`TEST_SERVER_PASS=1`, .ci/run) leaves them to the embedded one.
 */
const DATABASE_INDEPENDENT = [
  'test/build.test.ts',
  'test/config.test.ts',
  'test/console/i18n.test.ts',
  'test/db/data-dir-lock.test.ts',
  'test/db/errors.test.ts',
  'test/deploy/patroni.test.ts',
  'test/deploy/prometheus.test.ts',
  'test/drain.test.ts',
  'test/free-port.test.ts',
  'test/http/cors-browser.test.ts',
  'test/http/openapi-client.test.ts',
  'test/http/trust-proxy.test.ts',
  'test/http/write-with-caller.test.ts',
  'test/log.test.ts',
  'test/main.test.ts',
  'test/retention/schedule.test.ts',
  'test/runtime.test.ts',
  'test/simulator-loading.test.ts',
  'test/startup.test.ts',
  'test/tracing/off.test.ts',
  'test/tracing/trust.test.ts',
  'test/users/restore-production.test.ts',
];

/**
 * Files that use a database only in passing, their subject being elsewhere: run once, in the
 * embedded pass. The hostile-ERP suite is about what the service does with an ERP's answers
 * (158 cases); what it stores from them is checked on both databases by
 * test/carts/checkout-answers.test.ts and test/upstream/erp-answers.test.ts. The console's
 * tablet checks are about the page, not the database.
 */
const EMBEDDED_PASS_ONLY = [
  'test/upstream/hostile-erp.test.ts',
  // Layout, touch targets and axe-core in both languages: the browser's subject; the console
  // against the database server is test/console/console.test.ts.
  'test/console/tablet.test.ts',
];

/**
 * The longest files, started first (seconds in CI's embedded pass, then its PostgreSQL pass,
 * fresh clone, 2026-11-27 evening). On a fresh clone vitest knows no durations and starts
 * larger files first: the longest, started late, kept one worker busy alone at the end of a
 * pass (the embedded pass: 597 s against 466 s of work per worker; the PostgreSQL pass: 370
 * against 265). A third worker on two cores made the embedded pass longer (602 → 636 s).
 */
const SLOW_FIRST = [
  'test/admin/backup.test.ts', // 134, 37
  'test/http/hostile-input.test.ts', // 58, 54
  'test/admin/cli.test.ts', // 80, 15
  'test/admin/end-sessions.test.ts', // 24, 54
  'test/admin/demo-start.test.ts', // 54, –
  'test/console/tablet.test.ts', // 39, –
  'test/db/standby.test.ts', // –, 32
  'test/upstream/hostile-erp.test.ts', // 26, –
  'test/db/failover.test.ts', // –, 23
  'test/upstream/hostile-erp-process.test.ts', // 20, 11
  'test/production-wiring.test.ts', // 19, 10
  'test/users/restore-timing.test.ts', // 19, 18
  'test/db/pgbouncer.test.ts', // –, 19
  'test/db/restart.test.ts', // –, 18
  'test/db/data-dir-lock.test.ts', // 18, –
  'test/startup.test.ts', // 17, –
  'test/console/console.test.ts', // 14, 17
  'test/db/faults.test.ts', // –, 16
];

/** vitest's order (known durations, else size), with SLOW_FIRST's files ahead of the rest. */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOW_FIRST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fleet tests run on their own: `npm run test:fleet` (vitest.fleet.config.ts) and
    // `npm run test:failover` (vitest.failover.config.ts).
    exclude: [
      'test/fleet/**',
      'test/failover/**',
      'node_modules/**',
      ...(process.env.TEST_SERVER_PASS ? [...DATABASE_INDEPENDENT, ...EMBEDDED_PASS_ONLY] : []),
    ],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Files of one worker share its module cache: each file still gets its own databases,
    // servers and simulators (the helpers make them per file), but the app's ~1,000 modules
    // are loaded once per worker instead of once per file. The embedded pass on two cores:
    // 24.4 → 8.6 min, of which module imports 557 → 16 s (2026-11-27, same machine).
    isolate: false,
    // More files at a time than cores (vitest's default on two cores is one): files wait on
    // subprocesses, sockets and timers as much as on the CPU. On two cores, the embedded pass:
    // one worker 8.3 min, two 5.6; two 222 s, three 188 (2026-11-28; an earlier, busier hour
    // saw three slower, 602 → 636 s). The server passes wait on PostgreSQL, PgBouncer, Redis
    // and timers more still (their test processes used 125 CPU-s in 164 s with two workers):
    // four workers, 164 → 116 s.
    maxWorkers: process.env.TEST_DATABASE_URL
      ? Math.max(4, availableParallelism())
      : Math.max(3, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Tests of one file share a database and a server; files run in parallel.
    sequence: { concurrent: false, sequencer: SlowFirstSequencer },
  },
});
