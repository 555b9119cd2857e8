import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SimRoute } from '../../erp-simulator/faults.js';
import {
  CENTRAL_WAREHOUSE,
  DEMO_STORE_GLNS,
  type Fault,
  priceFor,
  stockFor,
} from '../../erp-simulator/server.js';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { addSimUser } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let staff: Session;
let admin: Session;

const PRODUCT = '10001234';

// biome-ignore lint/suspicious/noExplicitAny: tests reshape upstream data freely, typed or not
type Loose = any;

beforeAll(async () => {
  ctx = await startTestApp();
  // An admin who is not also staff: a user the demo data lacks.
  addSimUser(ctx, 'dora', { like: 'carla', discount_basis_points: 0 });
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  staff = await ctx.loginAs('carla', 'staff');
  admin = await ctx.loginAs('dora', 'admin');
});
afterAll(() => ctx?.close());
afterEach(() => {
  ctx.sim.clearFaults();
  vi.restoreAllMocks();
});

/** GET with the session's JWT and, unless null, its upstream token. */
function get(path: string, session: Session | undefined, upstream: string | null = null) {
  const headers: Record<string, string> = {};
  if (upstream !== null) headers['authorization-upstream'] = `Bearer ${upstream}`;
  return ctx.request('GET', `/api/v1/${path}`, { token: session?.token, headers });
}
const as = (session: Session, path: string) => get(path, session, session.upstreamToken);
const simProduct = (article: string) => ctx.sim.data.products[article];
const callsOf = (route: SimRoute) => ctx.sim.calls.filter((c) => c.route === route);
const lastCall = (route: SimRoute) => callsOf(route).at(-1)!;

const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };

const PRODUCT_FIELDS = [
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
];
const PRICE_FIELDS = [
  'article_number',
  'net_price',
  'price_type',
  'sales_price',
  'customer_discount_price',
  'pre_campaign_price',
  'sales_price_unit',
  'ask_for_price',
  'discounts',
  'discount_amount',
  'discount_percentage',
  'alloying_price',
  'alloying_unit',
  'alloying_amount',
];
const STOCK_FIELDS = [
  'location_id',
  'availability_date',
  'availability_date_iso',
  'quantity',
  'sub_availabilities',
  'order_multiple',
  'stocked',
  'available_from_days',
  'available_to_days',
  'availability',
];
const sorted = (keys: string[]) => [...keys].sort();

/** Runs `body` with a product of the simulator changed, then puts it back. */
async function withProduct(article: string, change: (p: Loose) => void, body: () => Promise<void>) {
  const kept = structuredClone(simProduct(article));
  change(simProduct(article));
  try {
    await body();
  } finally {
    ctx.sim.data.products[article] = kept;
  }
}

