import swagger from '@fastify/swagger';
import { validate } from '@readme/openapi-parser';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_ROUTES } from '../../erp-simulator/faults.js';
import { collectRouteFacts, completeDocument, SECURITY_SCHEMES } from '../../src/http/openapi.js';
import type { Answer, Session, TestContext } from '../helpers/app.js';
import { startTestApp } from '../helpers/app.js';

/**
 * The OpenAPI document (`/api/schema/`) as clients generate from it: valid as a whole, and
 * each operation lists the error answers it gives, with their bodies, and its security.
 * The error answers are checked against the service itself: requests that provoke each kind
 * of error on every operation must get an answer the operation lists, in the listed body.
 */

interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean };
  responses: Record<
    string,
    { description: string; headers?: Record<string, unknown>; content?: Record<string, object> }
  >;
}
// biome-ignore lint/suspicious/noExplicitAny: the document is read as JSON
type Document = any;

let ctx: TestContext;
let doc: Document;
let anna: Session;
let admin: Session;
const operations: { method: string; path: string; op: Operation }[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  doc = (await ctx.request('GET', '/api/schema/')).body;
  for (const [path, methods] of Object.entries<Record<string, Operation>>(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) operations.push({ method, path, op });
  }
  anna = await ctx.login('anna');
  admin = await ctx.loginAs('carla', 'admin');
});
afterAll(() => ctx?.close());

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonSchemaOf = (op: Operation, status: string) =>
  (op.responses[status]?.content?.['application/json'] as { schema?: unknown } | undefined)?.schema;

/** Path parameters filled in: `{id}` and the like take `value`. */
const fill = (path: string, value: string) => path.replace(/\{\w+\}/g, value);

