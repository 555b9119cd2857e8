import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUse, LOCK_FILE, lockDataDir } from '../../src/db/data-dir-lock.js';
import { runProcess } from '../helpers/process.js';

/**
 * The embedded database's directory lock, between processes as it is used: exactly one of
 * several openers starting at the same instant wins, with or without a lock left behind; a
 * live holder refuses every other opener, naming it; a dead one's lock is taken over whatever
 * host name it wrote; the admin command is refused while the service holds DATA_DIR.
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
const openerScript = fileURLToPath(new URL('../helpers/lock-opener.ts', import.meta.url));

/** A process of its own that takes and releases locks on command (test/helpers/lock-opener.ts). */
class Opener {
  private readonly answers: string[] = [];
  private waiting?: (line: string) => void;
  readonly exited: Promise<unknown>;

  private constructor(readonly child: ChildProcess) {
    this.exited = once(child, 'exit');
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      } else this.answers.push(line);
    });
  }

  /** With `host`: under that host name, in a UTS namespace of its own (a second container). */
  static async start(host?: string): Promise<Opener> {
    const node = [process.execPath, '--import', 'tsx', openerScript];
    const [command, ...args] = host
      ? ['unshare', '-u', 'sh', '-c', `hostname ${host} && exec "$@"`, 'sh', ...node]
      : node;
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const opener = new Opener(child);
    expect(await opener.next()).toBe('ready');
    return opener;
  }

  get pid(): number {
    return this.child.pid!;
  }

  next(): Promise<string> {
    const line = this.answers.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  send(command: object): void {
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
  }

  lock(dir: string, role: string, at = 0): Promise<string> {
    this.send({ lock: dir, role, at });
    return this.next();
  }

  async release(): Promise<void> {
    this.send({ release: true });
    expect(await this.next()).toBe('released');
  }

  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** A pid no process has now (a child that exited). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

/** Whether this machine lets a process take a host name of its own (root, unshare). */
const HOST_NAMES =
  spawnSync('unshare', ['-u', 'hostname', 'lock-test'], { stdio: 'ignore' }).status === 0;
if (!HOST_NAMES) {
  console.warn(
    'data-dir-lock: the live holder under another host name skipped: unshare -u is not allowed here (needs root).',
  );
}

const inUseBy = (role: string, pid: number, host = hostname()) =>
  new RegExp(`in use by ${role} \\(pid ${pid}\\) on host ${host};`);

describe('the data directory lock', () => {
  it('is won by exactly one of four processes opening at the same instant, over no lock, a dead one of this host, of another', {
    timeout: 120_000,
  }, async () => {
    const openers = await Promise.all([1, 2, 3, 4].map(() => Opener.start()));
    const dead = await deadPid();
    // A dead holder of this host twice as often: the old takeover let two in there, 7 of 150.
    const leftBehind = [
      undefined,
      `${dead} ${hostname()} the service\n`,
      `${dead} a-container-gone-since the service\n`,
      `${dead} ${hostname()} the service\n`,
    ];
    const winners: number[] = [];
    const wrong: string[] = [];
    let leftOver = 0;
    try {
      const started = Date.now();
      // 150 trials, or as many as fit in 20 s on a loaded machine.
      for (let trial = 0; trial < 150 && Date.now() - started < 20_000; trial++) {
        const dir = fresh();
        const left = leftBehind[trial % leftBehind.length];
        if (left) writeFileSync(lockOf(dir), left);
        const at = Date.now() + 30;
        const answers = await Promise.all(openers.map((o) => o.lock(dir, 'racer', at)));
        const won = answers.flatMap((a, i) => (a === 'won' ? [openers[i]] : []));
        winners.push(won.length);
        // Each refused opener names the winner, from the text it wrote.
        for (const answer of answers.filter((a) => a !== 'won')) {
          if (won.length !== 1 || !inUseBy('racer', won[0].pid).test(answer)) wrong.push(answer);
        }
        await Promise.all(openers.map((o) => o.release()));
        if (existsSync(lockOf(dir))) leftOver += 1;
      }
    } finally {
      await Promise.all(openers.map((o) => o.kill()));
    }
    expect(winners.length).toBeGreaterThanOrEqual(30);
    expect(winners.filter((w) => w !== 1)).toEqual([]);
    expect(wrong).toEqual([]);
    expect(leftOver).toBe(0);
  });

  it('is held by one process at a time while four take and release it over and over', {
    timeout: 120_000,
  }, async () => {
    const dir = fresh();
    const openers = await Promise.all([1, 2, 3, 4].map(() => Opener.start()));
    try {
      for (const opener of openers) opener.send({ churn: dir, rounds: 1000 });
      const answers = await Promise.all(openers.map((o) => o.next()));
      const counts = answers.map((a) =>
        a
          .match(/^churned (\d+) (\d+)$/)
          ?.slice(1)
          .map(Number),
      );
      expect(
        counts.every((c) => c !== undefined),
        answers.join('; '),
      ).toBe(true);
      // Releases removed the file while others had it open: they found it gone and opened anew.
      expect(counts.reduce((sum, c) => sum + c![0], 0)).toBeGreaterThan(100);
      expect(counts.map((c) => c![1])).toEqual([0, 0, 0, 0]);
    } finally {
      await Promise.all(openers.map((o) => o.kill()));
    }
  });

  it('refuses every opener while its holder lives, naming it; takes over once it was killed', async () => {
    const dir = fresh();
    const service = await Opener.start();
    try {
      expect(await service.lock(dir, 'the service')).toBe('won');
      expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${service.pid} ${hostname()} the service\n`);
      expect(() => lockDataDir(dir, 'ordering-admin backup')).toThrow(DataDirInUse);
      expect(() => lockDataDir(dir, 'ordering-admin backup')).toThrow(
        inUseBy('the service', service.pid),
      );
      // Another process too, and the same process a second time.
      const other = await Opener.start();
      expect(await other.lock(dir, 'x')).toMatch(inUseBy('the service', service.pid));
      await other.kill();
      expect(await service.lock(dir, 'the service')).toMatch(inUseBy('the service', service.pid));
    } finally {
      await service.kill();
    }
    // SIGKILL: no release ran, the file and its text are still there; the kernel let go.
    expect(readFileSync(lockOf(dir), 'utf8')).toContain(`${service.pid} `);
    const release = lockDataDir(dir, 'ordering-admin backup');
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(
      `${process.pid} ${hostname()} ordering-admin backup\n`,
    );
    release();
    expect(existsSync(lockOf(dir))).toBe(false);
    release();
  });

  it('names the holder in one line of printable text, whatever its file holds', async () => {
    const dir = fresh();
    const holder = await Opener.start();
    try {
      expect(await holder.lock(dir, 'the\nservice\u001b[2J')).toBe('won');
      let message = '';
      try {
        lockDataDir(dir, 'x');
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/in use by the\?service\?\[2J \(pid \d+\) on host /);
      expect(message).toMatch(/^[\x20-\x7e]+$/);
    } finally {
      await holder.kill();
    }
  });

  it('takes over a lock whose text names another host and a dead pid (a container re-created)', async () => {
    const dir = fresh();
    writeFileSync(lockOf(dir), `${await deadPid()} 3f1c2a9b7d04 the service\n`);
    const release = lockDataDir(dir, 'the service');
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid} ${hostname()} the service\n`);
    release();
    // Nor does a live pid of this host in the text count: only the kernel's lock does.
    writeFileSync(lockOf(dir), `${process.ppid} ${hostname()} the service\n`);
    lockDataDir(dir, 'the service')();
  });

  it.skipIf(!HOST_NAMES)(
    'refuses a live holder under another host name on the same volume, naming it; takes over once it was killed',
    async () => {
      const dir = fresh();
      const other = await Opener.start('lock-test-other');
      try {
        expect(await other.lock(dir, 'the service')).toBe('won');
        expect(() => lockDataDir(dir, 'the service')).toThrow(
          inUseBy('the service', other.pid, 'lock-test-other'),
        );
      } finally {
        await other.kill();
      }
      const release = lockDataDir(dir, 'the service');
      expect(readFileSync(lockOf(dir), 'utf8')).toBe(`${process.pid} ${hostname()} the service\n`);
      release();
    },
  );

  it('never removes a lock file that is no longer its own; follows no symlink', async () => {
    const dir = fresh();
    const release = lockDataDir(dir, 'the service');
    // Replaced by hand while held: the release leaves the new file alone.
    writeFileSync(join(dir, 'other'), 'someone else\n');
    renameSync(join(dir, 'other'), lockOf(dir));
    release();
    expect(readFileSync(lockOf(dir), 'utf8')).toBe('someone else\n');

    const linked = fresh();
    const target = join(linked, 'target');
    writeFileSync(target, 'not a lock\n');
    symlinkSync(target, lockOf(linked));
    expect(() => lockDataDir(linked, 'the service')).toThrow(/ELOOP/);
    expect(readFileSync(target, 'utf8')).toBe('not a lock\n');
  });

  it('refuses the admin command while the service holds DATA_DIR, and lets it in once the service was killed', {
    timeout: 180_000,
  }, async () => {
    const dir = fresh();
    const bin = fileURLToPath(new URL('../../bin/ordering-admin.js', import.meta.url));
    // Not a backup: the restore takes the lock first, then finds that out.
    const file = join(dir, 'not-a-backup.tar.gz');
    writeFileSync(file, 'not a tarball');
    const { DATABASE_URL: _, ...rest } = process.env;
    const env = { ...rest, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATA_DIR: dir };
    const service = await Opener.start();
    expect(await service.lock(dir, 'the service')).toBe('won');
    const refused = await runProcess(process.execPath, [bin, 'restore', file], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/^error: [^\n]+\n$/);
    expect(refused.stderr).toMatch(inUseBy('the service', service.pid));
    await service.kill();
    const admitted = await runProcess(process.execPath, [bin, 'restore', file], { env });
    expect(admitted.code).not.toBe(0);
    expect(admitted.stderr).toMatch(/is not a backup of the embedded database/);
    expect(existsSync(lockOf(dir))).toBe(false);
  });
  // A lock of the open file description: closing another descriptor of the file (the trap of
  // plain POSIX locks, which a process loses on any close) takes nothing away.
  it('is not released by another descriptor of the same file being closed', () => {
    const dir = fresh();
    const release = lockDataDir(dir, 'the service');
    closeSync(openSync(lockOf(dir), 'r'));
    expect(() => lockDataDir(dir, 'x')).toThrow(inUseBy('the service', process.pid));
    release();
  });
});
