import { defineConfig } from 'vitest/config';

/**
 * `npm run test:failover`: the database failover test (test/failover/), apart from `npm test`
 * and the fleet test (it starts etcd, two Patroni-managed PostgreSQL nodes, HAProxy, two
 * PgBouncers, Redis and two instances, and kills the primary: about two minutes). Built as
 * the suite is (test/helpers/global-setup.ts builds dist/ when stale).
 */
export default defineConfig({
  test: {
    include: ['test/failover/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 180_000,
    hookTimeout: 240_000,
    sequence: { concurrent: false },
  },
});