/** The answer must be listed for the operation, in a body of the listed schema. */
function expectListed(method: string, path: string, op: Operation, answer: Answer): void {
  const status = String(answer.status);
  const where = `${method.toUpperCase()} ${path} answered ${status} ${answer.text.slice(0, 200)}`;
  expect(Object.keys(op.responses), where).toContain(status);
  if (answer.status < 400) return;
  const type = answer.headers.get('content-type') ?? '';
  if (type.startsWith('text/html')) {
    expect(op.responses[status].content, where).toHaveProperty(['text/html']);
    return;
  }
  expect(type, where).toMatch(/^application\/json/);
  const body = answer.body as Record<string, unknown>;
  const detailShape =
    typeof body?.detail === 'string' &&
    typeof body.code === 'string' &&
    Object.keys(body).length === 2;
  const fieldShape =
    body &&
    typeof body === 'object' &&
    Object.values(body).every((v) => Array.isArray(v) && v.every((m) => typeof m === 'string'));
  const schema = jsonSchemaOf(op, status) as { $ref?: string; anyOf?: { $ref: string }[] };
  const allowed = schema.anyOf ? schema.anyOf.map((s) => s.$ref) : [schema.$ref];
  const matches = allowed.some(
    (ref) =>
      (ref === schemaRef('ErrorDetail').$ref && detailShape) ||
      (ref === schemaRef('FieldErrors').$ref && fieldShape) ||
      ref === schemaRef('UpstreamAnswer').$ref,
  );
  expect(matches, `${where}: body not of ${allowed.join(' | ')}`).toBe(true);
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3 document (@readme/openapi-parser)', async () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('defines the error bodies once and the two security schemes', () => {
    const schemas = doc.components.schemas;
    expect(schemas.ErrorDetail).toMatchObject({
      type: 'object',
      required: ['detail', 'code'],
      properties: { detail: { type: 'string' }, code: { type: 'string' } },
    });
    expect(schemas.FieldErrors).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    });
    expect(doc.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.securitySchemes.bearer.description).toContain('JWT <token>');
    expect(doc.components.securitySchemes.upstream).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization-Upstream',
    });
  });

  it('gives every operation its security: none, the JWT, and Authorization-Upstream where used', () => {
    const security = (method: string, path: string) => doc.paths[path][method].security;
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      expect(op.security, where).toBeDefined();
      if (op.security!.length === 0) continue;
      expect(
        op.security!.every((s) => 'bearer' in s),
        where,
      ).toBe(true);
      // Any operation that needs a token answers 401.
      expect(Object.keys(op.responses), where).toContain('401');
    }
    expect(security('post', '/api/v1/auth/jwt/token/')).toEqual([]);
    expect(security('get', '/api/v1/options/')).toEqual([]);
    expect(security('post', '/api/v1/restore-password/')).toEqual([]);
    expect(security('get', '/api/v1/carts/')).toEqual([{ bearer: [] }]);
    expect(security('get', '/api/v1/products/{article_number}/')).toEqual([
      { bearer: [], upstream: [] },
    ]);
    expect(security('get', '/api/v1/credit-check/{organization_id}/')).toEqual([
      { bearer: [], upstream: [] },
    ]);
    // Used when sent, else the service account.
    expect(security('patch', '/api/v1/carts/{id}/checkout/')).toEqual([
      { bearer: [] },
      { bearer: [], upstream: [] },
    ]);
    expect(security('get', '/api/v1/categories/')).toEqual([
      { bearer: [] },
      { bearer: [], upstream: [] },
    ]);
  });

  it('lists 503 database_unavailable with Retry-After everywhere, and the rest by route', () => {
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      expect(op.responses['503']?.headers, where).toHaveProperty('Retry-After');
      expect(Object.keys(op.responses), where).toContain('400');
    }
    const codes = (method: string, path: string) => Object.keys(doc.paths[path][method].responses);
    // 429 only where a rate limit counts.
    const limited = operations.filter(({ op }) => '429' in op.responses).map((o) => o.path);
    expect(limited.sort()).toEqual(
      [
        '/api/v1/auth/jwt/token/',
        '/api/v1/request-restore-code/',
        '/api/v1/request_restore_code/',
        '/api/v1/restore-password/',
        '/api/v1/restore_password/',
        '/users/restore-password/{code}/',
        '/api/v1/users/me/change-password/',
        '/api/v1/users/me/logout-all/',
        '/users/restore-password/{code}/',
      ].sort(),
    );
    expect(doc.paths['/api/v1/auth/jwt/token/'].post.responses['429'].headers).toHaveProperty(
      'Retry-After',
    );
    // 409 where a cart in checkout refuses: its checkout and its lines.
    const conflicting = operations.filter(({ op }) => '409' in op.responses);
    expect(conflicting.map((o) => `${o.method} ${o.path}`).sort()).toEqual([
      'delete /api/v1/items/{id}/',
      'patch /api/v1/carts/{id}/checkout/',
      'patch /api/v1/items/{id}/',
      'post /api/v1/items/',
    ]);
    // 403 on staff and admin routes only.
    expect(codes('post', '/api/v1/controls/')).toContain('403');
    expect(codes('patch', '/api/v1/stores/{gln}/')).toContain('403');
    expect(codes('get', '/api/v1/carts/')).not.toContain('403');
    // Upstream failures where upstream is called; upstream's own 503 JSON on checkout.
    for (const path of ['/api/v1/products/{article_number}/', '/api/v1/categories/']) {
      expect(codes('get', path)).toEqual(expect.arrayContaining(['502', '503', '504']));
    }
    expect(codes('get', '/api/v1/carts/')).not.toContain('502');
    expect(jsonSchemaOf(doc.paths['/api/v1/carts/{id}/checkout/'].patch, '503')).toEqual({
      anyOf: [schemaRef('ErrorDetail'), schemaRef('UpstreamAnswer')],
    });
    // The field map, and upstream_token_missing where the upstream token is required.
    expect(jsonSchemaOf(doc.paths['/api/v1/items/'].post, '400')).toEqual(schemaRef('FieldErrors'));
    expect(jsonSchemaOf(doc.paths['/api/v1/products/{article_number}/'].get, '400')).toEqual({
      anyOf: [schemaRef('FieldErrors'), schemaRef('ErrorDetail')],
    });
    // The checkout takes no body; success answers without a body say so.
    expect(doc.paths['/api/v1/carts/{id}/checkout/'].patch.requestBody.required).toBe(false);
    expect(codes('delete', '/api/v1/items/{id}/')).toContain('204');
    expect(codes('post', '/api/v1/shopping-lists/')).toContain('201');
    expect(codes('post', '/api/v1/request-restore-code/')).toContain('202');
  });
});

