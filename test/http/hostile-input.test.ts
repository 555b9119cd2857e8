import { createHmac } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/conventions.js';
import { type Answer, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createStore } from '../helpers/fixtures.js';

/**
 * Every operation of the OpenAPI document, called with hostile path parameters, query values,
 * bodies and credentials, as a customer and as an admin: no answer may be a 500, show
 * internals, or (under /api/) leave the documented error bodies. Deterministic: fixed lists
 * and a seeded generator.
 */
let ctx: TestContext;
let anna: Session;
let carla: Session;
let sessions: Session[];
let operations: Operation[];
let storeId: number;
beforeAll(async () => {
  ctx = await startTestApp();
  anna = await ctx.login('anna');
  carla = await ctx.loginAs('carla', 'admin');
  sessions = [anna, carla];
  storeId = await createStore(ctx, GLN);
  const doc = (await ctx.request<OpenApi>('GET', '/api/schema/')).body;
  operations = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
});
afterAll(() => ctx?.close());

/** What the fuzz reads of a JSON schema. */
interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
}

/** What the fuzz reads of the OpenAPI document. */
interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
}

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: Schema | undefined;
}

const GLN = '4000001000001';
const SECRET = 'test-secret-test-secret-test-secret';
const NUL = '\u0000';
const INTERNALS = /\bat .+\.(ts|js):\d+|\bselect\b.+\bfrom\b|\binsert into\b|syntax error|stack/i;

// Counters across the whole file, reported at the end.
let sent = 0;
const serverErrors: string[] = [];
const problems = new Set<string>();

/** One request; anything a client must never see is recorded in `problems`. */
async function call(
  method: string,
  url: string,
  options: { session?: Session; raw?: string; type?: string; headers?: Record<string, string> },
): Promise<Answer> {
  const headers: Record<string, string> = {
    ...(options.session
      ? {
          authorization: `Bearer ${options.session.token}`,
          'authorization-upstream': `Bearer ${options.session.upstreamToken}`,
        }
      : {}),
    ...(options.raw !== undefined ? { 'content-type': options.type ?? 'application/json' } : {}),
    ...options.headers,
  };
  const answer = await ctx.request(method, url, { raw: options.raw, headers });
  sent++;
  const where = `${method} ${url.slice(0, 80)} ${String(options.raw ?? '').slice(0, 60)}`;
  const what = `${answer.status} ${answer.text.slice(0, 160)}`;
  if (answer.status === 500) serverErrors.push(`${where}: ${what}`);
  if (answer.status === 500 || INTERNALS.test(answer.text)) problems.add(`${where}: ${what}`);
  if (url.startsWith('/api/') && answer.status >= 400 && !documented(answer)) {
    problems.add(`undocumented error body: ${where}: ${what}`);
  }
  return answer;
}

/** docs/http-contract.md: `{"detail", "code"}`, or `{"<field>": ["message", ...]}`. */
function documented(answer: Answer): boolean {
  // Node's own answer to headers over its limit, before any route: no body.
  if (answer.status === 431) return true;
  const body = answer.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  if (typeof body.detail === 'string' && typeof body.code === 'string') return true;
  const values = Object.values(body);
  return (
    values.length > 0 &&
    values.every((v) => Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string'))
  );
}

/** Real objects for the path parameters, made anew for each part of the fuzz. */
async function seed(): Promise<Record<string, string>> {
  const created = async (url: string, body: unknown, session = anna) => {
    const answer = await ctx.request('POST', url, { token: session.token, body });
    expect(answer.status, `${url}: ${answer.text}`).toBe(201);
    return String(answer.body?.id ?? answer.headers.get('location')?.match(/(\d+)\/$/)?.[1]);
  };
  const cart = await created('/api/v1/carts/', {
    store: GLN,
    organization: 'ORG-1001',
    customer_order_number: 'PO-1',
    order_mark: 'mark',
  });
  const item = await created('/api/v1/items/', {
    cart: Number(cart),
    part_number: '10001234',
    quantity: 2,
  });
  const list = await created('/api/v1/shopping-lists/', { name: 'list' });
  const listItem = await created('/api/v1/shopping-list-items/', {
    shopping_list: Number(list),
    name: 'screws',
    quantity: 3,
  });
  const control = await created(
    '/api/v1/controls/',
    { user: anna.userId, store: storeId, status: 'pending' },
    carla,
  );
  return {
    '/api/v1/carts/': cart,
    '/api/v1/items/': item,
    '/api/v1/shopping-lists/': list,
    '/api/v1/shopping-list-items/': listItem,
    '/api/v1/controls/': control,
    gln: GLN,
    article_number: '10001234',
    organization_id: 'ORG-1001',
    code: 'unknown-code',
  };
}

/** The path with every parameter replaced: by `value`, or by a real object's. */
function fill(path: string, real: Record<string, string>, value?: string): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (value !== undefined) return value;
    if (name === 'id') {
      const prefix = Object.keys(real).find((p) => path.startsWith(p));
      return prefix ? real[prefix] : '1';
    }
    return real[name] ?? '1';
  });
}

