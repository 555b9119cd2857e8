import { closeSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DataDirInUse, lockDataDir } from '../../src/db/data-dir-lock.js';

/**
 * A process that opens data directories on command, for test/db/data-dir-lock.test.ts (run
 * with `node --import tsx`). One JSON command per line on stdin, one answer per line on
 * stdout:
 * - `{"lock": dir, "role": r, "at": ms}`: waits (spinning) until the epoch time `at`, so that
 *   several processes try at the same instant, then answers `won`, or `lost <message>`
 *   when refused (DataDirInUse), or `error <message>`.
 * - `{"churn": dir, "rounds": n}`: n times, takes the lock of dir when it can and, while it
 *   holds it, creates and removes `dir/holding` exclusively; answers `churned <wins> <overlaps>`,
 *   an overlap being a `holding` file already there (another process held the lock too).
 * - `{"release": true}`: releases what it holds, answers `released`.
 */
let release: (() => void) | undefined;
const now = () => performance.timeOrigin + performance.now();
const answer = (line: string) => process.stdout.write(`${line.replace(/\n/g, ' ')}\n`);

process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as {
    lock?: string;
    role?: string;
    at?: number;
    churn?: string;
    rounds?: number;
  };
  if (command.churn) {
    const holding = join(command.churn, 'holding');
    let wins = 0;
    let overlaps = 0;
    for (let round = 0; round < (command.rounds ?? 0); round++) {
      let held: () => void;
      try {
        held = lockDataDir(command.churn, 'a churner');
      } catch (error) {
        if (error instanceof DataDirInUse) continue;
        throw error;
      }
      wins += 1;
      try {
        closeSync(openSync(holding, 'wx'));
        unlinkSync(holding);
      } catch {
        overlaps += 1;
      }
      held();
    }
    answer(`churned ${wins} ${overlaps}`);
  } else if (command.lock) {
    while (now() < (command.at ?? 0)) {
      // Spinning: a timer would wake each process at a different millisecond.
    }
    try {
      release = lockDataDir(command.lock, command.role ?? 'a test opener');
      answer('won');
    } catch (error) {
      answer(`${error instanceof DataDirInUse ? 'lost' : 'error'} ${(error as Error).message}`);
    }
  } else {
    release?.();
    release = undefined;
    answer('released');
  }
}