describe('the errors the service answers are those the document lists', () => {
  it('keeps the validation messages of the schemas the document was made from', async () => {
    // The document was built in beforeAll; a schema's own message still answers.
    const answer = await ctx.request('GET', '/api/v1/items/?cart=abc', { token: anna.token });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ cart: ['A valid integer is required.'] });
  });

  it('401 without a token, on every operation that needs one', async () => {
    for (const { method, path, op } of operations) {
      if (op.security?.length === 0) continue;
      const answer = await ctx.request(method.toUpperCase(), fill(path, '1'));
      expect(answer.status, `${method} ${path}`).toBe(401);
      expectListed(method, path, op, answer);
    }
  });

  it('403 for a customer on staff routes, 404 for a path naming nothing', async () => {
    let forbidden = 0;
    for (const { method, path, op } of operations) {
      if (op.security?.length !== 0) {
        const answer = await ctx.request(method.toUpperCase(), fill(path, '1'), {
          token: anna.token,
          body: method === 'get' ? undefined : {},
        });
        if (answer.status === 403) forbidden++;
        expectListed(method, path, op, answer);
      }
      if (path.includes('{')) {
        const answer = await ctx.request(method.toUpperCase(), fill(path, 'x'.repeat(201)), {
          token: admin.token,
        });
        expect(answer.status, `${method} ${path}`).toBe(404);
        expectListed(method, path, op, answer);
      }
    }
    expect(forbidden).toBeGreaterThan(0);
  });

  it('400 for a bad query value, 415 for a body that is not JSON, 413 for one too large', async () => {
    const big = `{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`;
    for (const { method, path, op } of operations) {
      const url = fill(path, '1');
      const token = admin.token;
      const badQuery = await ctx.request(method.toUpperCase(), `${url}?page_size=%00`, { token });
      expect(badQuery.status, `${method} ${path}`).toBe(400);
      expectListed(method, path, op, badQuery);
      if (method === 'get') continue;
      const text = await ctx.request(method.toUpperCase(), url, {
        token,
        raw: 'hello',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.status, `${method} ${path}`).toBe(415);
      expectListed(method, path, op, text);
      const large = await ctx.request(method.toUpperCase(), url, {
        token,
        raw: big,
        headers: { 'content-type': 'application/json' },
      });
      expect(large.status, `${method} ${path}`).toBe(413);
      expectListed(method, path, op, large);
    }
  });

  it('502/503 where the upstream system fails, on every operation that reaches it', async () => {
    const reached = new Set<string>();
    const headers = { 'authorization-upstream': `Bearer ${anna.upstreamToken}` };
    for (const type of ['unavailable', 'malformed'] as const) {
      for (const { method, path, op } of operations) {
        // Every call to the simulator fails this way.
        for (const route of SIM_ROUTES) ctx.sim.inject(route, { type }, 10);
        try {
          const url = fill(path, path.includes('article_number') ? '10001234' : 'ORG-1001');
          const answer = await ctx.request(method.toUpperCase(), url, {
            token: anna.token,
            headers,
            body:
              method === 'get'
                ? undefined
                : { username: 'anna', password: 'anna-pass-2026', email: 'anna@example.com' },
          });
          if (answer.status === 502 || answer.body?.code === 'upstream_unavailable') {
            reached.add(`${method} ${path}`);
          }
          expectListed(method, path, op, answer);
        } finally {
          ctx.sim.clearFaults();
        }
      }
    }
    // The probe reached upstream where it should (so the check above has teeth).
    expect([...reached]).toEqual(
      expect.arrayContaining([
        'post /api/v1/auth/jwt/token/',
        'get /api/v1/products/{article_number}/',
        'get /api/v1/categories/',
        'get /api/v1/credit-check/{organization_id}/',
        'get /api/v1/users/me/shipments/',
      ]),
    );
  }, 120_000);
});

describe('the facts of a route', () => {
  it('list 422 idempotency_key_reused where the route takes an Idempotency-Key header', async () => {
    const app = Fastify();
    const facts = collectRouteFacts(app, () => false);
    await app.register(swagger, {
      openapi: { components: { securitySchemes: SECURITY_SCHEMES } },
      transformObject: (document) =>
        completeDocument('openapiObject' in document ? document.openapiObject : {}, facts),
    });
    const body = { type: 'object' };
    const headers = { type: 'object', properties: { 'idempotency-key': { type: 'string' } } };
    app.post('/api/v1/keyed/', { schema: { body, headers } }, async () => ({}));
    app.post('/api/v1/plain/', { schema: { body } }, async () => ({}));
    await app.ready();
    const built = app.swagger() as Document;
    await app.close();
    const keyed = built.paths['/api/v1/keyed/'].post.responses;
    expect(Object.keys(keyed)).toContain('422');
    expect(keyed['422'].description).toContain('idempotency_key_reused');
    expect(Object.keys(built.paths['/api/v1/plain/'].post.responses)).not.toContain('422');
  });
});
