import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTypes, TYPES_FILE } from '../../console/scripts/api-types.js';
import { startTestApp, type TestContext } from '../helpers/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('the console’s API types', () => {
  it('are those of the current OpenAPI document (else: npm run console:types)', async () => {
    const document = await ctx.request('GET', '/api/schema/');
    expect(document.status).toBe(200);
    const committed = readFileSync(TYPES_FILE, 'utf8');
    // One assertion on the whole text: a stale file fails with the difference shown.
    expect(committed, 'console/src/api-schema.ts is stale: run `npm run console:types`').toBe(
      await apiTypes(document.body),
    );
  });
});
