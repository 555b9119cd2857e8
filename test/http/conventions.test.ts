import { eq } from 'drizzle-orm';
import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.js';
import { type Answer, type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createCart, organizationsOf } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let org: string;
beforeAll(async () => {
  ctx = await startTestApp();
  anna = await ctx.login('anna');
  [org] = await organizationsOf(ctx, anna.userId);
});
afterAll(() => ctx?.close());

const CARTS = '/api/v1/carts/';
const ITEMS = '/api/v1/items/';

const cartBody = (n: string) => ({ organization: org, customer_order_number: n, order_mark: '' });

const newCart = (n: string) => createCart(ctx, anna, cartBody(n));

/** An error answer: JSON, `application/json`, and nothing of the server's insides. */
function expectJsonError(answer: Answer): void {
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(() => JSON.parse(answer.text)).not.toThrow();
  expect(answer.text).not.toMatch(
    /stack|\bat .+\.(?:ts|js):\d+|node_modules|Error:|select |insert /i,
  );
}

describe('paths', () => {
  it('redirects GET without the trailing slash with 308, keeping the query string', async () => {
    const answer = await ctx.request('GET', '/api/v1/carts?page_size=5&ordering=-created', {
      token: anna.token,
    });
    expect(answer.status).toBe(308);
    expect(answer.headers.get('location')).toBe('/api/v1/carts/?page_size=5&ordering=-created');
    expect(answer.text).toBe('');
    const followed = await ctx.request('GET', answer.headers.get('location') as string, {
      token: anna.token,
    });
    expect(followed.status, followed.text).toBe(200);
    expect(followed.body.count).toBeTypeOf('number');
  });

  it('redirects a path with parameters', async () => {
    const id = await newCart('REDIRECT-GET');
    const answer = await ctx.request('GET', `/api/v1/carts/${id}`, { token: anna.token });
    expect(answer.status).toBe(308);
    expect(answer.headers.get('location')).toBe(`/api/v1/carts/${id}/`);
  });

  it('redirects POST with 308 and the method and body work at the new location', async () => {
    const body = cartBody('REDIRECT-POST');
    const answer = await ctx.request('POST', '/api/v1/carts?x=1', { token: anna.token, body });
    expect(answer.status).toBe(308);
    const location = answer.headers.get('location') as string;
    expect(location).toBe('/api/v1/carts/?x=1');
    const followed = await ctx.request('POST', location, { token: anna.token, body });
    expect(followed.status, followed.text).toBe(201);
    expect(followed.body.customer_order_number).toBe('REDIRECT-POST');
  });

  it('lets fetch follow the 308 of a POST by itself (method and body kept)', async () => {
    const response = await fetch(`${ctx.url}/api/v1/carts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${anna.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(cartBody('REDIRECT-FOLLOWED')),
    });
    expect(response.status).toBe(201);
    expect((await response.json()).customer_order_number).toBe('REDIRECT-FOLLOWED');
  });

  it('answers an unknown path with a JSON 404', async () => {
    for (const path of [
      '/api/v1/nothing-here/',
      '/api/v1/nothing-here',
      '/nope',
      '/api/v2/carts/',
    ]) {
      const answer = await ctx.request('GET', path, { token: anna.token });
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
      expectJsonError(answer);
    }
  });

  it('answers a missing file under a wildcard route with 404, not a redirect', async () => {
    for (const path of ['/api/docs/static/nope.js', '/api/docs/static/nope.js/']) {
      const answer = await ctx.request('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });

  it('answers a 404 for an unknown path without asking for a token', async () => {
    const answer = await ctx.request('POST', '/api/v1/nothing-here/', { body: {} });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const answer = await ctx.request('DELETE', CARTS, { token: anna.token });
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual({ detail: expect.any(String), code: 'method_not_allowed' });
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expectJsonError(answer);
    const put = await ctx.request('PUT', '/api/v1/carts/1/', { token: anna.token });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const get = await ctx.request('GET', '/api/v1/carts/1/checkout/', { token: anna.token });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('PATCH, OPTIONS');
  });

  it('answers HEAD on a GET route with 200 and no body', async () => {
    const answer = await ctx.request('HEAD', CARTS, { token: anna.token });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    const health = await ctx.request('HEAD', '/healthz');
    expect(health.status).toBe(200);
    expect(health.text).toBe('');
  });

  it('answers OPTIONS on a GET route with 200 and Allow', async () => {
    const answer = await ctx.request('OPTIONS', CARTS, { token: anna.token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const one = await ctx.request('OPTIONS', '/api/v1/carts/1/', { token: anna.token });
    expect(one.status).toBe(200);
    expect(one.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const health = await ctx.request('OPTIONS', '/healthz');
    expect(health.status).toBe(200);
    expect(health.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('request bodies', () => {
  it('refuses a body over 1 MiB with 413', async () => {
    const big = { ...cartBody('BIG'), padding: 'x'.repeat(1024 * 1024 + 10) };
    const answer = await ctx.request('POST', CARTS, { token: anna.token, body: big });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ detail: expect.any(String), code: 'payload_too_large' });
    expectJsonError(answer);
  });

  it('accepts a body just under 1 MiB', async () => {
    const body = cartBody('ALMOST-BIG');
    const padding = 'x'.repeat(1024 * 1024 - JSON.stringify({ ...body, padding: '' }).length);
    const answer = await ctx.request('POST', CARTS, {
      token: anna.token,
      body: { ...body, padding },
    });
    expect(answer.status, answer.text.slice(0, 200)).toBe(201);
  });

  it('refuses a body that is not JSON with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const answer = await ctx.request('POST', CARTS, {
        token: anna.token,
        raw: JSON.stringify(cartBody('TEXT')),
        headers: { 'content-type': type },
      });
      expect(answer.status, type).toBe(415);
      expect(answer.body).toEqual({ detail: expect.any(String), code: 'unsupported_media_type' });
      expectJsonError(answer);
    }
  });

  it('refuses a body without a content type with 415', async () => {
    const response = await fetch(`${ctx.url}${CARTS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${anna.token}` },
      body: new Uint8Array(Buffer.from(JSON.stringify(cartBody('NO-TYPE')))),
    });
    expect(response.status).toBe(415);
    expect((await response.json()).code).toBe('unsupported_media_type');
  });

  it('accepts JSON with a charset and +json types', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      const answer = await ctx.request('POST', CARTS, {
        token: anna.token,
        raw: JSON.stringify(cartBody('CHARSET')),
        headers: { 'content-type': type },
      });
      expect(answer.status, type).toBe(201);
    }
  });

  it('answers malformed JSON with 400 non_field_errors', async () => {
    for (const raw of ['{"organization": ', '{organization: 1}', "{'a': 1}", '[1,]']) {
      const answer = await ctx.request('POST', CARTS, {
        token: anna.token,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, raw).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['non_field_errors']);
      expect(answer.body.non_field_errors).toEqual([expect.any(String)]);
      expectJsonError(answer);
    }
  });

  it('answers a JSON body that is not an object with 400 non_field_errors', async () => {
    for (const raw of ['[]', '"text"', '42', 'null']) {
      const answer = await ctx.request('POST', CARTS, {
        token: anna.token,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, raw).toBe(400);
      expect(Object.keys(answer.body), raw).toEqual(['non_field_errors']);
    }
  });

  it('answers an empty body as an empty object: the required fields', async () => {
    const required = {
      organization: ['This field is required.'],
      customer_order_number: ['This field is required.'],
      order_mark: ['This field is required.'],
    };
    const empty = await ctx.request('POST', CARTS, {
      token: anna.token,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(required);
    expectJsonError(empty);
    const bare = await ctx.request('POST', CARTS, { token: anna.token });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual(required);
  });
});

describe('validation errors', () => {
  let cart: number;
  beforeAll(async () => {
    cart = await newCart('VALIDATION');
  });
  const postItem = (body: unknown) => ctx.request('POST', ITEMS, { token: anna.token, body });

  it('names the field with a wrong type', async () => {
    const answer = await postItem({ cart, part_number: 'P-1', quantity: 'many' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ quantity: ['A valid integer is required.'] });
    const fraction = await postItem({ cart, part_number: 'P-1', quantity: 1.5 });
    expect(fraction.body).toEqual({ quantity: ['A valid integer is required.'] });
    const text = await postItem({ cart, part_number: 7, quantity: 1 });
    expect(text.body).toEqual({ part_number: ['Not a valid string.'] });
  });

  it('says a missing field is required', async () => {
    const answer = await postItem({ cart, part_number: 'P-1' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ quantity: ['This field is required.'] });
  });

  it('says a null field may not be null', async () => {
    const answer = await postItem({ cart, part_number: 'P-1', quantity: null });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ quantity: ['This field may not be null.'] });
  });

  it('checks ranges and lengths', async () => {
    const zero = await postItem({ cart, part_number: 'P-1', quantity: 0 });
    expect(zero.body).toEqual({ quantity: ['Ensure this value is greater than or equal to 1.'] });
    const huge = await postItem({ cart, part_number: 'P-1', quantity: 1_000_001 });
    expect(huge.body).toEqual({
      quantity: ['Ensure this value is less than or equal to 1000000.'],
    });
    const blank = await postItem({ cart, part_number: '', quantity: 1 });
    expect(blank.body).toEqual({ part_number: ['This field may not be blank.'] });
    const long = await postItem({ cart, part_number: 'x'.repeat(65), quantity: 1 });
    expect(long.body).toEqual({
      part_number: ['Ensure this field has no more than 64 characters.'],
    });
  });

  it('reports several fields at once', async () => {
    const answer = await postItem({ cart: 'one', quantity: null });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      cart: ['A valid integer is required.'],
      part_number: ['This field is required.'],
      quantity: ['This field may not be null.'],
    });
    const cartAnswer = await ctx.request('POST', CARTS, { token: anna.token, body: {} });
    expect(cartAnswer.status).toBe(400);
    expect(cartAnswer.body).toEqual({
      organization: ['This field is required.'],
      customer_order_number: ['This field is required.'],
      order_mark: ['This field is required.'],
    });
  });

  it('ignores unknown body fields', async () => {
    const answer = await postItem({
      cart,
      part_number: 'P-UNKNOWN',
      quantity: 2,
      colour: 'red',
      nested: { a: [1, 2] },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.quantity).toBe(2);
    expect(answer.body).not.toHaveProperty('colour');
    const created = await ctx.request('POST', CARTS, {
      token: anna.token,
      body: { ...cartBody('UNKNOWN-FIELDS'), id: 999_999, user: 12345, created: 'yesterday' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.id).not.toBe(999_999);
  });

  it('answers a malformed path parameter with 404', async () => {
    const answer = await ctx.request('GET', '/api/v1/carts/abc/', { token: anna.token });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });
});

describe('authentication', () => {
  const expect401 = (answer: Answer, code: string) => {
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: expect.any(String), code });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expectJsonError(answer);
  };
  const withHeader = (authorization: string, method = 'GET', path = CARTS) =>
    ctx.request(method, path, { headers: { authorization } });

  it('answers 401 not_authenticated without a token', async () => {
    expect401(await ctx.request('GET', CARTS), 'not_authenticated');
    expect401(await ctx.request('POST', CARTS, { body: cartBody('X') }), 'not_authenticated');
    expect401(await ctx.request('GET', '/api/v1/carts/1/'), 'not_authenticated');
  });

  it('turns a request without a token away before reading its body', async () => {
    const answer = await ctx.request('POST', CARTS, {
      raw: 'not json',
      headers: { 'content-type': 'application/json' },
    });
    expect401(answer, 'not_authenticated');
  });

  it('answers 401 token_not_valid for a token signed with another secret', async () => {
    const claims = JSON.parse(Buffer.from(anna.token.split('.')[1], 'base64url').toString());
    const forged = createSigner({ key: 'another-secret-another-secret', algorithm: 'HS256' })(
      claims,
    );
    expect401(await withHeader(`Bearer ${forged}`), 'token_not_valid');
    const [head, body] = anna.token.split('.');
    expect401(await withHeader(`Bearer ${head}.${body}.AAAA`), 'token_not_valid');
  });

  it('answers 401 token_not_valid for garbage', async () => {
    for (const token of ['garbage', 'a.b.c', 'eyJhbGciOiJub25lIn0.e30.']) {
      expect401(await withHeader(`Bearer ${token}`), 'token_not_valid');
    }
  });

  it('answers 401 for an Authorization header that is not a bearer token', async () => {
    const answer = await withHeader(`Basic ${Buffer.from('anna:x').toString('base64')}`);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  it('accepts the JWT prefix like Bearer', async () => {
    const jwt = await withHeader(`JWT ${anna.token}`);
    expect(jwt.status, jwt.text).toBe(200);
    const bearer = await withHeader(`Bearer ${anna.token}`);
    expect(bearer.status).toBe(200);
    expect(jwt.body.count).toBe(bearer.body.count);
  });

  it('answers 401 token_not_valid for the token of a deleted user', async () => {
    const bruno = await ctx.login('bruno');
    expect((await ctx.request('GET', CARTS, { token: bruno.token })).status).toBe(200);
    await ctx.database.db.delete(users).where(eq(users.id, bruno.userId));
    expect401(await ctx.request('GET', CARTS, { token: bruno.token }), 'token_not_valid');
  });

  it('answers 401 token_not_valid for an expired token', async () => {
    const carla = await ctx.login('carla');
    expect((await ctx.request('GET', CARTS, { token: carla.token })).status).toBe(200);
    ctx.clock.advance(3599);
    expect((await ctx.request('GET', CARTS, { token: carla.token })).status).toBe(200);
    ctx.clock.advance(2);
    expect401(await ctx.request('GET', CARTS, { token: carla.token }), 'token_not_valid');
    expect401(await withHeader(`JWT ${carla.token}`), 'token_not_valid');
    // A fresh login works again at the new time.
    anna = await ctx.login('anna');
    expect((await ctx.request('GET', CARTS, { token: anna.token })).status).toBe(200);
  });
});

describe('request ids', () => {
  it('echoes X-Request-Id', async () => {
    const answer = await ctx.request('GET', CARTS, {
      token: anna.token,
      headers: { 'x-request-id': 'client-chosen-id-42' },
    });
    expect(answer.headers.get('x-request-id')).toBe('client-chosen-id-42');
    const error = await ctx.request('GET', '/api/v1/nothing/', {
      headers: { 'x-request-id': 'id-of-a-404' },
    });
    expect(error.headers.get('x-request-id')).toBe('id-of-a-404');
    const unauthenticated = await ctx.request('GET', CARTS, {
      headers: { 'x-request-id': 'id-of-a-401' },
    });
    expect(unauthenticated.headers.get('x-request-id')).toBe('id-of-a-401');
  });

  it('generates one when absent, different per request', async () => {
    const first = (await ctx.request('GET', '/healthz')).headers.get('x-request-id');
    const second = (await ctx.request('GET', '/healthz')).headers.get('x-request-id');
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toBe(second);
  });

  it('replaces an overlong or odd X-Request-Id with a generated one', async () => {
    for (const given of ['x'.repeat(129), 'has space', 'quote"', '<script>']) {
      const answer = await ctx.request('GET', '/healthz', { headers: { 'x-request-id': given } });
      expect(answer.headers.get('x-request-id'), given).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = 'a'.repeat(128);
    const kept = await ctx.request('GET', '/healthz', { headers: { 'x-request-id': longest } });
    expect(kept.headers.get('x-request-id')).toBe(longest);
  });
});

describe('null characters (PostgreSQL text cannot hold them)', () => {
  it('a path parameter with one names no object: 404', async () => {
    const session = await ctx.login('anna');
    const answer = await ctx.request('GET', '/api/v1/stores/40123%0045000009/', {
      token: session.token,
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });

  it('a query or body field with one is a 400 on that field', async () => {
    const session = await ctx.login('anna');
    const query = await ctx.request('GET', '/api/v1/carts/?gln=%00', { token: session.token });
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ gln: ['Null characters are not allowed.'] });
    const body = await ctx.request('POST', '/api/v1/carts/', {
      token: session.token,
      body: { organization: 'ORG-1001', customer_order_number: 'PO\u0000', order_mark: '' },
    });
    expect(body.status).toBe(400);
    expect(body.body).toEqual({ customer_order_number: ['Null characters are not allowed.'] });
  });
});
