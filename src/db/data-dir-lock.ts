import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { tryLock, unlock, waitForLockSync } from 'fs-native-extensions';

/**
 * The embedded database is single-process: two processes on one data directory corrupt it.
 * PGlite's own `postmaster.pid` always holds the pid -42 (WebAssembly has no process), so it
 * cannot tell a live owner from a crashed one. Whoever opens `DATA_DIR` (the service, each
 * admin command) holds an exclusive kernel lock on `DATA_DIR/pglite.lock` for as long as it
 * has the database open: an open file description lock (`fcntl(F_OFD_SETLK)` on Linux,
 * `LockFileEx` on Windows, through fs-native-extensions). The kernel grants it to one open
 * file at a time, atomically, and drops it when its holder dies, however it dies. So a lock
 * is held exactly while its holder runs: no pid or host name is checked, and a dead holder's
 * lock is free at once, whatever host name it wrote (a container re-created with a new one).
 * The file's text (pid, host, role) only names the live holder to a refused opener.
 */
export const LOCK_FILE = 'pglite.lock';

export class DataDirInUse extends Error {}

/** Byte 0: held for as long as the database is open. */
const HELD = 0;
/**
 * Byte 1, the door: held for microseconds around each attempt and each release, so that a
 * refused opener reads the text whole and from the live holder (a winner writes its line
 * before it opens the door). macOS locks whole files (flock), where the door would be the
 * same lock as the holder's: there it goes without one, and a refused opener may name the
 * previous holder during the microseconds of a takeover.
 */
const DOOR = 1;
const hasDoor = process.platform !== 'darwin';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

function cannotLock(file: string, error: unknown): Error {
  return new Error(
    `cannot lock ${file} (${codeOf(error)}): DATA_DIR needs a file system with file locks (a local disk, or NFS with its lock service)`,
  );
}

/** Whether `fd` is still the file at `file` (not removed by a release, nor replaced). */
function isAt(fd: number, file: string): boolean {
  const held = fstatSync(fd);
  const there = statSync(file, { throwIfNoEntry: false });
  return there !== undefined && there.ino === held.ino && there.dev === held.dev;
}

function throughDoor<T>(fd: number, file: string, work: () => T): T {
  if (!hasDoor) return work();
  for (;;) {
    try {
      waitForLockSync(fd, DOOR, 1);
      break;
    } catch (error) {
      // A signal during the wait: wait again.
      if (codeOf(error) !== 'EINTR') throw cannotLock(file, error);
    }
  }
  try {
    return work();
  } finally {
    unlock(fd, DOOR, 1);
  }
}

/** The holder a lock file's text names: "pid host role". */
function holderNamed(fd: number): string {
  const buffer = Buffer.alloc(1024);
  const length = readSync(fd, buffer, 0, buffer.length, 0);
  // Printable ASCII only: the message is one line of the admin command's stderr.
  const text = buffer.subarray(0, length).toString('latin1').trim();
  const [pid, host, ...role] = text.replace(/[^\x20-\x7e]/g, '?').split(' ');
  if (!pid) return 'a process (its lock file names none)';
  return `${role.join(' ') || 'a process'} (pid ${pid}) on host ${host}`;
}

type Attempt = { won: true } | { won: false; holder?: string };

/**
 * Takes the lock of `dataDir` for `role` (what the message of a refused opener names), or
 * throws DataDirInUse naming the live holder. A lock whose holder died is free. Returns the
 * release.
 */
export function lockDataDir(dataDir: string, role: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  const line = `${process.pid} ${hostname()} ${role}\n`;
  // More than one turn only when a holder releases (removes the file) while we open it.
  for (let turn = 0; turn < 100; turn++) {
    // No symlink followed: a link planted in DATA_DIR must not make us truncate its target.
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
    let attempt: Attempt;
    try {
      attempt = throughDoor(fd, file, (): Attempt => {
        let won: boolean;
        try {
          won = tryLock(fd, HELD, 1);
        } catch (error) {
          throw cannotLock(file, error);
        }
        // Opened just before its holder released and removed it: the lock that counts is
        // the one of the file now at the path.
        if (!isAt(fd, file)) return { won: false };
        if (!won) return { won: false, holder: holderNamed(fd) };
        ftruncateSync(fd, 0);
        writeSync(fd, line, 0);
        return { won: true };
      });
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    if (attempt.won) return releaseOf(fd, file);
    closeSync(fd);
    if (attempt.holder) {
      throw new DataDirInUse(
        `the embedded database in ${dataDir} is in use by ${attempt.holder}; stop it first (its lock: ${file})`,
      );
    }
  }
  throw new DataDirInUse(`could not take the lock ${file}: other processes keep releasing it`);
}

function releaseOf(fd: number, file: string): () => void {
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    try {
      // Removed while still held, and only if it is still ours (not replaced by hand): an
      // opener that opened it meanwhile finds it gone once it gets the lock, and opens anew.
      throughDoor(fd, file, () => {
        if (isAt(fd, file)) unlinkSync(file);
      });
    } catch {
      // Left in place: free once closed, the next opener takes it.
    } finally {
      closeSync(fd);
    }
  };
}
