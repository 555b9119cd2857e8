import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../scripts/build.mjs';
import { runProcess } from './helpers/process.js';

/**
 * `npm run build:server` and the `--if-stale` check `npm start` runs first, on a copy of the
 * sources (the repository's own dist/ is the one the other tests run).
 */
const root = process.cwd();
const copy = mkdtempSync(join(tmpdir(), 'ordering-build-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('the build (dist/)', () => {
  it('compiles src/ and erp-simulator/ in their layout, and again only when a source changes', async () => {
    for (const folder of ['src', 'erp-simulator', 'drizzle']) {
      cpSync(join(root, folder), join(copy, folder), { recursive: true });
    }
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, 'package.json'), readFileSync(join(root, 'package.json')));

    expect(await buildServer({ root: copy, ifStale: true })).toBe(true);
    expect(existsSync(join(copy, 'dist/src/main.js'))).toBe(true);
    expect(existsSync(join(copy, 'dist/erp-simulator/server.js'))).toBe(true);
    // Nothing changed: `npm start` starts at once.
    expect(await buildServer({ root: copy, ifStale: true })).toBe(false);

    // A changed source is compiled again…
    const health = join(copy, 'src/health/routes.ts');
    writeFileSync(health, `${readFileSync(health, 'utf8')}\nexport const changed = 1;\n`);
    expect(await buildServer({ root: copy, ifStale: true })).toBe(true);
    expect(readFileSync(join(copy, 'dist/src/health/routes.js'), 'utf8')).toContain('changed');
    // …and a deleted one leaves no module behind.
    rmSync(join(copy, 'src/mail/mailer.ts'));
    expect(await buildServer({ root: copy, ifStale: true })).toBe(true);
    expect(existsSync(join(copy, 'dist/src/mail/mailer.js'))).toBe(false);
  });

  it('runs with plain node and finds the migrations from dist/', async () => {
    const { code, stdout, stderr } = await runProcess(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { migrationsFolder } = await import('./dist/src/db/client.js'); console.log(migrationsFolder);",
      ],
      { cwd: root },
    );
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(join(root, 'drizzle'));
  });
});
