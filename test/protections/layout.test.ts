import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * The account's protections live in src/protections/, which the login (auth/) and the account
 * routes (users/) both use: neither of those imports the other, and protections/ imports
 * neither, so no cycle runs between the three folders.
 */
const SRC = resolve('src');

/** The src folders each folder's files import (relative imports only). */
function folderImports(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        const from = relative(SRC, path).split('/')[0];
        for (const [, spec] of readFileSync(path, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
          const target = relative(SRC, resolve(dirname(path), spec)).split('/');
          if (target.length < 2 || target[0] === from || target[0] === '..') continue;
          if (!edges.has(from)) edges.set(from, new Set());
          edges.get(from)!.add(target[0]);
        }
      }
    }
  };
  walk(SRC);
  return edges;
}

it('auth/ and users/ do not import each other; protections/ imports neither', () => {
  const edges = folderImports();
  const uses = (from: string) => [...(edges.get(from) ?? [])].sort();
  expect(uses('auth')).toContain('protections');
  expect(uses('users')).toContain('protections');
  expect(uses('auth')).not.toContain('users');
  expect(uses('users')).not.toContain('auth');
  expect(uses('protections')).not.toContain('auth');
  expect(uses('protections')).not.toContain('users');
});
