import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const consoleDir = join(here, '..');
/** Where the service serves `/console/` from (src/console/routes.ts). */
export const OUT_DIR = join(consoleDir, '..', 'dist', 'console');

/** What a bundle depends on: the console's files, this script, the locked dependencies. */
function fingerprint(): string {
  const files = [
    ...readdirSync(join(consoleDir, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile()) // not the folders (src/i18n/)
      .map((entry) => join(relative(consoleDir, entry.parentPath), entry.name)),
    'index.html',
    'style.css',
  ].sort();
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(consoleDir, file)));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(readFileSync(join(consoleDir, '..', 'package-lock.json')));
  return hash.digest('hex');
}

function builtFingerprint(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * The staff console's bundle: one script (Preact, Chart.js and openapi-fetch inside), one
 * style sheet and the page, into dist/console/. Nothing is fetched at run time. `ifStale`
 * (`npm start`, the tests): only when the console changed since the last build. True when
 * it built.
 */
export async function buildConsole(
  outdir = OUT_DIR,
  { ifStale = false }: { ifStale?: boolean } = {},
): Promise<boolean> {
  const hashFile = join(outdir, '.console-build');
  const wanted = fingerprint();
  if (ifStale && builtFingerprint(hashFile) === wanted) return false;
  // Built aside, then moved in file by file: a service (or a second build) reading the folder
  // meanwhile never sees a half-written file.
  const staging = `${outdir}.build-${process.pid}-${Date.now()}`;
  await mkdir(staging, { recursive: true });
  await build({
    entryPoints: { app: join(consoleDir, 'src', 'main.tsx'), style: join(consoleDir, 'style.css') },
    outdir: staging,
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    target: ['chrome109', 'safari15', 'firefox115'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    logLevel: 'warning',
  });
  await copyFile(join(consoleDir, 'index.html'), join(staging, 'index.html'));
  await mkdir(outdir, { recursive: true });
  for (const file of await readdir(staging)) await rename(join(staging, file), join(outdir, file));
  await rm(staging, { recursive: true, force: true });
  writeFileSync(hashFile, `${wanted}\n`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  // Like the server's build: a line on stderr only when it built (stdout is the service's).
  if (await buildConsole(OUT_DIR, { ifStale: process.argv.includes('--if-stale') })) {
    const ms = Math.round(performance.now() - started);
    process.stderr.write(`built dist/console/ in ${ms} ms\n`);
  }
}
