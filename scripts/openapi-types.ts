/**
 * `npm run api:types -- [source] [out]`: TypeScript types of the API from its OpenAPI
 * document, for a typed client (openapi-fetch: `createClient<paths>()`). `source` is the
 * document's URL or a file (default: `http://127.0.0.1:8000/api/schema/`, the service that
 * `npm start` runs); `out` defaults to `.tmp/api.d.ts`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** The types of a document (openapi-typescript), as the text of a .d.ts module. */
export async function openApiTypes(document: object): Promise<string> {
  const nodes = await openapiTS(document as OpenAPI3);
  return `// Generated from the OpenAPI document by scripts/openapi-types.ts: do not edit.\n${astToString(nodes)}`;
}

async function readDocument(source: string): Promise<object> {
  if (/^https?:\/\//.test(source)) {
    const answer = await fetch(source);
    if (!answer.ok) throw new Error(`${source} answered ${answer.status}`);
    return (await answer.json()) as object;
  }
  return JSON.parse(readFileSync(source, 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [source = 'http://127.0.0.1:8000/api/schema/', out = '.tmp/api.d.ts'] =
    process.argv.slice(2);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, await openApiTypes(await readDocument(source)));
  console.log(`wrote ${out}`);
}
