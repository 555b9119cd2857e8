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
// Refuses an older Node before OpenTelemetry (which needs a newer one) could load.
await import('../dist/src/runtime.js');
// With the OTEL_* variables (docs/operations.md "Tracing"), before the command's modules load.
const { tracingWanted } = await import('../dist/src/tracing/enabled.js');
if (tracingWanted(process.env)) {
  const { startTracing } = await import('../dist/src/tracing/sdk.js');
  startTracing({ serviceName: 'ordering-admin' });
}
await import('../dist/src/admin/main.js');
