import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, startTestApp, type TestContext } from '../helpers/app.js';
import { createCartBody, organizationsOf } from '../helpers/fixtures.js';

let ctx: TestContext;
let anna: Session;
let bruno: Session;
let carla: Session;
let annaOrg: string;

const CARTS = '/api/v1/carts/';
const CART_COUNT = 25;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const createCart = (session: Session, organization: string, number: string) =>
  createCartBody(ctx, session, { organization, customer_order_number: number });

/** Anna's carts PO-01..PO-25, created a minute apart from 2026-03-01T08:01:00Z. */
beforeAll(async () => {
  ctx = await startTestApp();
  ctx.clock.set('2026-03-01T08:00:00Z');
  anna = await ctx.login('anna');
  bruno = await ctx.login('bruno');
  carla = await ctx.login('carla');
  [annaOrg] = await organizationsOf(ctx, anna.userId);
  for (let i = 1; i <= CART_COUNT; i++) {
    ctx.clock.advance(60);
    await createCart(anna, annaOrg, `PO-${String(i).padStart(2, '0')}`);
  }
});
afterAll(() => ctx?.close());

const list = (query: string, session: Session = anna) =>
  ctx.request('GET', `${CARTS}${query}`, { token: session.token });

/** Follows an absolute `next`/`previous` link of this service. */
function follow(link: string, session: Session = anna) {
  const url = new URL(link);
  expect(url.origin).toBe(ctx.url);
  return ctx.request('GET', url.pathname + url.search, { token: session.token });
}

const numbers = (body: { results: { customer_order_number: string }[] }) =>
  body.results.map((c) => c.customer_order_number);

