import type pg from 'pg';
import { expect } from 'vitest';
import type { Tally } from './load.js';

/**
 * What a load left in the database and at the ERP, checked against what the service
 * acknowledged: every acknowledged add is stored exactly once (a line holds its acknowledged
 * quantity plus at most the adds whose outcome is unknown); each cart's counters equal its
 * lines; the rollups equal a fresh aggregate of the carts; every 200 checkout is one order
 * upstream and one record; no cart has two orders. Returns the figures checked.
 */
export async function expectConsistent(db: pg.Client, simUrl: string, tally: Tally) {
  const carts = [
    ...new Set([...tally.acked.keys(), ...tally.unknown.keys(), ...tally.checkouts.keys()]),
  ];
  const { rows } = await db.query<{ cart_id: number; part_number: string; quantity: number }>(
    'select cart_id, part_number, quantity from items where cart_id = any($1)',
    [carts],
  );
  const stored = new Map(rows.map((r) => [`${r.cart_id}/${r.part_number}`, r.quantity]));
  let exact = 0;
  for (const cart of carts) {
    const parts = new Set([
      ...(tally.acked.get(cart)?.keys() ?? []),
      ...(tally.unknown.get(cart)?.keys() ?? []),
    ]);
    for (const part of parts) {
      const acked = tally.acked.get(cart)?.get(part) ?? 0;
      const unknown = tally.unknown.get(cart)?.get(part) ?? 0;
      const quantity = stored.get(`${cart}/${part}`) ?? 0;
      if (unknown === 0) {
        expect(quantity, `cart ${cart} part ${part}`).toBe(acked);
        exact++;
      } else {
        expect(quantity).toBeGreaterThanOrEqual(acked);
        expect(quantity).toBeLessThanOrEqual(acked + unknown);
      }
    }
  }
  // The counters kept with every item change, against the lines.
  const counters = await db.query<{ id: number; counted: string; lines: string }>(
    `select c.id, c.items_count || '/' || c.total_quantity as counted,
       count(i.*) || '/' || coalesce(sum(i.quantity), 0) as lines
     from carts c left join items i on i.cart_id = c.id
     where c.id = any($1) group by c.id`,
    [carts],
  );
  for (const row of counters.rows) expect(row.counted, `cart ${row.id} counters`).toBe(row.lines);
  // The rollups kept by the trigger, against a fresh aggregate of every cart.
  const rollups = async (text: string) =>
    (await db.query(text)).rows.map((r) => JSON.stringify(r)).sort();
  // In one snapshot: a commit between the two would make them differ with nothing wrong.
  await db.query('begin isolation level repeatable read');
  const storedRollups = await rollups(`select store_id, day::text, checked_out,
      checkout_availability_error, carts, items_count::int, total_quantity::int
      from cart_rollups where carts <> 0`);
  const freshRollups = await rollups(`select store_id, (created at time zone 'UTC')::date::text
      as day, checked_out, checkout_availability_error, count(*)::int as carts,
      sum(items_count)::int as items_count, sum(total_quantity)::int as total_quantity
      from carts group by 1, 2, 3, 4`);
  await db.query('commit');
  expect(storedRollups).toEqual(freshRollups);

  const orders: { order_id: string; idempotency_key: string }[] = await (
    await fetch(`${simUrl}/_sim/orders`)
  ).json();
  const ordersOf = new Map<number, string[]>();
  for (const order of orders) {
    const cart = Number(/^cart-(\d+)-/.exec(order.idempotency_key)?.[1]);
    ordersOf.set(cart, [...(ordersOf.get(cart) ?? []), order.order_id]);
  }
  for (const [cart, ids] of ordersOf) expect(ids, `orders of cart ${cart}`).toHaveLength(1);
  const records = await db.query<{ cart_id: number; order_id: string }>(
    'select cart_id, order_id from checkouts where cart_id = any($1)',
    [carts],
  );
  const recordOf = new Map(records.rows.map((r) => [r.cart_id, r.order_id]));
  for (const [cart, orderId] of tally.checkouts) {
    expect(ordersOf.get(cart), `cart ${cart}`).toEqual([orderId]);
    expect(recordOf.get(cart), `cart ${cart}`).toBe(orderId);
  }
  const acknowledged = [...tally.acked.values()].reduce(
    (sum, lines) => sum + [...lines.values()].reduce((a, b) => a + b, 0),
    0,
  );
  return {
    acknowledgedQuantity: acknowledged,
    linesCheckedExactly: exact,
    cartCountersChecked: counters.rows.length,
    checkoutsWithOneOrderAndOneRecord: tally.checkouts.size,
    uncertainCheckouts: tally.uncertainCheckouts.size,
  };
}
