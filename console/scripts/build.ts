import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const consoleDir = join(here, '..');
/** Where the service serves `/console/` from (src/console/routes.ts). */
export const OUT_DIR = join(consoleDir, '..', 'dist', 'console');

/**
 * The staff console's bundle: one script (Preact, Chart.js and openapi-fetch inside), one
 * style sheet and the page, into dist/console/. Nothing is fetched at run time.
 */
export async function buildConsole(outdir = OUT_DIR): Promise<void> {
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
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildConsole();
  console.log(`console built into ${OUT_DIR} in ${Math.round(performance.now() - started)} ms`);
}