describe('GET products/{article_number}/', () => {
  it('answers the upstream product with exactly the fields of the interface', async () => {
    const answer = await as(anna, `products/${PRODUCT}/`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(simProduct(PRODUCT).product);
    expect(sorted(Object.keys(answer.body))).toEqual(sorted(PRODUCT_FIELDS));
    expect(answer.body.images[0]).toEqual({
      asset_url: expect.any(String),
      asset_type: 'main',
    });
    expect(answer.body.attributes[0]).toEqual({
      attribute_value: '15 mm',
      attribute_name: 'outer_diameter',
      attribute_label: 'Outer diameter',
      sort: 10,
    });
  });

  it("asks upstream on every call, with the caller's upstream token", async () => {
    const before = callsOf('products.get').length;
    await as(anna, `products/${PRODUCT}/`);
    await as(bruno, `products/${PRODUCT}/`);
    expect(callsOf('products.get').length).toBe(before + 2);
    expect(callsOf('products.get').at(-2)!.authorization).toBe(`Bearer ${anna.upstreamToken}`);
    expect(lastCall('products.get').authorization).toBe(`Bearer ${bruno.upstreamToken}`);
    expect(lastCall('products.get').path).toBe(`/products/${PRODUCT}`);
  });

  it('drops fields upstream adds, at the top and in images and attributes', async () => {
    await withProduct(
      PRODUCT,
      (p) => {
        p.product.internal_cost = '1.23';
        p.product.images[0].width = 800;
        p.product.attributes[0].hidden = true;
      },
      async () => {
        const answer = await as(anna, `products/${PRODUCT}/`);
        expect(answer.status).toBe(200);
        expect(answer.body).not.toHaveProperty('internal_cost');
        expect(Object.keys(answer.body.images[0]).sort()).toEqual(['asset_type', 'asset_url']);
        expect(Object.keys(answer.body.attributes[0]).sort()).toEqual([
          'attribute_label',
          'attribute_name',
          'attribute_value',
          'sort',
        ]);
        expect(answer.text).not.toContain('internal_cost');
      },
    );
  });

  it('passes the arrays of anything through as upstream sends them', async () => {
    const classifications = [{ id: '111', name: 'Copper pipes', extra: { deep: [1, null] } }, 7];
    const assets = [{ asset_url: 'https://x.example.com/a.pdf', asset_type: 'datasheet', n: 1 }];
    await withProduct(
      PRODUCT,
      (p) => {
        p.product.classifications = classifications;
        p.product.assets = assets;
        p.product.campaign_ids = ['CMP-1', 2];
        p.product.discontinued = true;
      },
      async () => {
        const answer = await as(anna, `products/${PRODUCT}/`);
        expect(answer.status).toBe(200);
        expect(answer.body.classifications).toEqual(classifications);
        expect(answer.body.assets).toEqual(assets);
        expect(answer.body.campaign_ids).toEqual(['CMP-1', 2]);
        expect(answer.body.discontinued).toBe(true);
      },
    );
  });

  it('is 404 for an article number upstream does not know', async () => {
    const answer = await as(anna, 'products/99999999/');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(NOT_FOUND);
  });

  it('URL-encodes the article number toward upstream', async () => {
    const odd = 'AB/12 ?#%+';
    ctx.sim.data.products[odd] = structuredClone(simProduct(PRODUCT));
    ctx.sim.data.products[odd].product.article_number = odd;
    const path = `/${encodeURIComponent(odd)}/`;
    const product = await as(anna, `products${path}`);
    expect(product.status).toBe(200);
    expect(product.body.article_number).toBe(odd);
    expect(lastCall('products.get').path).toBe(`/products/${encodeURIComponent(odd)}`);
    const price = await as(anna, `products${path}price/`);
    expect(price.status).toBe(200);
    expect(lastCall('products.price').path).toBe(`/products/${encodeURIComponent(odd)}/price`);
    const stock = await as(anna, `products${path}stock/?location_id=${DEMO_STORE_GLNS[0]}`);
    expect(stock.status).toBe(200);
    expect(lastCall('products.stock').path).toBe(
      `/products/${encodeURIComponent(odd)}/stock?location_id=${DEMO_STORE_GLNS[0]}`,
    );
  });

  it('takes article numbers of up to 64 characters; a longer one is 404 without a call', async () => {
    const before = callsOf('products.get').length;
    const long = await as(anna, `products/${'1'.repeat(65)}/`);
    expect(long.status).toBe(404);
    expect(long.body).toEqual(NOT_FOUND);
    expect(callsOf('products.get').length).toBe(before);
    const max = await as(anna, `products/${'1'.repeat(64)}/`);
    expect(max.status).toBe(404);
    expect(lastCall('products.get').path).toBe(`/products/${'1'.repeat(64)}`);
  });

  it('is 502 when upstream answers a product that does not fit the contract', async () => {
    const broken: [string, (p: Loose) => void][] = [
      ['a field missing', (p) => delete p.product.ean],
      ['a wrongly typed field', (p) => (p.product.name = 42)],
      ['a null where a string is due', (p) => (p.product.description = null)],
      ['a bad image', (p) => (p.product.images = [{ asset_url: 'x' }])],
      ['a fractional sort', (p) => (p.product.attributes[0].sort = 1.5)],
    ];
    for (const [what, change] of broken) {
      await withProduct(PRODUCT, change, async () => {
        const answer = await as(anna, `products/${PRODUCT}/`);
        expect(answer.status, what).toBe(502);
        expect(answer.body).toEqual({ detail: expect.any(String), code: 'upstream_error' });
      });
    }
  });
});

describe('GET products/{article_number}/price/', () => {
  it("answers the caller's price: anna's and bruno's differ", async () => {
    const annas = await as(anna, `products/${PRODUCT}/price/`);
    const brunos = await as(bruno, `products/${PRODUCT}/price/`);
    expect(annas.status).toBe(200);
    expect(brunos.status).toBe(200);
    expect(annas.body).toEqual(priceFor(simProduct(PRODUCT), 1250));
    expect(brunos.body).toEqual(priceFor(simProduct(PRODUCT), 500));
    expect(sorted(Object.keys(annas.body))).toEqual(sorted(PRICE_FIELDS));
    expect(annas.body.customer_discount_price).toBe('21.79');
    expect(brunos.body.customer_discount_price).toBe('23.65');
    expect(annas.body.discounts).toEqual([
      { name: 'Customer discount', type: 'customer', percentage: '12.50', amount: '3.11' },
    ]);
    expect(annas.body.ask_for_price).toBe(false);
    expect(lastCall('products.price').authorization).toBe(`Bearer ${bruno.upstreamToken}`);
  });

  it('passes decimal strings through unchanged', async () => {
    await withProduct(
      PRODUCT,
      (p) => {
        p.pricing.list_cents = 10;
        p.pricing.alloying = { price_cents: 123456789012, unit: '100 kg', amount_cents: 0 };
      },
      async () => {
        const answer = await as(bruno, `products/${PRODUCT}/price/`);
        expect(answer.status).toBe(200);
        expect(answer.body.pre_campaign_price).toBe('0.10');
        expect(answer.body.sales_price).toBe('0.10');
        expect(answer.body.alloying_price).toBe('1234567890.12');
        expect(answer.body.alloying_amount).toBe('0.00');
        expect(answer.text).toContain('"pre_campaign_price":"0.10"');
        expect(answer.text).toContain('"alloying_price":"1234567890.12"');
      },
    );
  });

  it('keeps digits a number could not hold and drops fields upstream adds', async () => {
    const upstreamPrice = {
      ...priceFor(simProduct(PRODUCT), 1250),
      net_price: '12345678901234567890.123456789',
      discount_percentage: '0.10',
      discounts: [
        { name: 'Special', type: 'customer', percentage: '0.10', amount: '0.00', code: 'X' },
      ],
      margin: '42.00',
    };
    ctx.sim.inject('products.price', { type: 'answer', body: upstreamPrice });
    const answer = await as(anna, `products/${PRODUCT}/price/`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"net_price":"12345678901234567890.123456789"');
    expect(answer.body.discount_percentage).toBe('0.10');
    expect(answer.body.discounts).toEqual([
      { name: 'Special', type: 'customer', percentage: '0.10', amount: '0.00' },
    ]);
    expect(sorted(Object.keys(answer.body))).toEqual(sorted(PRICE_FIELDS));
  });

  it('is 502 when a decimal comes as a number (it would have passed through a float)', async () => {
    ctx.sim.inject('products.price', {
      type: 'answer',
      body: { ...priceFor(simProduct(PRODUCT), 1250), net_price: 21.79 },
    });
    const answer = await as(anna, `products/${PRODUCT}/price/`);
    expect(answer.status).toBe(502);
    expect(answer.body.code).toBe('upstream_error');
  });

  it('is 404 for an unknown article number', async () => {
    const answer = await as(anna, 'products/99999999/price/');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(NOT_FOUND);
  });
});

describe('GET products/{article_number}/stock/', () => {
  const store = DEMO_STORE_GLNS[0];

  it('answers the stock at the location with exactly the fields of the interface', async () => {
    const answer = await as(anna, `products/${PRODUCT}/stock/?location_id=${store}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(stockFor(simProduct(PRODUCT), store));
    expect(sorted(Object.keys(answer.body))).toEqual(sorted(STOCK_FIELDS));
    expect(answer.body).toMatchObject({
      location_id: store,
      quantity: 42,
      stocked: true,
      order_multiple: 1,
      availability: 'green',
      availability_date: null,
      availability_date_iso: null,
      available_from_days: null,
      available_to_days: null,
    });
    expect(answer.body.sub_availabilities).toEqual([
      { location_id: CENTRAL_WAREHOUSE, quantity: 380, availability: 'green' },
    ]);
    expect(lastCall('products.stock').path).toBe(`/products/${PRODUCT}/stock?location_id=${store}`);
    expect(lastCall('products.stock').authorization).toBe(`Bearer ${anna.upstreamToken}`);
  });

  it('passes the restocking dates and lead days through', async () => {
    const answer = await as(anna, `products/${PRODUCT}/stock/?location_id=${DEMO_STORE_GLNS[2]}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      quantity: 0,
      stocked: true,
      availability: 'red',
      available_from_days: 1,
      available_to_days: 3,
    });
    expect(answer.body.availability_date).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(answer.body.availability_date_iso).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('answers stocked: false for a location that does not stock the product', async () => {
    const answer = await as(anna, `products/${PRODUCT}/stock/?location_id=NOWHERE`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ location_id: 'NOWHERE', stocked: false, quantity: 0 });
  });

  it('needs location_id: 400 on location_id when missing, blank or too long', async () => {
    const before = callsOf('products.stock').length;
    const cases: [string, string][] = [
      ['', 'This field is required.'],
      ['?location_id=', 'This field may not be blank.'],
      ['?location_id=%20%20', 'This field may not be blank.'],
      [`?location_id=${'L'.repeat(65)}`, 'Ensure this field has no more than 64 characters.'],
    ];
    for (const [query, message] of cases) {
      const answer = await as(anna, `products/${PRODUCT}/stock/${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toEqual({ location_id: [message] });
    }
    expect(callsOf('products.stock').length).toBe(before);
  });

  it('drops surrounding spaces of location_id', async () => {
    const answer = await as(anna, `products/${PRODUCT}/stock/?location_id=%20${store}%20`);
    expect(answer.status).toBe(200);
    expect(answer.body.location_id).toBe(store);
  });

  it('passes nulls and integers through and drops fields upstream adds', async () => {
    ctx.sim.inject('products.stock', {
      type: 'answer',
      body: {
        location_id: store,
        availability_date: null,
        availability_date_iso: '2026-03-05',
        quantity: 0,
        sub_availabilities: [{ anything: ['goes'] }],
        order_multiple: 25,
        stocked: false,
        available_from_days: 0,
        available_to_days: null,
        availability: 'purple',
        warehouse_secret: 'x',
      },
    });
    const answer = await as(anna, `products/${PRODUCT}/stock/?location_id=${store}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      location_id: store,
      availability_date: null,
      availability_date_iso: '2026-03-05',
      quantity: 0,
      sub_availabilities: [{ anything: ['goes'] }],
      order_multiple: 25,
      stocked: false,
      available_from_days: 0,
      available_to_days: null,
      availability: 'purple',
    });
  });

  it('is 404 for an unknown article number', async () => {
    const answer = await as(anna, `products/99999999/stock/?location_id=${store}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(NOT_FOUND);
  });
});

describe('Authorization-Upstream on the product calls', () => {
  const paths = [
    `products/${PRODUCT}/`,
    `products/${PRODUCT}/price/`,
    `products/${PRODUCT}/stock/?location_id=${DEMO_STORE_GLNS[0]}`,
  ];

  it.each(paths)('%s without it: 400 upstream_token_missing, upstream not asked', async (path) => {
    const before = ctx.sim.calls.length;
    const variants: Record<string, string>[] = [
      {},
      { 'authorization-upstream': '' },
      { 'authorization-upstream': ' ' },
      // The scheme with no token is no token (not the token "Bearer").
      { 'authorization-upstream': 'Bearer' },
      { 'authorization-upstream': 'bearer  ' },
    ];
    for (const headers of variants) {
      const answer = await ctx.request('GET', `/api/v1/${path}`, { token: anna.token, headers });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: expect.any(String), code: 'upstream_token_missing' });
    }
    expect(ctx.sim.calls.length).toBe(before);
  });

  it.each(paths)('%s takes the bare token too', async (path) => {
    const answer = await ctx.request('GET', `/api/v1/${path}`, {
      token: anna.token,
      headers: { 'authorization-upstream': anna.upstreamToken },
    });
    expect(answer.status).toBe(200);
  });

  it.each(paths)('%s with a token upstream refuses: 401 upstream_token_not_valid', async (path) => {
    const answer = await get(path, anna, 'refused-token');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: expect.any(String), code: 'upstream_token_not_valid' });
  });
});

describe('GET categories/', () => {
  it('answers the category trees: three levels, sort at the top, leaves without children', async () => {
    const answer = await as(anna, 'categories/');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(ctx.sim.data.categories);
    const [plumbing] = answer.body;
    expect(plumbing).toMatchObject({ id: '1', name: 'Plumbing', slug: 'plumbing', sort: 1 });
    const [pipes] = plumbing.children;
    expect(Object.keys(pipes).sort()).toEqual(['children', 'id', 'name', 'slug']);
    expect(pipes.children[0]).toEqual({
      id: '111',
      name: 'Copper pipes',
      slug: 'plumbing/pipes/copper',
    });
    expect(answer.text).toContain('"slug":"plumbing/pipes/copper"}');
  });

  it("uses the caller's upstream token when sent, else the service account", async () => {
    await as(anna, 'categories/');
    expect(lastCall('categories').authorization).toBe(`Bearer ${anna.upstreamToken}`);
    const answer = await get('categories/', anna);
    expect(answer.status).toBe(200);
    const used = lastCall('categories').authorization;
    expect(used).toMatch(/^Bearer \S+$/);
    expect(used).not.toBe(`Bearer ${anna.upstreamToken}`);
  });

  it('with the service account, survives a revoked service token', async () => {
    ctx.sim.revokeTokens('service');
    const answer = await get('categories/', anna);
    expect(answer.status).toBe(200);
    ctx.sim.inject('categories', { type: 'unauthorized' });
    expect((await get('categories/', anna)).status).toBe(200);
  });

  it('is 401 upstream_token_not_valid when upstream refuses the sent token', async () => {
    const answer = await get('categories/', anna, 'refused-token');
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('upstream_token_not_valid');
  });

  it('drops fields upstream adds at every level, and takes deeper trees', async () => {
    const kept = structuredClone(ctx.sim.data.categories);
    const top = ctx.sim.data.categories[0] as Loose;
    top.color = 'blue';
    top.children[0].count = 3;
    top.children[0].children[0].children = [
      { id: '1111', name: 'Soft copper', slug: 'plumbing/pipes/copper/soft', icon: 'x' },
    ];
    try {
      const answer = await as(anna, 'categories/');
      expect(answer.status).toBe(200);
      const [plumbing] = answer.body;
      expect(plumbing).not.toHaveProperty('color');
      expect(plumbing.children[0]).not.toHaveProperty('count');
      expect(plumbing.children[0].children[0].children).toEqual([
        { id: '1111', name: 'Soft copper', slug: 'plumbing/pipes/copper/soft' },
      ]);
    } finally {
      ctx.sim.data.categories = kept;
    }
  });

  it('is 502 when a node does not fit the contract', async () => {
    const kept = structuredClone(ctx.sim.data.categories);
    (ctx.sim.data.categories[1] as Loose).children[0].children[1].name = null;
    try {
      const answer = await as(anna, 'categories/');
      expect(answer.status).toBe(502);
      expect(answer.body.code).toBe('upstream_error');
    } finally {
      ctx.sim.data.categories = kept;
    }
  });
});

describe('upstream faults', () => {
  const routes: [SimRoute, string][] = [
    ['products.get', `products/${PRODUCT}/`],
    ['products.price', `products/${PRODUCT}/price/`],
    ['products.stock', `products/${PRODUCT}/stock/?location_id=${DEMO_STORE_GLNS[0]}`],
    ['categories', 'categories/'],
  ];
  const faults: [Fault, number, string][] = [
    [{ type: 'unavailable' }, 503, 'upstream_unavailable'],
    [{ type: 'html500' }, 502, 'upstream_error'],
    [{ type: 'malformed' }, 502, 'upstream_error'],
    [{ type: 'reset' }, 502, 'upstream_error'],
    [{ type: 'unauthorized' }, 401, 'upstream_token_not_valid'],
  ];
  const cases = routes.flatMap(([route, path]) =>
    faults.map(([fault, status, code]) => [route, fault.type, status, code, path, fault] as const),
  );

  it.each(cases)('%s with %s: %i %s', async (route, _type, status, code, path, fault) => {
    ctx.sim.inject(route, fault);
    const answer = await as(anna, path);
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ detail: expect.any(String), code });
    expect(answer.text).not.toContain(anna.upstreamToken);
    // The next call is answered normally.
    expect((await as(anna, path)).status).toBe(200);
  });
});

describe('permissions', () => {
  const paths = [
    `products/${PRODUCT}/`,
    `products/${PRODUCT}/price/`,
    `products/${PRODUCT}/stock/?location_id=${DEMO_STORE_GLNS[0]}`,
    'categories/',
  ];
  type Who = 'anonymous' | 'customer' | 'another customer' | 'staff' | 'admin';
  const matrix = paths.flatMap((path) =>
    (
      [
        ['anonymous', 401],
        ['customer', 200],
        ['another customer', 200],
        ['staff', 200],
        ['admin', 200],
      ] as [Who, number][]
    ).map(([who, status]) => [path, who, status] as const),
  );

  it.each(matrix)('%s as %s: %i', async (path, who, status) => {
    const session = { customer: anna, 'another customer': bruno, staff, admin }[
      who as Exclude<Who, 'anonymous'>
    ];
    const before = ctx.sim.calls.length;
    // Anonymous sends anna's upstream token: it must not open anything.
    const answer = await get(path, session, (session ?? anna).upstreamToken);
    expect(answer.status).toBe(status);
    if (status === 401) {
      expect(answer.body).toEqual({ detail: expect.any(String), code: 'not_authenticated' });
      expect(ctx.sim.calls.length).toBe(before);
    } else {
      expect(ctx.sim.calls.at(-1)!.authorization).toBe(`Bearer ${session!.upstreamToken}`);
    }
  });
});

describe('OpenAPI', () => {
  it('documents the catalogue routes, the category tree included', async () => {
    const answer = await ctx.request('GET', '/api/schema/');
    expect(answer.status).toBe(200);
    const paths = answer.body.paths;
    for (const path of [
      '/api/v1/products/{article_number}/',
      '/api/v1/products/{article_number}/price/',
      '/api/v1/products/{article_number}/stock/',
      '/api/v1/categories/',
    ]) {
      expect(paths[path]?.get?.description, path).toContain('upstream');
    }
  });
});
