import { defineConfig } from 'vitest/config';

/**
 * `npm run test:fleet`: the fleet test (test/fleet/), apart from `npm test` (it starts
 * HAProxy, PgBouncer, Redis and three instances, and takes a few minutes). Built as the
 * suite is (test/helpers/global-setup.ts builds dist/ when stale).
 */
export default defineConfig({
  test: {
    include: ['test/fleet/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 240_000,
    hookTimeout: 180_000,
    sequence: { concurrent: false },
  },
});
