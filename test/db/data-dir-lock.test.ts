import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUse, LOCK_FILE, lockDataDir } from '../../src/db/data-dir-lock.js';

/**
 * The embedded database's directory lock: a live holder refuses every other opener (naming
 * it), a lock left by a dead process or an empty one left long ago is taken over, and a lock
 * being written is never mistaken for a stale one.
 */
const root = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const dir = join(root, String(++n));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  return dir;
};
const lockOf = (dir: string) => join(dir, LOCK_FILE);

/** A live process other than this one (its pid is alive until killed). */
async function liveProcess() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  return child;
}

describe('the data directory lock', () => {
  it('refuses a second opener while the holder lives, naming it; takes over once it died', async () => {
    const dir = fresh();
    const holder = await liveProcess();
    writeFileSync(lockOf(dir), `${holder.pid} ${hostname()} the service\n`);
    expect(() => lockDataDir(dir, 'ordering-admin backup')).toThrow(DataDirInUse);
    expect(() => lockDataDir(dir, 'ordering-admin backup')).toThrow(
      new RegExp(`in use by the service \\(pid ${holder.pid}\\)`),
    );
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const release = lockDataDir(dir, 'ordering-admin backup');
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(
      `${process.pid} ${hostname()} ordering-admin backup\n`,
    );
    release();
    expect(existsSync(lockOf(dir))).toBe(false);
  });

  it('refuses a lock of another host (a shared volume) and never releases one it does not hold', () => {
    const dir = fresh();
    writeFileSync(lockOf(dir), '4242 another-host the service\n');
    expect(() => lockDataDir(dir, 'x')).toThrow(/on host another-host/);
    const mine = fresh();
    const release = lockDataDir(mine, 'the service');
    // A later opener took it over (after a crash, say): the release leaves it alone.
    writeFileSync(lockOf(mine), `999999 ${hostname()} someone else\n`);
    release();
    expect(readFileSync(lockOf(mine), 'utf8')).toContain('someone else');
  });

  it('waits for a lock being written instead of taking it over; an empty one left long ago is stale', async () => {
    const dir = fresh();
    // Created but not yet written: its creator (another process) is between open and write.
    writeFileSync(lockOf(dir), '');
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `setTimeout(() => require('fs').writeFileSync(${JSON.stringify(lockOf(dir))}, process.pid + ' ' + require('os').hostname() + ' the service\\n'), 100); setInterval(() => {}, 1000)`,
      ],
      { stdio: 'ignore' },
    );
    await once(writer, 'spawn');
    try {
      // Waits for the content, then finds a live holder: refused, not taken over.
      expect(() => lockDataDir(dir, 'x')).toThrow(new RegExp(`pid ${writer.pid}`));
    } finally {
      writer.kill('SIGKILL');
    }
    const old = fresh();
    writeFileSync(lockOf(old), '');
    const past = (Date.now() - 60_000) / 1000;
    utimesSync(lockOf(old), past, past);
    const release = lockDataDir(old, 'the service');
    expect(readFileSync(lockOf(old), 'utf8')).toContain('the service');
    release();
  });
});
