import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withCheckDigit } from '../../erp-simulator/data.js';
import {
  DEMO_SERVICE_ACCOUNT,
  DEMO_STORE_GLNS,
  DEMO_USERS,
  demoData,
  type Simulator,
  startSimulator,
} from '../../erp-simulator/server.js';

let sim: Simulator;

async function call(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${sim.url}${path}`, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  return { status: res.status, headers: res.headers, text, json: json as any };
}

async function login(username: string, password: string): Promise<string> {
  const res = await call('POST', '/auth/token', { body: { username, password } });
  expect(res.status).toBe(200);
  return res.json.access_token;
}

const user = (name: string) => DEMO_USERS.find((u) => u.username === name)!;
const loginAs = (name: string) => login(name, user(name).password);

let anna: string;
let bruno: string;
let service: string;

function order(overrides: Record<string, unknown> = {}) {
  return {
    channel: 'store',
    store_gln: DEMO_STORE_GLNS[0],
    organization_id: 'ORG-1001',
    customer_order_number: 'PO-77',
    order_mark: 'Site Nord',
    reference: 'AH-PLUMB',
    lines: [
      { part_number: '10001234', quantity: 4 },
      { part_number: '30001018', quantity: 1 },
    ],
    ...overrides,
  };
}

const postOrder = (key: string | undefined, body: unknown, token = anna) =>
  call('POST', '/orders', {
    token,
    body,
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

beforeAll(async () => {
  sim = await startSimulator();
  anna = await loginAs('anna');
  bruno = await loginAs('bruno');
  service = await login(DEMO_SERVICE_ACCOUNT.username, DEMO_SERVICE_ACCOUNT.password);
});

afterAll(async () => {
  await sim.close();
});

beforeEach(() => sim.clearFaults());

describe('demo data', () => {
  it('has valid GS1 check digits on store GLNs and product EANs', () => {
    for (const gln of DEMO_STORE_GLNS) expect(withCheckDigit(gln.slice(0, 12))).toBe(gln);
    const products = Object.values(demoData().products);
    expect(products.length).toBeGreaterThanOrEqual(30);
    for (const p of products) {
      expect(p.product.ean).toMatch(/^\d{13}$/);
      expect(withCheckDigit(p.product.ean.slice(0, 12))).toBe(p.product.ean);
    }
  });

  it('returns a fresh copy each call', () => {
    const a = demoData();
    a.users[0].password = 'changed';
    expect(demoData().users[0].password).not.toBe('changed');
  });
});

describe('identity', () => {
  it('logs in and refuses bad credentials', async () => {
    const ok = await call('POST', '/auth/token', {
      body: { username: 'anna', password: 'anna-pass-2026' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
    });
    const bad = await call('POST', '/auth/token', {
      body: { username: 'anna', password: 'wrong' },
    });
    expect(bad.status).toBe(401);
    expect(bad.json).toEqual({ error: 'invalid_credentials' });
  });

  it('answers 400 JSON on malformed or mistyped bodies', async () => {
    const malformed = await call('POST', '/auth/token', {
      rawBody: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toBe('invalid_json');
    const mistyped = await call('POST', '/auth/token', { body: { username: 1, password: [] } });
    expect(mistyped.status).toBe(400);
    const order = await call('POST', '/orders', {
      token: anna,
      rawBody: '[1,',
      headers: { 'idempotency-key': 'k-bad-json' },
    });
    expect(order.status).toBe(400);
  });

  it('rotates refresh tokens', async () => {
    const first = await call('POST', '/auth/token', {
      body: { username: 'bruno', password: 'bruno-pass-2026' },
    });
    const refreshed = await call('POST', '/auth/refresh', {
      body: { refresh_token: first.json.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(first.json.refresh_token);
    expect((await call('GET', '/me', { token: refreshed.json.access_token })).status).toBe(200);
    const again = await call('POST', '/auth/refresh', {
      body: { refresh_token: first.json.refresh_token },
    });
    expect(again.status).toBe(401);
  });

  it('returns the profile on /me and 401 without a valid token', async () => {
    const me = await call('GET', '/me', { token: anna });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({
      username: 'anna',
      email: 'anna@example.com',
      first_name: 'Anna',
      telephone: '+4915112345678',
    });
    expect(me.json.organizations).toHaveLength(2);
    expect(me.json.organizations[1]).toEqual({
      organization_id: 'ORG-1002',
      code: expect.any(String),
      name: expect.any(String),
      parent_code: me.json.organizations[0].code,
      has_unlimited_credit: false,
    });
    const carla = await call('GET', '/me', { token: await loginAs('carla') });
    expect(carla.json.reference).toBeNull();
    expect((await call('GET', '/me')).json).toEqual({ error: 'invalid_token' });
    expect((await call('GET', '/me', { token: 'nope' })).status).toBe(401);
  });

  it('revokes tokens of one user or all', async () => {
    const token = await loginAs('carla');
    sim.revokeTokens('carla');
    expect((await call('GET', '/me', { token })).status).toBe(401);
    expect((await call('GET', '/me', { token: anna })).status).toBe(200);
  });

  it('expires tokens after the TTL', async () => {
    const short = await startSimulator({ tokenTtlSeconds: 0 });
    try {
      const res = await fetch(`${short.url}/auth/token`, {
        method: 'POST',
        body: JSON.stringify({ username: 'anna', password: 'anna-pass-2026' }),
      });
      const { access_token } = (await res.json()) as { access_token: string };
      const me = await fetch(`${short.url}/me`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(me.status).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('changes the password with the right current one only', async () => {
    const token = await login('bruno', 'bruno-pass-2026');
    const wrong = await call('PUT', '/me/password', {
      token,
      body: { password: 'nope', new_password: 'bruno-new-2026' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: 'invalid_password' });
    const short = await call('PUT', '/me/password', {
      token,
      body: { password: 'bruno-pass-2026', new_password: 'short' },
    });
    expect(short.json).toEqual({ error: 'invalid_new_password' });
    const ok = await call('PUT', '/me/password', {
      token,
      body: { password: 'bruno-pass-2026', new_password: 'bruno-new-2026' },
    });
    expect(ok.status).toBe(204);
    await login('bruno', 'bruno-new-2026');
    sim.data.users.find((u) => u.username === 'bruno')!.password = 'bruno-pass-2026';
  });

  it('keeps admin routes to the service account', async () => {
    for (const [method, path] of [
      ['GET', '/admin/users/anna'],
      ['GET', '/admin/users?email=anna@example.com'],
      ['PUT', '/admin/users/anna/password'],
    ]) {
      const body = method === 'PUT' ? { new_password: 'x'.repeat(10) } : undefined;
      const res = await call(method, path, { token: anna, body });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'forbidden' });
    }
    const one = await call('GET', '/admin/users/anna', { token: service });
    expect(one.json).toEqual({ username: 'anna', email: 'anna@example.com' });
    expect((await call('GET', '/admin/users/nobody', { token: service })).status).toBe(404);
    const byEmail = await call('GET', '/admin/users?email=ANNA%40Example.com', { token: service });
    expect(byEmail.json).toEqual([{ username: 'anna', email: 'anna@example.com' }]);
    const none = await call('GET', '/admin/users?email=x@example.com', { token: service });
    expect(none.json).toEqual([]);
    const reset = await call('PUT', '/admin/users/carla/password', {
      token: service,
      body: { new_password: 'carla-reset-2026' },
    });
    expect(reset.status).toBe(204);
    await login('carla', 'carla-reset-2026');
    sim.data.users.find((u) => u.username === 'carla')!.password = 'carla-pass-2026';
    const missing = await call('PUT', '/admin/users/nobody/password', {
      token: service,
      body: { new_password: 'whatever-123' },
    });
    expect(missing.status).toBe(404);
  });
});

describe('catalogue', () => {
  it('returns a product with every field, 404 for an unknown one', async () => {
    const res = await call('GET', '/products/10001234', { token: anna });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(
      [
        'id',
        'product_id',
        'article_number',
        'name',
        'description',
        'ean',
        'supply_group',
        'discontinued',
        'tradepoint',
        'product_slug',
        'variant_slug',
        'assortment_ids',
        'campaign_ids',
        'classifications',
        'assets',
        'filter_tags',
        'images',
        'attributes',
      ].sort(),
    );
    expect(res.json.name).toBe('Copper pipe 15 mm x 5 m');
    expect(res.json.images[0]).toEqual({ asset_url: expect.any(String), asset_type: 'main' });
    const missing = await call('GET', '/products/99999999', { token: anna });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: 'not_found' });
    expect((await call('GET', '/products/10001234')).status).toBe(401);
  });

  it('prices per customer with decimal strings', async () => {
    const a = (await call('GET', '/products/10001234/price', { token: anna })).json;
    const b = (await call('GET', '/products/10001234/price', { token: bruno })).json;
    expect(a.net_price).not.toBe(b.net_price);
    for (const field of [
      'net_price',
      'sales_price',
      'customer_discount_price',
      'pre_campaign_price',
      'discount_amount',
      'discount_percentage',
      'alloying_price',
      'alloying_amount',
    ]) {
      expect(a[field]).toMatch(/^\d+\.\d{2}$/);
    }
    // 24.90 list, 12.50 % off (3.11), plus 2.10 copper surcharge.
    expect(a).toMatchObject({
      article_number: '10001234',
      sales_price: '24.90',
      customer_discount_price: '21.79',
      net_price: '23.89',
      ask_for_price: false,
      sales_price_unit: 'piece',
      alloying_unit: '100 kg',
    });
    expect(a.discounts).toEqual([
      { name: 'Customer discount', type: 'customer', percentage: '12.50', amount: '3.11' },
    ]);
    expect((await call('GET', '/products/99999999/price', { token: anna })).status).toBe(404);
  });

  it('answers stock per location', async () => {
    const missing = await call('GET', '/products/10001234/stock', { token: anna });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'location_id_required' });
    const green = await call('GET', `/products/10001234/stock?location_id=${DEMO_STORE_GLNS[0]}`, {
      token: anna,
    });
    expect(green.json).toMatchObject({
      location_id: DEMO_STORE_GLNS[0],
      quantity: 42,
      stocked: true,
      availability: 'green',
      availability_date: null,
      order_multiple: 1,
    });
    expect(Object.keys(green.json)).toHaveLength(10);
    const yellow = await call('GET', `/products/10001234/stock?location_id=${DEMO_STORE_GLNS[1]}`, {
      token: anna,
    });
    expect(yellow.json.availability).toBe('yellow');
    const red = await call('GET', `/products/10001234/stock?location_id=${DEMO_STORE_GLNS[2]}`, {
      token: anna,
    });
    expect(red.json).toMatchObject({ quantity: 0, availability: 'red', stocked: true });
    expect(red.json.availability_date_iso).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const unknown = await call('GET', '/products/10001234/stock?location_id=nowhere', {
      token: anna,
    });
    expect(unknown.json).toMatchObject({ quantity: 0, stocked: false, availability: 'red' });
  });

  it('returns three category trees', async () => {
    const res = await call('GET', '/categories', { token: anna });
    expect(res.json).toHaveLength(3);
    for (const top of res.json) {
      expect(top.sort).toEqual(expect.any(Number));
      for (const child of top.children) {
        expect(child.sort).toBeUndefined();
        for (const leaf of child.children) {
          expect(leaf.children).toBeUndefined();
          expect(leaf.slug.split('/')).toHaveLength(3);
        }
      }
    }
    expect(res.json[0].children[0].children[0].slug).toBe('plumbing/pipes/copper');
  });
});

describe('customers', () => {
  it('answers credit for members only', async () => {
    const yes = await call('GET', '/organizations/ORG-1001/credit', { token: anna });
    expect(yes.json).toEqual({ credit: true });
    const no = await call('GET', '/organizations/ORG-1002/credit', { token: anna });
    expect(no.json).toEqual({ credit: false });
    const notMember = await call('GET', '/organizations/ORG-1003/credit', { token: anna });
    expect(notMember.status).toBe(404);
    const unknown = await call('GET', '/organizations/ORG-9999/credit', { token: anna });
    expect(unknown.status).toBe(404);
  });

  it('lists shipments by telephone', async () => {
    const res = await call('GET', '/shipments?telephone=%2B4915112345678', { token: anna });
    expect(res.json.length).toBeGreaterThan(0);
    expect(Object.keys(res.json[0]).sort()).toEqual(
      [
        'RefNo',
        'YourRefNo',
        'SId',
        'SService',
        'SStatusTxt',
        'CSTrURL',
        'PortalTrURL',
        'SKey',
        'SStatusDTime',
      ].sort(),
    );
    expect(res.json[0].SStatusDTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const none = await call('GET', '/shipments?telephone=%2B490000', { token: anna });
    expect(none.json).toEqual([]);
  });

  it('answers 404 JSON for unknown paths', async () => {
    const res = await call('GET', '/nowhere', { token: anna });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'not_found' });
  });
});

describe('orders', () => {
  it('places an order once per idempotency key', async () => {
    const before = sim.orders.length;
    const first = await postOrder('key-replay', order());
    expect(first.status).toBe(201);
    expect(first.json.order_id).toMatch(/^ord_/);
    expect(first.json.order_number).toMatch(/^SO-\d{4}-\d{6}$/);
    const replay = await postOrder('key-replay', order());
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual(first.json);
    expect(sim.orders.length).toBe(before + 1);
    expect(sim.orders.at(-1)).toMatchObject({
      order_id: first.json.order_id,
      idempotency_key: 'key-replay',
      status: 'placed',
      placed_by: 'anna',
    });
    const reused = await postOrder('key-replay', order({ order_mark: 'other' }));
    expect(reused.status).toBe(409);
    expect(reused.json).toEqual({ error: 'idempotency_key_reused' });
  });

  it('numbers orders sequentially', async () => {
    const a = await postOrder('key-seq-1', order());
    const b = await postOrder('key-seq-2', order());
    const seq = (n: string) => Number(n.slice(-6));
    expect(seq(b.json.order_number)).toBe(seq(a.json.order_number) + 1);
  });

  it('requires a key and a valid body', async () => {
    const noKey = await postOrder(undefined, order());
    expect(noKey.status).toBe(400);
    expect(noKey.json).toEqual({ error: 'idempotency_key_required' });
    for (const bad of [
      order({ channel: 'drone' }),
      order({ lines: [] }),
      order({ lines: [{ part_number: '10001234', quantity: 0 }] }),
      order({ lines: [{ part_number: '10001234', quantity: 1.5 }] }),
      order({ organization_id: 1001 }),
      order({ store_gln: null }),
      'not an object',
    ]) {
      const res = await postOrder('key-invalid', bad);
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_order');
      expect(res.json.detail).toEqual(expect.any(String));
    }
    const warehouse = await postOrder(
      'key-warehouse',
      order({ channel: 'warehouse', store_gln: null }),
    );
    expect(warehouse.status).toBe(201);
  });

  it('does not remember a 503', async () => {
    const before = sim.orders.length;
    sim.inject('orders', { type: 'unavailable' });
    const down = await postOrder('key-503', order());
    expect(down.status).toBe(503);
    expect(down.json).toEqual({ error: 'unavailable', detail: expect.any(String) });
    expect(sim.orders.length).toBe(before);
    const retry = await postOrder('key-503', order());
    expect(retry.status).toBe(201);
    expect(sim.orders.length).toBe(before + 1);
  });

  it('places a saturated order and answers 202 again on replay', async () => {
    sim.inject('orders', { type: 'saturated' });
    const queued = await postOrder('key-202', order());
    expect(queued.status).toBe(202);
    expect(queued.json).toEqual({
      order_id: expect.stringMatching(/^ord_/),
      order_number: expect.any(String),
      status: 'queued',
    });
    expect(sim.orders.at(-1)).toMatchObject({ order_id: queued.json.order_id, status: 'queued' });
    const replay = await postOrder('key-202', order());
    expect(replay.status).toBe(202);
    expect(replay.json).toEqual(queued.json);
  });

  it('records calls with their headers', async () => {
    await postOrder('key-calls', order());
    expect(sim.calls.at(-1)).toEqual({
      route: 'orders',
      method: 'POST',
      path: '/orders',
      authorization: `Bearer ${anna}`,
      idempotencyKey: 'key-calls',
    });
  });
});

describe('faults', () => {
  it('reset destroys the connection', async () => {
    sim.inject('categories', { type: 'reset' });
    await expect(
      fetch(`${sim.url}/categories`, { headers: { authorization: `Bearer ${anna}` } }),
    ).rejects.toThrow();
    expect((await call('GET', '/categories', { token: anna })).status).toBe(200);
  });

  it('malformed answers 200 JSON that does not parse', async () => {
    sim.inject('me', { type: 'malformed' });
    const res = await call('GET', '/me', { token: anna });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(() => JSON.parse(res.text)).toThrow();
  });

  it('html500 answers an HTML page', async () => {
    sim.inject('products.get', { type: 'html500' });
    const res = await call('GET', '/products/10001234', { token: anna });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<html>');
  });

  it('html answers an HTML page with the given status (a gateway in front)', async () => {
    sim.inject('auth.token', { type: 'html', status: 504 });
    const res = await call('POST', '/auth/token', { body: { username: 'anna', password: 'x' } });
    expect(res.status).toBe(504);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<html>');
    const bad = await call('POST', '/_sim/faults', {
      body: { route: 'me', fault: { type: 'html' } },
    });
    expect(bad.status).toBe(400);
  });

  it('after: the order is placed, and only its answer is lost or spoilt', async () => {
    for (const [i, fault] of [
      { type: 'reset' },
      { type: 'html', status: 502 },
      { type: 'malformed' },
      { type: 'unavailable' },
    ].entries()) {
      const before = sim.orders.length;
      const key = `key-after-${i}`;
      expect(
        (
          await call('POST', '/_sim/faults', {
            body: { route: 'orders', fault: { ...fault, after: true } },
          })
        ).status,
      ).toBe(204);
      const spoilt = await postOrder(key, order()).catch(() => 'cut');
      if (fault.type === 'reset') expect(spoilt).toBe('cut');
      else expect((spoilt as { status: number }).status).not.toBe(201);
      expect(sim.orders.length).toBe(before + 1);
      expect(sim.orders.at(-1)?.idempotency_key).toBe(key);
      // The replay gets the first answer: the order placed under the spoilt one.
      const replay = await postOrder(key, order());
      expect(replay.status).toBe(201);
      expect(replay.json.order_id).toBe(sim.orders.at(-1)?.order_id);
      expect(sim.orders.length).toBe(before + 1);
    }
  });

  it('hang with next: held until release(), then the next fault', async () => {
    const before = sim.orders.length;
    sim.inject('orders', { type: 'hang', next: { type: 'unavailable' } });
    const received = sim.calls.length;
    const held = postOrder('key-hang-then', order());
    while (sim.calls.length < received + 1) await new Promise((r) => setTimeout(r, 10));
    sim.release();
    expect((await held).status).toBe(503);
    expect(sim.orders.length).toBe(before);
    const parsed = await call('POST', '/_sim/faults', {
      body: { route: 'orders', fault: { type: 'hang', next: { type: 'nope' } } },
    });
    expect(parsed.status).toBe(400);
    expect(parsed.json.detail).toMatch(/fault\.next\.type/);
  });

  it('delay answers normally after the delay', async () => {
    sim.inject('products.price', { type: 'delay', ms: 200 });
    const started = Date.now();
    const res = await call('GET', '/products/10001234/price', { token: anna });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(res.status).toBe(200);
    expect(res.json.article_number).toBe('10001234');
  });

  it('hang holds calls until release(), then answers them as usual', async () => {
    sim.inject('products.price', { type: 'hang' }, 2);
    const received = sim.calls.length;
    const held = [1, 2].map(() => call('GET', '/products/10001234/price', { token: anna }));
    let settled = 0;
    for (const pending of held) pending.then(() => settled++);
    while (sim.calls.length < received + 2) await new Promise((r) => setTimeout(r, 10));
    // Other routes, and calls past the injected ones, answer meanwhile.
    expect((await call('GET', '/products/10001234/price', { token: anna })).status).toBe(200);
    expect(settled).toBe(0);
    sim.release();
    for (const res of await Promise.all(held)) {
      expect(res.status).toBe(200);
      expect(res.json.article_number).toBe('10001234');
    }
  });

  it('POST /_sim/release releases held calls', async () => {
    sim.inject('categories', { type: 'hang' });
    const received = sim.calls.length;
    const held = call('GET', '/categories', { token: anna });
    while (sim.calls.length < received + 1) await new Promise((r) => setTimeout(r, 10));
    expect((await call('POST', '/_sim/release')).status).toBe(204);
    expect((await held).status).toBe(200);
  });

  it('unauthorized answers 401 whatever the token', async () => {
    sim.inject('categories', { type: 'unauthorized' });
    const res = await call('GET', '/categories', { token: anna });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: 'invalid_token' });
  });

  it('saturated answers 202 queued on other routes', async () => {
    sim.inject('shipments', { type: 'saturated' });
    const res = await call('GET', '/shipments?telephone=1', { token: anna });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ status: 'queued' });
  });

  it('answer answers 200 with the given JSON, on the contract or not', async () => {
    sim.inject('credit', { type: 'answer', body: { credit: 'yes' } });
    const res = await call('GET', '/organizations/ORG-1001/credit', { token: anna });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({ credit: 'yes' });
    const missing = await call('POST', '/_sim/faults', {
      body: { route: 'credit', fault: { type: 'answer' } },
    });
    expect(missing.status).toBe(400);
    const set = await call('POST', '/_sim/faults', {
      body: { route: 'credit', fault: { type: 'answer', body: null } },
    });
    expect(set.status).toBe(204);
    const nullBody = await call('GET', '/organizations/ORG-1001/credit', { token: anna });
    expect(nullBody.status).toBe(200);
    expect(nullBody.text).toBe('null');
  });

  it('answer takes a status (an order placed with `after`, its answer replaced)', async () => {
    const set = await call('POST', '/_sim/faults', {
      body: { route: 'credit', fault: { type: 'answer', status: 201, body: { x: 1 } } },
    });
    expect(set.status).toBe(204);
    const res = await call('GET', '/organizations/ORG-1001/credit', { token: anna });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ x: 1 });
    for (const status of [199, 600, 201.5, '201']) {
      const bad = await call('POST', '/_sim/faults', {
        body: { route: 'credit', fault: { type: 'answer', status, body: {} } },
      });
      expect(bad.status).toBe(400);
    }
  });

  it('consumes faults after `times`, in FIFO order', async () => {
    sim.inject('categories', { type: 'unavailable' }, 2);
    sim.inject('categories', { type: 'html500' });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call('GET', '/categories', { token: anna })).status);
    expect(statuses).toEqual([503, 503, 500, 200]);
  });

  it('clearFaults drops queued faults', async () => {
    sim.inject('me', { type: 'unavailable' }, 3);
    sim.clearFaults();
    expect((await call('GET', '/me', { token: anna })).status).toBe(200);
  });

  it('is reachable over HTTP', async () => {
    const bad = await call('POST', '/_sim/faults', {
      body: { route: 'nope', fault: { type: 'reset' } },
    });
    expect(bad.status).toBe(400);
    const set = await call('POST', '/_sim/faults', {
      body: { route: 'me', fault: { type: 'unavailable' }, times: 2 },
    });
    expect(set.status).toBe(204);
    expect((await call('GET', '/me', { token: anna })).status).toBe(503);
    expect((await call('DELETE', '/_sim/faults')).status).toBe(204);
    expect((await call('GET', '/me', { token: anna })).status).toBe(200);
    const orders = await call('GET', '/_sim/orders');
    expect(orders.status).toBe(200);
    expect(orders.json).toHaveLength(sim.orders.length);
  });

  it('close cuts delayed requests short', async () => {
    const other = await startSimulator();
    const token = (
      (await (
        await fetch(`${other.url}/auth/token`, {
          method: 'POST',
          body: JSON.stringify({ username: 'anna', password: 'anna-pass-2026' }),
        })
      ).json()) as { access_token: string }
    ).access_token;
    other.inject('me', { type: 'delay', ms: 60_000 });
    const pending = fetch(`${other.url}/me`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await other.close();
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('close cuts held requests short', async () => {
    const other = await startSimulator();
    other.inject('categories', { type: 'hang' });
    const pending = fetch(`${other.url}/categories`);
    while (other.calls.length < 1) await new Promise((r) => setTimeout(r, 10));
    await other.close();
    await expect(pending).rejects.toThrow();
  });
});
