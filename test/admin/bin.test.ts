import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/db/data-dir-lock.js';
import { embeddedOnlySkipped, migratedDataDir } from '../helpers/db.js';
import { runProcess, spawnWatched } from '../helpers/process.js';
import { until } from '../helpers/wait.js';

/**
 * bin/ordering-admin.js on the embedded database starts the command again under V8's baseline
 * compiler (--liftoff-only): the command is then a child, which a signal to the bin must
 * still reach, and whose exit the bin reports as its own.
 */
const bin = fileURLToPath(new URL('../../bin/ordering-admin.js', import.meta.url));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(embeddedOnlySkipped)('the admin bin on the embedded database', () => {
  it('runs the command under the baseline compiler, and a SIGTERM to the bin stops the command', {
    timeout: 120_000,
  }, async () => {
    const dataDir = migratedDataDir();
    const { DATABASE_URL: _, ...rest } = process.env;
    const { child, output, exited } = spawnWatched(process.execPath, [bin, 'seed', 'demo'], {
      ...rest,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
    });
    // The command takes DATA_DIR's lock first, then seeds 90 days of carts for seconds more.
    const lock = join(dataDir, LOCK_FILE);
    await until(
      () => existsSync(lock) && readFileSync(lock, 'utf8').includes('\n'),
      'the command holds DATA_DIR',
      60_000,
    );
    const pid = Number(readFileSync(lock, 'utf8').split(' ')[0]);
    expect(pid).not.toBe(child.pid);
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain('--liftoff-only');
    expect(cmdline).toContain(bin);

    child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }, output()).toEqual({ code: null, signal: 'SIGTERM' });
    // The bin waited for the command: nothing is left running on DATA_DIR.
    expect(alive(pid)).toBe(false);
  });

  it('runs a command on memory:// under the baseline compiler too', {
    timeout: 60_000,
  }, async () => {
    const { child, output, exited } = spawnWatched(process.execPath, [bin, 'seed', 'demo'], {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: 'memory://',
    });
    const children = `/proc/${child.pid}/task/${child.pid}/children`;
    const cmdline = (pid: number | undefined) => readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    let pid: number | undefined;
    // Started: a child that has run its exec (until then a forked child shows the bin's own
    // command line).
    await until(
      () => {
        pid = Number(readFileSync(children, 'utf8').trim().split(' ')[0]) || undefined;
        return pid !== undefined && cmdline(pid) !== cmdline(child.pid);
      },
      'the command started',
      30_000,
    );
    expect(cmdline(pid).split('\0')).toContain('--liftoff-only');
    child.kill('SIGTERM');
    expect((await exited)[1], output()).toBe('SIGTERM');
  });

  it("reports the command's exit code and output as its own", { timeout: 60_000 }, async () => {
    const { DATABASE_URL: _, ...rest } = process.env;
    const run = await runProcess(process.execPath, [bin, 'users', 'export', 'nobody'], {
      env: { ...rest, NODE_ENV: 'development', DATA_DIR: migratedDataDir() },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error: unknown user "nobody"\n');
  });
});