// ---------------------------------------------------------------------------------------
// The values

/** Hostile JSON values, as JSON text (1e309 and -0 have no other spelling). */
const JSON_VALUES: string[] = [
  ...['1e309', '-1e309', '-0', '0', '-1', '1.5', '1e3', '1E2', '1.0', '1e-400'],
  ...['2147483647', '2147483648', '-2147483649', '4294967296', '9007199254740993'],
  '123456789012345678901234567890',
  ...['null', 'true', 'false', '[]', '{}', '[[]]', '[null]', '[1,2]', '{"a":1}'],
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`,
  ...[
    '',
    ' ',
    NUL,
    `a${NUL}b`,
    '\ud800',
    '\udfff',
    'a\ud800b',
    '\udc00\ud800',
    '\u202e\u202dRTL\u200f',
    '\ufeff',
    '\u0085\u2028\u2029',
    '😀',
    '👩‍👩‍👧‍👦',
    '\u{10ffff}',
    'e\u0301\u0301\u0301',
    'x'.repeat(100_000),
    '😀'.repeat(5_000),
    "'; drop table users; --",
    '%00',
    '%ZZ',
    '../../etc/passwd',
    '\r\nX-Injected: 1',
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    'null',
    '1',
    '-1',
    '2147483648',
    '1e309',
    '0000-01-01',
    '99999999:00:00',
    '25:61',
  ].map((v) => JSON.stringify(v)),
];

/** Hostile path parameters, as written in the URL. */
const PATH_VALUES = [
  ...['0', '-1', '-0', '1.5', '1e3', '01', '+1', ' 1', '%201'],
  ...['2147483647', '2147483648', '9007199254740993', '99999999999999999999'],
  ...['%ZZ', '%', '%E', '%ED%A0%80', '%ED%B0%80', '%C0%80', '%FF', '%00', 'x%00y'],
  ...['%F0%9F%98%80', '%E2%80%AE', '%EF%BB%BF', '__proto__', 'constructor', 'toString'],
  ...['%2F', '..', '%2E%2E', '%20', 'a;b', 'a%3Fb', 'x'.repeat(200), 'x'.repeat(201)],
];

/** Hostile query values, as written in the URL. */
const QUERY_VALUES = [
  ...['', '%ZZ', '%', '%ED%A0%80', '%00', '%F0%9F%98%80', '%E2%80%AE', '__proto__'],
  ...['-1', '0', '-0', '1.5', '1e3', '1e309', '2147483648', '9007199254740993', '999999999'],
  ...['0000-01-01', '-000001-01-01', '%2B275760-09-13', '9999-12-31T23:59:59-23:59'],
  ...['2026-02-30', '2026-03-01T25:00:00Z', 'True', 'maybe', '-created', 'x'.repeat(4000)],
];

/** Whole queries: repeated, odd or prototype-named parameters. */
const WHOLE_QUERIES = [
  '?__proto__=1&constructor=1&hasOwnProperty=1&toString=1&valueOf=1',
  '?__proto__[x]=1&a[b][c]=1&a[]=1',
  '?page=1&page=2&page=%ZZ&page_size=1&page_size=1000',
  `?${'a=1&'.repeat(1000)}`,
  '?%ZZ=1&=&&=x&%=%',
  '?year=0&month=1',
  '?year=-1&month=12',
  '?year=999999999&month=12',
  '?year=-999999999&month=0',
  '?year=2026&month=2&organization=%ED%A0%80',
  '?created_after=0001-01-01&created_before=9999-12-31&interval=M&aggregate=items',
  '?created_after=0001-01-01T00:00:00%2B14:00&interval=H',
];

/** Credentials: garbage, huge, or validly signed with odd claims. */
function authHeaders(): Record<string, string>[] {
  const sign = createSigner({ key: SECRET, algorithm: 'HS256' });
  const now = Math.floor(ctx.clock.nowMicros() / 1_000_000);
  const claims = { username: 'anna', iat: now, exp: now + 600, orig_iat: now, jti: 'j' };
  const raw = (payload: string, alg = 'HS256') => {
    const head = Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(payload).toString('base64url');
    const mac = createHmac('sha256', SECRET).update(`${head}.${body}`).digest('base64url');
    return `${head}.${body}.${alg === 'none' ? '' : mac}`;
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  return [
    { authorization: '' },
    { authorization: 'Bearer' },
    { authorization: 'Bearer ' },
    { authorization: 'Bearer a b' },
    { authorization: 'Bearer a.b.c' },
    { authorization: 'Basic YW5uYTpzZWNyZXQ=' },
    { authorization: 'JWT x' },
    { authorization: 'Bearer \u00ff\u00fe' },
    { authorization: `Bearer ${'x'.repeat(8_000)}` },
    { authorization: `Bearer ${'a.'.repeat(2_000)}a` },
    { authorization: `Bearer ${'x'.repeat(20_000)}` },
    bearer(`${anna.token}x`),
    bearer(anna.token.split('.').slice(0, 2).join('.')),
    bearer(raw(JSON.stringify({ ...claims, sub: String(anna.userId) }), 'none')),
    bearer(sign({ ...claims, sub: '2147483648' })),
    bearer(sign({ ...claims, sub: '99999999999999999999' })),
    bearer(sign({ ...claims, sub: 'abc' })),
    bearer(sign({ ...claims, sub: '1.5' })),
    bearer(sign({ ...claims, sub: '-1' })),
    bearer(sign({ ...claims, sub: '1e3' })),
    bearer(sign({ ...claims, sub: '0' })),
    bearer(sign({ ...claims, sub: 2147483648 })),
    bearer(sign({ ...claims, sub: [String(anna.userId)] })),
    bearer(sign({ ...claims, sub: String(anna.userId), username: { $ne: 1 } })),
    bearer(raw(`{"sub":"${anna.userId}","username":"anna","exp":1e309,"orig_iat":1e309}`)),
    bearer(raw(`{"sub":"${anna.userId}","username":"anna","exp":-1e309,"orig_iat":0}`)),
    bearer(raw('{"__proto__":{"sub":"1"},"username":"anna","exp":9999999999,"orig_iat":0}')),
    bearer(raw('[1]')),
    bearer(raw('null')),
    bearer(raw('"\\ud800"')),
    { 'authorization-upstream': '' },
    { 'authorization-upstream': 'Bearer' },
    { 'authorization-upstream': 'Bearer x y' },
    { 'authorization-upstream': `Bearer ${'x'.repeat(8_000)}` },
    { 'authorization-upstream': '\u00ff' },
    { 'x-request-id': 'x'.repeat(5_000) },
    { 'x-request-id': '\u00ff' },
    { 'x-forwarded-for': '::1, %ZZ, 999.999.999.999' },
  ];
}

// ---------------------------------------------------------------------------------------
// Bodies built from the request body schema of the operation

/** A plausible value (JSON text) for a schema, with real objects where the name says so. */
function plausible(name: string, schema: Schema | undefined, real: Record<string, string>): string {
  const known: Record<string, string> = {
    cart: real['/api/v1/carts/'],
    shopping_list: real['/api/v1/shopping-lists/'],
    store: schema?.type === 'integer' ? '1' : JSON.stringify(GLN),
    user: String(anna.userId),
    organization: '"ORG-1001"',
    part_number: '"10001234"',
    username: '"anna"',
    email: '"anna@example.com"',
    token: JSON.stringify(anna.token),
    weekday: '"monday"',
    opening_time: '"08:00"',
    closing_time: '"18:00"',
    active_period: '"02:00:00"',
    status: '"verified"',
  };
  if (known[name] !== undefined) return known[name];
  const branch = schema?.anyOf?.find((b) => b.type !== 'null') ?? schema;
  if (branch?.enum) return JSON.stringify(branch.enum[0]);
  if (branch?.const !== undefined) return JSON.stringify(branch.const);
  if (branch?.anyOf) return plausible(name, branch.anyOf[0], real);
  switch (branch?.type) {
    case 'integer':
    case 'number':
      return String(branch.minimum ?? 1);
    case 'boolean':
      return 'false';
    case 'array':
      return '[]';
    case 'object':
      return '{}';
    default:
      return JSON.stringify('x'.repeat(Math.max(branch?.minLength ?? 1, 8)));
  }
}

/** `{"name": <JSON text>, ...}` */
const objectText = (members: [string, string][]) =>
  `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;

/**
 * Bodies for an operation: the plausible body with each field in turn replaced by each
 * hostile value (in the first entry, for a list body), then whole hostile bodies.
 */
function bodiesFor(operation: Operation, real: Record<string, string>): string[] {
  const schema = operation.body;
  if (!schema) return WHOLE_BODIES.slice(0, 8);
  const list = schema.type === 'array';
  const objectSchema = list ? schema.items : schema;
  const members: [string, string][] = Object.entries(objectSchema?.properties ?? {}).map(
    ([name, s]) => [name, plausible(name, s, real)],
  );
  const wrap = (object: string) => (list ? `[${object}]` : object);
  const out = [wrap(objectText(members))];
  for (const [i] of members.entries()) {
    for (const value of JSON_VALUES) {
      const changed = members.map(([k, v], j): [string, string] => [k, j === i ? value : v]);
      out.push(wrap(objectText(changed)));
    }
  }
  const base = objectText(members);
  out.push(
    wrap(`{"__proto__":{"isAdmin":true,"is_admin":true},${base.slice(1)}`),
    wrap(`{"constructor":{"prototype":{"x":1}},${base.slice(1)}`),
    wrap(`${base.slice(0, -1)},${members.map(([k]) => `${JSON.stringify(k)}:1e309`).join(',')}}`),
    ...WHOLE_BODIES,
  );
  return out;
}

const WHOLE_BODIES = [
  '',
  'null',
  '1e309',
  '-0',
  '"\\ud800"',
  `"${NUL}"`,
  '[]',
  '{}',
  '{',
  '{"a":}',
  '\ufeff{}',
  `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`,
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `[${'0,'.repeat(20_000)}0]`,
  '{"__proto__":[]}',
  '{"constructor":null,"hasOwnProperty":1,"toString":"x","valueOf":[]}',
];

/** Bodies that are not JSON. */
const OTHER_TYPES: [string, string][] = [
  ['text/plain', 'x'],
  ['application/x-www-form-urlencoded', 'password=%ED%A0%80&repeat_password=%00&a[b]=1'],
  ['multipart/form-data; boundary=x', '--x\r\n\r\n--x--'],
  ['application/json; charset=latin1', '{}'],
  ['application/problem+json', '{"a":1}'],
  ['application/json', '{"a":"\\u0000"}'],
];

/** A seeded generator (mulberry32): the same sequence on every run. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------

describe('hostile input on every operation', () => {
  it('path parameters, query values and bodies together, as a customer and as an admin', async () => {
    const PARAMS = ['abc', '99999999999', '%00', '-1', '1', 'a'.repeat(300), 'x%00y'];
    const QUERIES = [
      '',
      '?page=-1&page_size=abc&ordering=zzz&active=maybe&created_after=2026-13-40&month=13&year=x&cart=1e5&user=-1&location_id=',
      '?gln=%00&name=%00&location_id=%00&favorites=%00&interval=%00&organization=%00&month=2&year=2026',
    ];
    const BODIES = [
      undefined,
      '{}',
      '[]',
      '"x"',
      '42',
      'null',
      JSON.stringify({
        cart: -1,
        part_number: 'x'.repeat(100_000),
        quantity: 1e20,
        store: { a: 1 },
        organization: [],
        name: null,
        status: 'x',
        user: 'x',
        password: 1,
        new_password: null,
        username: {},
        email: [],
        token: 5,
        code: {},
        restore_password_code: null,
        repeat_password: 1,
        shopping_list: 'x',
        scanned: 'yes',
        active_period: '99999999:00:00',
        carts_for_random_control: -5,
      }),
      JSON.stringify({
        cart: 1,
        part_number: `a${NUL}b`,
        quantity: 1,
        store: NUL,
        organization: `ORG${NUL}`,
        customer_order_number: NUL,
        order_mark: NUL,
        name: NUL,
        username: NUL,
        email: `${NUL}@x`,
        password: NUL,
        new_password: `${NUL}xxxxxxxxx`,
        token: NUL,
        status: NUL,
      }),
      JSON.stringify([{ weekday: 'monday', opening_time: '25:00', closing_time: null }]),
      JSON.stringify([{ weekday: NUL, opening_time: NUL, closing_time: NUL }]),
      '[null]',
      '[[]]',
    ];
    for (const { method, path } of operations) {
      for (const param of path.includes('{') ? PARAMS : ['']) {
        const url = path.replace(/\{[^}]+\}/g, param);
        for (const query of QUERIES) {
          for (const raw of method === 'GET' ? [undefined] : BODIES) {
            for (const session of sessions) await call(method, url + query, { session, raw });
          }
        }
      }
    }
    expect([...problems]).toEqual([]);
  }, 300_000);

  it('path parameters: numbers out of range, bad percent-encoding, unicode, very long', async () => {
    const real = await seed();
    for (const { method, path } of operations) {
      if (!path.includes('{')) continue;
      for (const value of PATH_VALUES) {
        for (const session of sessions) {
          await call(method, fill(path, real, value), {
            session,
            raw: method === 'GET' ? undefined : '{}',
          });
        }
      }
    }
    expect([...problems]).toEqual([]);
  }, 300_000);

  it('query values: every declared parameter with each hostile value, and odd queries', async () => {
    const real = await seed();
    for (const operation of operations) {
      const url = fill(operation.path, real);
      const raw = operation.method === 'GET' ? undefined : '{}';
      for (const name of operation.query) {
        for (const value of QUERY_VALUES) {
          await call(operation.method, `${url}?${name}=${value}`, { session: anna, raw });
        }
      }
      for (const query of WHOLE_QUERIES) {
        for (const session of sessions) await call(operation.method, url + query, { session, raw });
      }
    }
    expect([...problems]).toEqual([]);
  }, 300_000);

  it('bodies: each field of each body with each hostile value, and hostile whole bodies', async () => {
    const real = await seed();
    // Deleting first would leave the other operations nothing to work on.
    const ordered = [...operations].sort(
      (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
    );
    for (const operation of ordered) {
      if (['GET', 'HEAD', 'OPTIONS'].includes(operation.method)) continue;
      const url = fill(operation.path, real);
      for (const raw of bodiesFor(operation, real)) {
        await call(operation.method, url, { session: carla, raw });
      }
      for (const [type, raw] of OTHER_TYPES) {
        await call(operation.method, url, { session: carla, raw, type });
      }
    }
    expect([...problems]).toEqual([]);
  }, 300_000);

  it('credentials: garbage, huge, and validly signed tokens with odd claims', async () => {
    const real = await seed();
    const variants = authHeaders();
    for (const operation of operations) {
      const url = fill(operation.path, real);
      const raw = operation.method === 'GET' ? undefined : '{}';
      for (const headers of variants) {
        const answer = await call(operation.method, url, { raw, headers });
        if (
          headers.authorization?.startsWith('Bearer ey') &&
          operation.path.startsWith('/api/v1/') &&
          answer.status === 200 &&
          !['/api/v1/options/', '/api/v1/auth/jwt/token/', '/api/v1/auth/jwt/refresh/'].includes(
            operation.path,
          )
        ) {
          problems.add(`accepted an odd token: ${operation.method} ${operation.path}`);
        }
      }
    }
    expect([...problems]).toEqual([]);
  }, 300_000);

  it('a seeded mix: several hostile fields, query values and credentials at once', async () => {
    const real = await seed();
    const random = seeded(20260302);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const variants = authHeaders();
    for (let n = 0; n < 600; n++) {
      const operation = pick(operations);
      const url = fill(operation.path, real, random() < 0.3 ? pick(PATH_VALUES) : undefined);
      const query = operation.query.length
        ? `?${Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${pick(operation.query)}=${pick(QUERY_VALUES)}`).join('&')}`
        : '';
      let raw: string | undefined;
      if (operation.method !== 'GET') {
        const bodies = bodiesFor(operation, real);
        const members = operation.body?.properties ?? operation.body?.items?.properties;
        if (members && random() < 0.7) {
          const entries: [string, string][] = Object.entries(members).map(([k, s]) => [
            k,
            random() < 0.5 ? pick(JSON_VALUES) : plausible(k, s, real),
          ]);
          raw = objectText(entries);
          if (operation.body?.type === 'array') raw = `[${raw}]`;
        } else {
          raw = pick(bodies);
        }
      }
      const session = pick(sessions);
      const headers = random() < 0.2 ? pick(variants) : {};
      await call(operation.method, url + query, { session, raw, headers });
    }
    expect([...problems]).toEqual([]);
  }, 300_000);

  it('reports', () => {
    console.log(
      `hostile input: ${sent} requests over ${operations.length} operations, ${serverErrors.length} answered 500`,
    );
    expect(serverErrors).toEqual([]);
  });
});

/**
 * Stateful: limits only reached by building state across requests. A cart's total quantity
 * is a 32-bit integer (2,147,483,647): the 2,148th line of 1,000,000 would pass it. Every
 * answer on the way is 201/200 or a 400 on `quantity` (never a 500), and the cart's counters
 * stay the sum of its lines (a refused change writes nothing).
 */
describe('hostile input with state', () => {
  const MAX_TOTAL = 2_147_483_647;
  const FULL = 1_000_000;

  it("a cart's total quantity up to and past the 32-bit limit: 400 on quantity, never 500", async () => {
    const cart = await ctx.request('POST', '/api/v1/carts/', {
      token: anna.token,
      body: {
        store: GLN,
        organization: 'ORG-1001',
        customer_order_number: 'PO-9',
        order_mark: 'm',
      },
    });
    expect(cart.status).toBe(201);
    const cartId: number = cart.body.id;
    const add = (part: string, quantity: number) =>
      ctx.request('POST', '/api/v1/items/', {
        token: anna.token,
        body: { cart: cartId, part_number: part, quantity },
      });
    const lines = Math.floor(MAX_TOTAL / FULL); // 2,147 full lines fit
    const statuses = new Map<number, number>();
    for (let start = 0; start < lines; start += 16) {
      const batch = [];
      for (let i = start; i < Math.min(lines, start + 16); i++) batch.push(add(`P-${i}`, FULL));
      for (const answer of await Promise.all(batch)) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({ 201: lines });
    const tooMuch = { quantity: [expect.stringContaining(String(MAX_TOTAL))] };

    // The 2,148th line: over the cart's total.
    const over = await add('P-over', FULL);
    expect(over.status, over.text).toBe(400);
    expect(over.body).toEqual(tooMuch);
    // What still fits is taken: 483,647 more, then 1 more is too much.
    const room = MAX_TOTAL - lines * FULL;
    const last = await add('P-last', room);
    expect(last.status).toBe(201);
    expect((await add('P-one', 1)).status).toBe(400);
    // Merging into a line of the cart is refused the same way.
    const merge = await add('P-last', 1);
    expect(merge.status).toBe(400);

    // PATCH a line up past the total; then down, and the freed room is usable again.
    const patch = (quantity: number) =>
      ctx.request('PATCH', `/api/v1/items/${last.body.id}/`, {
        token: anna.token,
        body: { quantity },
      });
    const patchedUp = await patch(room + 1);
    expect(patchedUp.status, patchedUp.text).toBe(400);
    expect(patchedUp.body).toEqual(tooMuch);
    expect((await patch(room - 10)).status).toBe(200);
    expect((await add('P-ten', 10)).status).toBe(201);

    // Nothing refused was written: the counters are the sum of the lines.
    const stored = await ctx.request('GET', `/api/v1/carts/${cartId}/`, { token: anna.token });
    expect(stored.status).toBe(200);
    expect(stored.body.total_quantity).toBe(MAX_TOTAL);
    expect(stored.body.items_count).toBe(lines + 2);
    // The lists and statistics summing such carts still answer.
    for (const path of ['/api/v1/carts/', '/api/v1/carts/stats/', '/api/v1/monthly-scores/']) {
      const answer = await ctx.request('GET', path, { token: carla.token });
      expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(500);
    }
  }, 300_000);
});
