#!/usr/bin/env node
// The admin command, compiled (dist/src/admin/main.js, built first when the sources changed),
// wherever the bin is started from.
import { spawn } from 'node:child_process';

// On the embedded database the command runs a few statements and exits, yet V8 compiles
// PGlite's 9 MB of WebAssembly a second time with its optimizing tier in the background: ~2
// CPU-seconds and ~550 MB of memory the command never gets back (check-schema: 6.0 → 3.9
// CPU-s, peak RSS 1.02 → 0.45 GB with the baseline compiler alone, 2026-11-27). That is a V8
// flag, taken only at start: the command starts itself again with it. A server database loads
// no WebAssembly, so that path runs as it is. Embedded as src/config.ts decides it: no
// DATABASE_URL, or `memory://`.
const baselineOnly = '--liftoff-only';
const embedded = !process.env.DATABASE_URL || process.env.DATABASE_URL === 'memory://';
if (embedded && !process.execArgv.includes(baselineOnly)) {
  const child = spawn(
    process.execPath,
    [baselineOnly, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  // A signal sent to this process alone (a supervisor's SIGTERM) reaches the command; a
  // terminal's Ctrl-C reaches both, and this one waits for the command to finish.
  const forward = (signal) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, forward);
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else {
  await runCommand();
}

async function runCommand() {
  const { buildServer } = await import('../scripts/build.mjs');
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
}
