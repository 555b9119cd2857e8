import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * The embedded database is single-process: two processes on one data directory corrupt it.
 * PGlite's own `postmaster.pid` always holds the pid -42 (WebAssembly has no process), so it
 * cannot tell a live owner from a crashed one. Whoever opens `DATA_DIR` (the service, each
 * admin command) holds `DATA_DIR/pglite.lock` instead: pid, host and what holds it.
 */
export const LOCK_FILE = 'pglite.lock';

export class DataDirInUse extends Error {}

interface Holder {
  pid: number;
  host: string;
  role: string;
}

/** How long a lock file may stay empty while its creator writes it (a few microseconds). */
const WRITING_MS = 2000;

function readHolder(file: string): Holder | 'writing' | undefined {
  let text: string;
  let modified: number;
  try {
    text = readFileSync(file, 'utf8');
    modified = statSync(file).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // Created ('wx') but not yet written: its creator holds it. Only an empty file left long
  // ago (a crash between the two calls) is stale.
  if (text.trim() === '') {
    return Date.now() - modified < WRITING_MS ? 'writing' : { pid: 0, host: hostname(), role: '' };
  }
  const [pid, host, ...role] = text.trim().split(' ');
  return { pid: Number(pid), host: host ?? '', role: role.join(' ') };
}

/** A short synchronous pause (the lock is taken before anything else runs). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A process of this host that still runs (EPERM: it runs under another user). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why `holder` still holds the directory, or undefined when its lock is stale. */
function liveHolder(holder: Holder): string | undefined {
  if (holder.host !== hostname()) {
    // Another machine (a shared volume): its processes cannot be checked from here.
    return `${holder.role || 'a process'} (pid ${holder.pid}) on host ${holder.host}`;
  }
  // Our own pid: a previous run of a container whose main process is always pid 1.
  if (holder.pid === process.pid || !alive(holder.pid)) return undefined;
  return `${holder.role || 'a process'} (pid ${holder.pid})`;
}

/**
 * Takes the lock of `dataDir` for `role` (what the message of a refused opener names), or
 * throws DataDirInUse naming the live holder. A lock left by a process that died is taken
 * over. Returns the release.
 */
export function lockDataDir(dataDir: string, role: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  const line = `${process.pid} ${hostname()} ${role}\n`;
  for (let attempt = 0; attempt < 200; attempt++) {
    let fd: number;
    try {
      // 'wx': created here or not at all, so two openers cannot both win.
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder === 'writing') {
        pause(20);
        continue;
      }
      if (holder) {
        const who = liveHolder(holder);
        if (who) {
          throw new DataDirInUse(
            `the embedded database in ${dataDir} is in use by ${who}; stop it first (its lock: ${file})`,
          );
        }
        try {
          unlinkSync(file);
        } catch (unlinkError) {
          if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError;
        }
      }
      continue;
    }
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
    return () => {
      // Only our own lock: never one a later opener took over.
      const holder = readHolder(file);
      if (
        holder &&
        holder !== 'writing' &&
        holder.pid === process.pid &&
        holder.host === hostname()
      ) {
        try {
          unlinkSync(file);
        } catch {
          // Already gone.
        }
      }
    };
  }
  throw new DataDirInUse(`could not take the lock ${file}: other processes keep taking it`);
}

/** Who holds the lock of `dataDir` now, or undefined when nobody live does. */
export function dataDirHolder(dataDir: string): string | undefined {
  const holder = readHolder(join(dataDir, LOCK_FILE));
  if (holder === 'writing') return 'a process taking the lock';
  return holder ? liveHolder(holder) : undefined;
}
