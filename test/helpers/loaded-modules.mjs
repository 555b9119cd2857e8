/**
 * `node --import ./test/helpers/loaded-modules.mjs …`: appends the URL of every ES module the
 * process loads, one a line, to the file named by LOADED_MODULES_FILE.
 */
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.LOADED_MODULES_FILE;

// Imported by `--import` in the main thread, it registers itself; Node then loads it again,
// off the main thread, as the module of the hooks.
if (isMainThread && file) register(import.meta.url);

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
