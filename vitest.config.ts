import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fleet test runs on its own: `npm run test:fleet` (vitest.fleet.config.ts).
    exclude: ['test/fleet/**', 'node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Tests of one file share a database and a server; files run in parallel.
    sequence: { concurrent: false },
  },
});
