import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseTimestamp } from '../clock.js';
import { AdminError } from './commands.js';

/**
 * The record of erasures kept outside the database (ERASURE_JOURNAL, default
 * DATA_DIR/erasures.jsonl), so that a restored backup taken before an erasure can have it
 * applied again (decision 0012). One JSON line per erasure, holding no personal data: the
 * user row's id and its creation time. Ids come back after a restore of an older backup
 * (the sequence goes back with it), so a row is matched on both: a newer person who was
 * given the same id was created later and is never taken for the erased one.
 */
export interface ErasureRecord {
  id: number;
  /** The row's `created`, ISO 8601 with microseconds. */
  created: string;
  /** When it was erased, ISO 8601 with microseconds. */
  erased_at: string;
}

/** Appends one erasure, flushed to disk before the erasure commits (mode 0600). */
export function appendErasure(file: string, record: ErasureRecord): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const fd = openSync(file, 'a', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AdminError(
      `cannot record the erasure in ${file} (ERASURE_JOURNAL): ${code ?? (error as Error).message}; nothing was erased`,
    );
  }
}

const isRecord = (value: unknown): value is ErasureRecord => {
  const r = value as Partial<ErasureRecord> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    Number.isSafeInteger(r.id) &&
    (r.id as number) > 0 &&
    typeof r.created === 'string' &&
    !Number.isNaN(parseTimestamp(r.created)) &&
    typeof r.erased_at === 'string'
  );
};

/** Every erasure recorded in `file`, oldest first; none when the file does not exist. */
export function readErasures(file: string): ErasureRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    throw new AdminError(`cannot read ${file} (ERASURE_JOURNAL): ${code ?? error}`);
  }
  const records: ErasureRecord[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    // A line cut by a crash while it was written is the last one: its erasure never
    // committed (the line is flushed before the commit), so it is skipped.
    if (!isRecord(value)) {
      if (index === lines.length - 1) return;
      throw new AdminError(`${file} line ${index + 1} is not an erasure record`);
    }
    records.push(value);
  });
  return records;
}
