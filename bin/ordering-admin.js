#!/usr/bin/env node
// The admin command, compiled (dist/src/admin/main.js, built first when the sources changed),
// wherever the bin is started from.
import { buildServer } from '../scripts/build.mjs';

try {
  await buildServer({ ifStale: true });
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
await import('../dist/src/admin/main.js');
