#!/usr/bin/env node
// Runs the TypeScript admin command through tsx, wherever the bin is started from.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/admin/main.ts', import.meta.url));
// Resolved from this file, not the working directory, so tsx is found from anywhere.
const tsx = import.meta.resolve('tsx');

const child = spawn(process.execPath, ['--import', tsx, main, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('error', (err) => {
  process.stderr.write(`error: ${err.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
