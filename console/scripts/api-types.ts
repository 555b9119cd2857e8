import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** The committed types of the API the console calls (checked by test/console/api-types.test.ts). */
export const TYPES_FILE = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'src',
  'api-schema.ts',
);

const HEADER =
  "// Generated from the service's OpenAPI document (/api/schema/) by `npm run console:types`.\n" +
  '// Do not edit: change the TypeBox schemas, then run the command again.\n\n';

/** The TypeScript types of an OpenAPI document, as the file holds them. */
export async function apiTypes(document: unknown): Promise<string> {
  return HEADER + astToString(await openapiTS(document as OpenAPI3));
}

/** Builds the app over an in-memory database (nothing is queried) and writes the types. */
async function main(): Promise<void> {
  const { buildApp } = await import('../../src/app.js');
  const { systemClock } = await import('../../src/clock.js');
  const { loadConfig } = await import('../../src/config.js');
  const { openDatabase } = await import('../../src/db/client.js');
  const { UpstreamClient } = await import('../../src/upstream/client.js');
  const config = loadConfig({ LOG_LEVEL: 'error' });
  const database = await openDatabase({});
  const upstream = new UpstreamClient({
    url: 'http://127.0.0.1:9',
    timeoutMs: 1000,
    serviceAccount: { username: 'unused', password: 'unused' },
  });
  const app = await buildApp(
    { config, database, upstream, clock: systemClock, random: Math.random },
    { logger: false },
  );
  try {
    await app.ready();
    await writeFile(TYPES_FILE, await apiTypes(app.swagger()));
    console.log(`wrote ${TYPES_FILE}`);
  } finally {
    await app.close();
    await database.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
