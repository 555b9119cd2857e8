/** The part of fs-native-extensions (no types of its own) that src/db/data-dir-lock.ts uses. */
declare module 'fs-native-extensions' {
  interface LockOptions {
    /** A shared (read) lock instead of an exclusive one. */
    shared?: boolean;
  }
  /** False when another open file description holds a conflicting lock on the range. */
  export function tryLock(
    fd: number,
    offset: number,
    length: number,
    options?: LockOptions,
  ): boolean;
  /** Blocks the thread until the range is granted. */
  export function waitForLockSync(
    fd: number,
    offset: number,
    length: number,
    options?: LockOptions,
  ): void;
  export function unlock(fd: number, offset: number, length: number): void;
}
