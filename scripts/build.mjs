/**
 * `npm run build:server`: the service and the ERP simulator compiled to JavaScript in dist/,
 * in the layout of the sources (dist/src/main.js, dist/erp-simulator/server.js), one file per
 * module, ESM. esbuild only strips types (about 0.2 s; tsc takes over 10 s here): types are
 * checked by `npm run typecheck`.
 *
 * `--if-stale` (`npm start`, the tests, the admin command): builds only when the sources
 * differ from those of the last build (a hash of their paths and contents, kept in dist/).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = join(dirname(SCRIPT), '..');
const FOLDERS = ['src', 'erp-simulator'];

/** Every TypeScript source, relative to the root, sorted. */
function sources(root) {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true })
      .map((file) => join(folder, String(file)))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')),
  ).sort();
}

/** What a build depends on: the sources and this script. */
function fingerprint(root, files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  hash.update(readFileSync(SCRIPT));
  return hash.digest('hex');
}

function builtFingerprint(file) {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Builds `root`/dist/ (root: this package) when asked, or with `ifStale` when the sources
 * changed since the last build; true when it built.
 */
export async function buildServer({ ifStale = false, root = ROOT } = {}) {
  const out = join(root, 'dist');
  const hashFile = join(out, '.server-build');
  const files = sources(root);
  const wanted = fingerprint(root, files);
  if (ifStale && builtFingerprint(hashFile) === wanted) return false;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error('dist/ is missing or stale and esbuild is not installed: run `npm install`');
  }
  // Output of deleted sources must not linger; other builds' folders in dist/ stay.
  for (const folder of FOLDERS) rmSync(join(out, folder), { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: files,
    outdir: out,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node24',
    sourcemap: true,
    logLevel: 'warning',
  });
  mkdirSync(out, { recursive: true });
  writeFileSync(hashFile, `${wanted}\n`);
  return true;
}

if (process.argv[1] === SCRIPT) {
  const ifStale = process.argv.includes('--if-stale');
  const started = performance.now();
  try {
    const built = await buildServer({ ifStale });
    if (built) {
      const ms = (performance.now() - started).toFixed(0);
      process.stderr.write(`built dist/ (src, erp-simulator) in ${ms} ms\n`);
    }
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
