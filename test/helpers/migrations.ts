import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { migrationsFolder } from '../../src/db/client.js';

/**
 * The migrations folder as it was before the migration whose tag ends with `tagSuffix` (a copy
 * in `work`, its journal cut there): a database of the release before it, for migration tests.
 */
export function migrationsBefore(work: string, tagSuffix: string): string {
  const before = join(work, 'before');
  cpSync(migrationsFolder, before, { recursive: true });
  const file = join(before, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(file, 'utf8'));
  const at = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith(tagSuffix));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(file, JSON.stringify(journal));
  return before;
}