describe('pagination', () => {
  it('pages by 20 by default with absolute next/previous links', async () => {
    const first = await list('');
    expect(first.status, first.text).toBe(200);
    expect(first.body.count).toBe(CART_COUNT);
    expect(first.body.results).toHaveLength(20);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${ctx.url}/api/v1/carts/?page=2`);
    const second = await follow(first.body.next);
    expect(second.status).toBe(200);
    expect(second.body.count).toBe(CART_COUNT);
    expect(second.body.results).toHaveLength(5);
    expect(second.body.next).toBeNull();
    expect(second.body.previous).toBe(`${ctx.url}/api/v1/carts/`);
    const ids = [...first.body.results, ...second.body.results].map((c: { id: number }) => c.id);
    expect(new Set(ids).size).toBe(CART_COUNT);
    // Default ordering: -created.
    expect(numbers(first.body)[0]).toBe('PO-25');
    expect(numbers(second.body).at(-1)).toBe('PO-01');
  });

  it('keeps the other query parameters in next and previous', async () => {
    const query = '?page_size=10&ordering=customer_order_number&checkout=False';
    const first = await list(query);
    expect(first.status, first.text).toBe(200);
    expect(numbers(first.body)).toEqual(
      Array.from({ length: 10 }, (_, i) => `PO-${String(i + 1).padStart(2, '0')}`),
    );
    const next = new URL(first.body.next);
    expect(`${next.origin}${next.pathname}`).toBe(`${ctx.url}/api/v1/carts/`);
    expect(Object.fromEntries(next.searchParams)).toEqual({
      page_size: '10',
      ordering: 'customer_order_number',
      checkout: 'False',
      page: '2',
    });
    const second = await follow(first.body.next);
    expect(numbers(second.body)[0]).toBe('PO-11');
    const third = await follow(second.body.next);
    expect(numbers(third.body)).toEqual(['PO-21', 'PO-22', 'PO-23', 'PO-24', 'PO-25']);
    expect(third.body.next).toBeNull();
    const previous = new URL(third.body.previous);
    expect(Object.fromEntries(previous.searchParams)).toEqual({
      page_size: '10',
      ordering: 'customer_order_number',
      checkout: 'False',
      page: '2',
    });
    const back = new URL(second.body.previous);
    expect(Object.fromEntries(back.searchParams)).toEqual({
      page_size: '10',
      ordering: 'customer_order_number',
      checkout: 'False',
    });
  });

  it('takes page_size up to 100', async () => {
    const all = await list('?page_size=100');
    expect(all.body.results).toHaveLength(CART_COUNT);
    expect(all.body.next).toBeNull();
    const one = await list('?page_size=1&page=25');
    expect(numbers(one.body)).toEqual(['PO-01']);
  });

  it('caps a bigger page_size at 100', async () => {
    const [org] = await organizationsOf(ctx, bruno.userId);
    for (let i = 1; i <= 105; i++) await createCart(bruno, org, `B-${i}`);
    const first = await list('?page_size=1000', bruno);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(105);
    expect(first.body.results).toHaveLength(100);
    expect(Object.fromEntries(new URL(first.body.next).searchParams)).toEqual({
      page_size: '1000',
      page: '2',
    });
    const second = await follow(first.body.next, bruno);
    expect(second.body.results).toHaveLength(5);
    const hundred = await list('?page_size=100', bruno);
    expect(hundred.body.results).toHaveLength(100);
    const over = await list('?page_size=101', bruno);
    expect(over.body.results).toHaveLength(100);
  });

  it('falls back to the default for a page_size that is not a positive integer', async () => {
    for (const size of ['0', 'abc', '-5']) {
      const answer = await list(`?page_size=${size}`);
      expect(answer.status, size).toBe(200);
      expect(answer.body.results, size).toHaveLength(20);
    }
  });

  it('answers a page past the end with 404 Invalid page', async () => {
    // The last: the largest page and size the pager reads (an offset of 99,999,999,800, now
    // written into the statement's text).
    for (const query of [
      '?page=3',
      '?page=2&page_size=25',
      '?page=999999',
      '?page=999999999&page_size=100',
    ]) {
      const answer = await list(query);
      expect(answer.status, query).toBe(404);
      expect(answer.body).toEqual({ detail: 'Invalid page.', code: 'not_found' });
    }
  });

  it('answers a page that is not a positive number with 404 Invalid page', async () => {
    for (const page of ['0', 'abc', '-1', '1.5', '00']) {
      const answer = await list(`?page=${page}`);
      expect(answer.status, page).toBe(404);
      expect(answer.body).toEqual({ detail: 'Invalid page.', code: 'not_found' });
    }
  });

  it('answers an empty list on page 1 with 200 and count 0', async () => {
    const answer = await list('', carla);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect((await list('?page=1', carla)).status).toBe(200);
    // As in DRF, an empty page is page 1.
    expect((await list('?page=', carla)).status).toBe(200);
    const past = await list('?page=2', carla);
    expect(past.status).toBe(404);
    expect(past.body).toEqual({ detail: 'Invalid page.', code: 'not_found' });
  });
});

describe('boolean query values', () => {
  it('accepts True, False, true, false, 1 and 0', async () => {
    const expected: Record<string, number> = {
      True: 0,
      true: 0,
      '1': 0,
      False: CART_COUNT,
      false: CART_COUNT,
      '0': CART_COUNT,
    };
    for (const [value, count] of Object.entries(expected)) {
      const answer = await list(`?checkout=${value}`);
      expect(answer.status, value).toBe(200);
      expect(answer.body.count, value).toBe(count);
    }
    // A cart without a store stays active until checked out.
    for (const value of ['True', 'true', '1']) {
      expect((await list(`?active=${value}`)).body.count, value).toBe(CART_COUNT);
    }
    for (const value of ['False', 'false', '0']) {
      expect((await list(`?active=${value}`)).body.count, value).toBe(0);
    }
  });

  it('takes the last value of a repeated parameter, as DRF does', async () => {
    expect((await list('?checkout=True&checkout=False')).body.count).toBe(CART_COUNT);
    expect((await list('?checkout=False&checkout=True')).body.count).toBe(0);
    const paged = await list('?page_size=5&page_size=2&page=3&page=1');
    expect(paged.status).toBe(200);
    expect(paged.body.results).toHaveLength(2);
    expect(paged.body.previous).toBeNull();
  });

  it('answers anything else with 400 on that parameter', async () => {
    for (const value of ['yes', 'no', 'TRUE', 'T', '2', 'on', 'null']) {
      const answer = await list(`?checkout=${value}`);
      expect(answer.status, value).toBe(400);
      expect(Object.keys(answer.body), value).toEqual(['checkout']);
      expect(answer.body.checkout).toEqual([expect.any(String)]);
      const active = await list(`?active=${value}&page_size=5`);
      expect(active.status, value).toBe(400);
      expect(Object.keys(active.body), value).toEqual(['active']);
    }
    const stats = await ctx.request('GET', '/api/v1/carts/stats/?exclude_warehouse=maybe', {
      token: anna.token,
    });
    expect(stats.status).toBe(400);
    expect(Object.keys(stats.body)).toEqual(['exclude_warehouse']);
  });
});

describe('date/time query values', () => {
  const count = async (query: string) => {
    const answer = await list(query);
    expect(answer.status, `${query}: ${answer.text}`).toBe(200);
    return answer.body.count as number;
  };

  it('accepts a date as midnight UTC', async () => {
    expect(await count('?created_after=2026-03-01')).toBe(CART_COUNT);
    expect(await count('?created_after=2026-03-02')).toBe(0);
    expect(await count('?created_before=2026-03-02')).toBe(CART_COUNT);
    expect(await count('?created_before=2026-03-01')).toBe(0);
  });

  it('accepts date-times with a zone', async () => {
    // Carts were created at 08:01 ... 08:25 UTC.
    expect(await count('?created_after=2026-03-01T08:10:30Z')).toBe(15);
    expect(await count(`?created_after=${encodeURIComponent('2026-03-01T09:10:30+01:00')}`)).toBe(
      15,
    );
    expect(await count('?created_after=2026-03-01T03:10:30-05:00')).toBe(15);
    expect(await count('?created_before=2026-03-01T08:05:00.000001Z')).toBe(5);
    expect(await count('?created_before=2026-03-01T08:05:00Z')).toBe(4);
    expect(
      await count('?created_after=2026-03-01T08:10:00Z&created_before=2026-03-01T08:12:00.5Z'),
    ).toBe(2);
  });

  it('answers anything else with 400 on that parameter', async () => {
    for (const value of [
      'garbage',
      '2026-02-30',
      '2026-13-01',
      '2026-3-1',
      '01.03.2026',
      '2026-03-01T08:00:00',
      '2026-02-30T08:00:00Z',
      '2026-03-01T25:00:00Z',
      '',
    ]) {
      const answer = await list(`?created_after=${encodeURIComponent(value)}`);
      expect(answer.status, value).toBe(400);
      expect(Object.keys(answer.body), value).toEqual(['created_after']);
      expect(answer.body.created_after).toEqual([expect.any(String)]);
    }
    const before = await list('?created_before=2026-02-30');
    expect(before.status).toBe(400);
    expect(Object.keys(before.body)).toEqual(['created_before']);
  });
});

describe('ordering', () => {
  it('sorts by a listed key, descending with a leading -', async () => {
    const ascending = await list('?ordering=customer_order_number&page_size=3');
    expect(numbers(ascending.body)).toEqual(['PO-01', 'PO-02', 'PO-03']);
    const descending = await list('?ordering=-customer_order_number&page_size=3');
    expect(numbers(descending.body)).toEqual(['PO-25', 'PO-24', 'PO-23']);
    const created = await list('?ordering=created&page_size=2');
    expect(numbers(created.body)).toEqual(['PO-01', 'PO-02']);
    const newest = await list('?ordering=-created&page_size=2');
    expect(numbers(newest.body)).toEqual(['PO-25', 'PO-24']);
    for (const key of ['items_count', '-items_count', 'total_quantity', '-total_quantity']) {
      const answer = await list(`?ordering=${key}`);
      expect(answer.status, key).toBe(200);
    }
  });

  it('answers an unknown key with 400 on ordering', async () => {
    for (const key of ['price', '-price', 'id', '--created', 'created,id', '']) {
      const answer = await list(`?ordering=${encodeURIComponent(key)}`);
      expect(answer.status, key).toBe(400);
      expect(Object.keys(answer.body), key).toEqual(['ordering']);
      expect(answer.body.ordering).toEqual([expect.any(String)]);
    }
  });
});

describe('timestamps', () => {
  it('writes every timestamp with six fractional digits and Z', async () => {
    const answer = await list('?page_size=100');
    for (const cart of answer.body.results) {
      expect(cart.created).toMatch(TIMESTAMP);
      expect(cart.last_activity).toMatch(TIMESTAMP);
      expect(cart.organization.created).toMatch(TIMESTAMP);
    }
    expect(answer.body.results.at(-1).created).toBe('2026-03-01T08:01:00.000000Z');
  });

  it('keeps the microseconds that were stored', async () => {
    ctx.clock.set('2026-03-01T09:15:00Z');
    carla = await ctx.login('carla');
    const [org] = await organizationsOf(ctx, carla.userId);
    for (const instant of [
      '2026-03-01T09:15:02.123456Z',
      '2026-03-01T09:15:03.000001Z',
      '2026-03-01T09:15:04.100000Z',
      '2026-03-01T09:15:05.999999Z',
    ]) {
      ctx.clock.set(instant);
      const created = await createCart(carla, org, instant);
      expect(created.created).toBe(instant);
      const read = await ctx.request('GET', `${CARTS}${created.id}/`, { token: carla.token });
      expect(read.status).toBe(200);
      expect(read.body.created).toBe(instant);
      expect(read.body.last_activity).toBe(instant);
      // The microseconds count in filters too.
      const micros = Number(instant.slice(20, 26));
      const oneLess = `${instant.slice(0, 20)}${String(micros - 1).padStart(6, '0')}Z`;
      const createdAfter = (value: string) =>
        list(`?created_after=${value}&ordering=-created&page_size=1`, carla);
      expect(numbers((await createdAfter(oneLess)).body)).toEqual([instant]);
      expect((await createdAfter(instant)).body.count).toBe(0);
    }
  });
});
