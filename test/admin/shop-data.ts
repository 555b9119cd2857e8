import { expect } from 'vitest';
import { DEMO_STORE_GLNS } from '../../erp-simulator/data.js';
import type { Database } from '../../src/db/client.js';
import { statement } from '../../src/db/statement.js';

/**
 * A store's day made through the HTTP API of a running service (in-process or a process of
 * its own): carts with lines, checkouts, a control, shopping lists with items, a favourite,
 * a restore code. Used by the backup, retention and personal-data tests.
 */
export interface Api {
  url: string;
}

export interface Answer {
  status: number;
  body: any;
  text: string;
}

export async function call(
  api: Api,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${api.url}/api/v1/${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

async function ok(answer: Promise<Answer>, status: number): Promise<any> {
  const done = await answer;
  expect(done.status, done.text).toBe(status);
  return done.body;
}

export interface Login {
  token: string;
  id: number;
  organization: string;
}

export async function login(api: Api, username: string, password: string): Promise<Login> {
  const { token } = await ok(
    call(api, 'POST', 'auth/jwt/token/', { body: { username, password } }),
    200,
  );
  const me = await ok(call(api, 'GET', 'users/me/', { token }), 200);
  const orgs = await ok(call(api, 'GET', 'organizations/?page_size=10', { token }), 200);
  return { token, id: me.id, organization: orgs.results[0].organization_id };
}

export async function storeIds(api: Api, token: string): Promise<Record<string, number>> {
  const stores = await ok(call(api, 'GET', 'stores/?page_size=100', { token }), 200);
  return Object.fromEntries(stores.results.map((s: { gln: string; id: number }) => [s.gln, s.id]));
}

/** A cart in `store` with `lines`; checked out when `checkOut`. */
export async function makeCart(
  api: Api,
  user: Login,
  store: string | null,
  lines: [string, number][],
  checkOut: boolean,
): Promise<number> {
  const cart = await ok(
    call(api, 'POST', 'carts/', {
      token: user.token,
      body: {
        organization: user.organization,
        store,
        customer_order_number: 'PO-7',
        order_mark: 'site 3',
      },
    }),
    201,
  );
  for (const [part_number, quantity] of lines) {
    await ok(
      call(api, 'POST', 'items/', {
        token: user.token,
        body: { cart: cart.id, part_number, quantity },
      }),
      201,
    );
  }
  if (checkOut)
    await ok(call(api, 'PATCH', `carts/${cart.id}/checkout/`, { token: user.token }), 200);
  return cart.id;
}

/** A list named `name` with two items: its id. */
export async function makeList(api: Api, user: Login, name: string): Promise<number> {
  await ok(call(api, 'POST', 'shopping-lists/', { token: user.token, body: { name } }), 201);
  const lists = await ok(
    call(api, 'GET', 'shopping-lists/?page_size=100', { token: user.token }),
    200,
  );
  const list = lists.results.find((l: { name: string }) => l.name === name);
  for (const [item, quantity] of [
    ['screws 4x40', 3],
    ['wall plugs', 1],
  ] as const) {
    await ok(
      call(api, 'POST', 'shopping-list-items/', {
        token: user.token,
        body: { shopping_list: list.id, name: item, quantity },
      }),
      201,
    );
  }
  return list.id;
}

/**
 * The demo shop's data through the API (the demo users and stores of `npm start`): anna and
 * bruno with carts in two stores and the warehouse, checkouts, a control carla (admin) made
 * about anna, lists, a favourite and a restore code.
 */
export async function makeShopData(api: Api): Promise<{ anna: Login; bruno: Login; carla: Login }> {
  const anna = await login(api, 'anna', 'anna-pass-2026');
  const bruno = await login(api, 'bruno', 'bruno-pass-2026');
  const carla = await login(api, 'carla', 'carla-pass-2026');
  const ids = await storeIds(api, carla.token);
  const [a, b] = DEMO_STORE_GLNS;
  await makeCart(
    api,
    anna,
    a,
    [
      ['P-1', 2],
      ['P-2', 5],
    ],
    true,
  );
  await makeCart(api, anna, b, [['P-3', 1]], true);
  await makeCart(api, bruno, a, [['P-1', 7]], true);
  await makeCart(
    api,
    bruno,
    null,
    [
      ['P-4', 3],
      ['P-5', 1],
      ['P-6', 9],
    ],
    false,
  );
  await makeCart(api, anna, a, [['P-2', 4]], false);
  await ok(
    call(api, 'POST', 'controls/', {
      token: carla.token,
      body: { user: anna.id, store: ids[a], status: 'pending' },
    }),
    201,
  );
  await makeList(api, anna, 'Monday');
  await makeList(api, bruno, 'Site B');
  await ok(
    call(api, 'POST', `organizations/${anna.organization}/favorite/`, { token: anna.token }),
    200,
  );
  await ok(call(api, 'POST', 'request-restore-code/', { body: { username: 'anna' } }), 202);
  return { anna, bruno, carla };
}

/** Every table of the service, each as sorted JSON lines of its rows. */
export const TABLES = [
  'users',
  'organizations',
  'memberships',
  'stores',
  'store_hours',
  'carts',
  'items',
  'checkouts',
  'controls',
  'control_carts',
  'random_control_draws',
  'shopping_lists',
  'shopping_list_items',
  'options',
  'restore_codes',
  'ws_codes',
  'idempotency_keys',
  'cart_rollups',
  'cart_counts',
  'audit_events',
];

export async function snapshot(database: Database): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await database.run(statement(`select * from ${table}`), []);
    result[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return result;
}

/** The rollups and counts as stored (rows with carts) and as a fresh aggregate of `carts`. */
export async function rollupsAndFresh(database: Database) {
  const read = async (text: string) =>
    (await database.run(statement(text), [])).map((r) => JSON.stringify(r)).sort();
  const stored = await read(`select 'rollups' as t, store_id, day::text as day, checked_out,
      checkout_availability_error, carts, items_count::int as items, total_quantity::int as quantity
      from cart_rollups where carts <> 0
    union all select 'counts', store_id, day::text, checked_out, checkout_availability_error,
      carts, null, null from cart_counts where carts <> 0`);
  const fresh =
    await read(`with f as (select store_id, (created at time zone 'UTC')::date::text as day,
      checked_out, checkout_availability_error, count(*)::int as carts,
      sum(items_count)::int as items, sum(total_quantity)::int as quantity
      from carts group by 1, 2, 3, 4)
    select 'rollups' as t, * from f
    union all select 'counts', store_id, day, checked_out, checkout_availability_error, carts,
      null, null from f`);
  return { stored, fresh };
}
