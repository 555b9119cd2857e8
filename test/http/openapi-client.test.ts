import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiTypes } from '../../scripts/openapi-types.js';
import { PASSWORDS, startTestApp, type TestContext } from '../helpers/app.js';
import { runProcess } from '../helpers/process.js';

/**
 * A client generated from the live OpenAPI document: types by openapi-typescript
 * (scripts/openapi-types.ts), calls by openapi-fetch. The client program below is
 * type-checked with tsc against the generated types (a document that lost a path, a body
 * field or an error answer fails there), then run against the service: login, cart, item,
 * checkout.
 */

const dir = join(process.cwd(), '.tmp', `openapi-client-${process.pid}`);

const PROGRAM = `import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type ErrorDetail = components['schemas']['ErrorDetail'];
type FieldErrors = components['schemas']['FieldErrors'];

export interface Outcome {
  cart: number;
  quantity: number;
  orderNumber: string;
  missing: FieldErrors | ErrorDetail | undefined;
  invalid: FieldErrors | ErrorDetail | undefined;
  unauthenticated: FieldErrors | ErrorDetail | undefined;
}

/** Login, a cart, an item, a checkout; and the typed error bodies of three refusals. */
export async function orderFlow(baseUrl: string, username: string, password: string): Promise<Outcome> {
  const api = createClient<paths>({ baseUrl });
  const login = await api.POST('/api/v1/auth/jwt/token/', { body: { username, password } });
  if (!login.data) throw new Error(\`login: \${login.response.status}\`);
  const headers = { Authorization: \`Bearer \${login.data.token}\` };

  const organizations = await api.GET('/api/v1/organizations/', { headers });
  if (!organizations.data) throw new Error(\`organizations: \${organizations.response.status}\`);
  const organization: string = organizations.data.results[0].organization_id;

  const cart = await api.POST('/api/v1/carts/', {
    headers,
    body: { organization, customer_order_number: 'PO-CLIENT', order_mark: 'generated client' },
  });
  if (!cart.data) throw new Error(\`cart: \${cart.response.status}\`);
  const id: number = cart.data.id;

  const item = await api.POST('/api/v1/items/', {
    headers,
    body: { cart: id, part_number: '10001234', quantity: 3 },
  });
  if (!item.data) throw new Error(\`item: \${item.response.status}\`);

  const checkout = await api.PATCH('/api/v1/carts/{id}/checkout/', {
    params: { path: { id: String(id) } },
    headers: { ...headers, 'Authorization-Upstream': \`Bearer \${login.data.upstream_token}\` },
  });
  if (!checkout.data) throw new Error(\`checkout: \${checkout.response.status}\`);

  // Error answers are typed by the document: the detail body, the field map.
  const missing = await api.GET('/api/v1/carts/{id}/', {
    params: { path: { id: '999999999' } },
    headers,
  });
  const invalid = await api.POST('/api/v1/items/', {
    headers,
    body: { cart: id, part_number: '10001234', quantity: 0 },
  });
  const unauthenticated = await api.GET('/api/v1/carts/', {});
  return {
    cart: id,
    quantity: item.data.quantity,
    orderNumber: checkout.data.order_number,
    missing: missing.error,
    invalid: invalid.error,
    unauthenticated: unauthenticated.error,
  };
}
`;

/** tsc, strict, on one file of `dir`. */
function typeCheck(file: string) {
  return runProcess(process.execPath, [
    join(process.cwd(), 'node_modules/typescript/bin/tsc'),
    '--noEmit',
    '--strict',
    '--skipLibCheck',
    '--target',
    'es2022',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--types',
    'node',
    join(dir, file),
  ]);
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  mkdirSync(dir, { recursive: true });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a client generated from the OpenAPI document', () => {
  it('type-checks, and drives login → cart → item → checkout', async () => {
    const document = (await ctx.request('GET', '/api/schema/')).body;
    writeFileSync(join(dir, 'api.d.ts'), await openApiTypes(document));
    writeFileSync(join(dir, 'client.ts'), PROGRAM);
    const tsc = await typeCheck('client.ts');
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);

    const { orderFlow } = await import(pathToFileURL(join(dir, 'client.ts')).href);
    const outcome = await orderFlow(ctx.url, 'anna', PASSWORDS.anna);
    expect(outcome.quantity).toBe(3);
    expect(outcome.orderNumber).toMatch(/\S/);
    // The order reached upstream, placed with anna's upstream token.
    expect(ctx.sim.orders.at(-1)).toMatchObject({
      order_number: outcome.orderNumber,
      placed_by: 'anna',
    });
    expect(outcome.missing).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect(outcome.invalid).toHaveProperty('quantity');
    expect(outcome.unauthenticated).toMatchObject({ code: 'not_authenticated' });
  }, 60_000);

  it('fails to type-check a call the document does not describe', async () => {
    writeFileSync(
      join(dir, 'wrong.ts'),
      `import createClient from 'openapi-fetch';
import type { paths } from './api.js';
const api = createClient<paths>({ baseUrl: 'http://127.0.0.1' });
await api.POST('/api/v1/items/', { body: { cart: 1, part_number: 5, quantity: 1 } });
await api.GET('/api/v1/no-such-path/');
`,
    );
    const tsc = await typeCheck('wrong.ts');
    expect(tsc.code).not.toBe(0);
    // The number for a string field (line 4), and the path no operation has (line 5).
    expect(tsc.stdout).toMatch(/wrong\.ts\(4,\d+\): error TS2322/);
    expect(tsc.stdout).toMatch(/wrong\.ts\(5,\d+\): error/);
  }, 60_000);
});
