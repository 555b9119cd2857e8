import { eq, inArray } from 'drizzle-orm';
import { syncUser } from '../auth/users.js';
import { formatMicros } from '../clock.js';
import type { Db, Tx } from '../db/client.js';
import {
  carts,
  checkouts,
  controlCarts,
  controls,
  items as itemsTable,
  memberships,
  stores,
  users,
} from '../db/schema.js';
import type { UpstreamProfile } from '../upstream/types.js';

/**
 * 90 days of a store chain's carts for the demo (`npm start` with the simulator, `seed demo`):
 * what a newcomer opens first — the carts page, the dashboard, the controls — looks like a
 * store's day. Deterministic (a seeded generator), and added only to a database without
 * carts, so it never mixes with real ones.
 */

const DAY_MICROS = 86_400_000_000;
const MINUTE_MICROS = 60_000_000;
export const DEMO_HISTORY_DAYS = 90;

/** Customers of the demo besides the simulator's own (they cannot log in: no upstream account). */
const LOCAL_CUSTOMERS: [string, string, string, string[]][] = [
  ['dieter', 'Dieter', 'Krause', ['ORG-1001']],
  ['elif', 'Elif', 'Yilmaz', ['ORG-1002']],
  ['finn', 'Finn', 'Petersen', ['ORG-1003']],
  ['greta', 'Greta', 'Albers', ['ORG-1001', 'ORG-1003']],
  ['hakan', 'Hakan', 'Demir', ['ORG-1004']],
  ['ines', 'Ines', 'Vogel', ['ORG-1002']],
  ['jonas', 'Jonas', 'Brandt', ['ORG-1001']],
  ['katja', 'Katja', 'Neumann', ['ORG-1003']],
];

const SITES = ['Site B', 'Block 4', 'Schoolhouse', 'Harbour office', 'Villa Nord', 'Depot', ''];

/** mulberry32: small, fast and the same sequence on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Customer {
  id: number;
  reference: string | null;
  organizationIds: number[];
}

interface PlannedCart {
  row: typeof carts.$inferInsert;
  lines: { partNumber: string; quantity: number }[];
  checkout?: { created: string; timedOut: boolean };
  control?: { created: string; verifiedAt: string | null; isRandom: boolean };
}

/** Opening hours of the demo stores in UTC hours: weekday 0 = Monday; Sunday closed. */
const HOURS: ([number, number] | null)[] = [
  [7, 18],
  [7, 18],
  [7, 18],
  [7, 18],
  [7, 18],
  [8, 13],
  null,
];

/** Carts per open day: the first store is the busiest. */
const STORE_TRAFFIC = [12, 8, 5];

/**
 * Adds the demo's customers and their carts, checkouts and controls, once: nothing happens
 * when the database already holds a cart. `random` is injected for tests.
 */
export async function seedDemoCarts(
  db: Db,
  nowMicros: number,
  random: () => number = seededRandom(2026),
): Promise<{ carts: number }> {
  const { demoData, DEMO_STORE_GLNS } = await import('../../erp-simulator/data.js');
  const data = demoData();
  return db.transaction(async (tx) => {
    const [any] = await tx.select({ id: carts.id }).from(carts).limit(1);
    if (any) return { carts: 0 };
    const storeRows = await tx
      .select({ id: stores.id, gln: stores.gln })
      .from(stores)
      .where(inArray(stores.gln, DEMO_STORE_GLNS));
    const storeIds = DEMO_STORE_GLNS.map((gln) => storeRows.find((s) => s.gln === gln)?.id);
    if (storeIds.some((id) => id === undefined)) return { carts: 0 };
    const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true));

    const customers = await demoCustomers(tx, data, nowMicros);
    const parts = Object.values(data.products)
      .filter((p) => !p.product.discontinued)
      .map((p) => p.product.article_number);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

    const planned: PlannedCart[] = [];
    const plan = (storeId: number | null, created: number, state: 'active' | 'left' | 'done') => {
      const customer = pick(customers);
      const lineCount = 1 + Math.floor(random() * random() * 7);
      const lines = [...new Set(Array.from({ length: lineCount }, () => pick(parts)))].map(
        (partNumber) => ({ partNumber, quantity: 1 + Math.floor(random() ** 3 * 40) }),
      );
      const lastActivity = created + Math.floor((2 + random() * 25) * MINUTE_MICROS);
      const error = state !== 'active' && random() < 0.03;
      const cart: PlannedCart = {
        row: {
          userId: customer.id,
          organizationId: pick(customer.organizationIds),
          storeId,
          customerOrderNumber: random() < 0.7 ? `PO-${1000 + Math.floor(random() * 9000)}` : '',
          orderMark: pick(SITES),
          reference: customer.reference,
          created: formatMicros(created),
          lastActivity: formatMicros(lastActivity),
          itemsCount: lines.length,
          totalQuantity: lines.reduce((sum, l) => sum + l.quantity, 0),
          checkoutAvailabilityError: error,
          checkoutAvailabilityErrorAt: error ? formatMicros(lastActivity) : null,
          checkedOut: state === 'done',
        },
        lines,
      };
      if (state === 'done') {
        cart.checkout = { created: formatMicros(lastActivity), timedOut: random() < 0.01 };
        if (storeId !== null && random() < 0.08) {
          const isRandom = random() < 0.5;
          cart.control = {
            created: formatMicros(lastActivity + MINUTE_MICROS),
            verifiedAt: formatMicros(lastActivity + 4 * MINUTE_MICROS),
            isRandom,
          };
        }
      }
      planned.push(cart);
    };

    const today = Math.floor(nowMicros / DAY_MICROS) * DAY_MICROS;
    for (let d = DEMO_HISTORY_DAYS; d >= 1; d--) {
      const day = today - d * DAY_MICROS;
      const hours = HOURS[(new Date(day / 1000).getUTCDay() + 6) % 7];
      if (!hours) continue;
      const [open, close] = hours;
      const span = (close - open) * 60 * MINUTE_MICROS;
      storeIds.forEach((storeId, index) => {
        const count = Math.round(
          STORE_TRAFFIC[index] * (close - open > 6 ? 1 : 0.6) * (0.7 + random() * 0.6),
        );
        for (let i = 0; i < count; i++) {
          const created = day + open * 60 * MINUTE_MICROS + Math.floor(random() * span);
          plan(storeId ?? null, created, random() < 0.88 ? 'done' : 'left');
        }
      });
      // Orders for the customer's own warehouse, placed from the office.
      if (random() < 0.6)
        plan(null, day + Math.floor((9 + random() * 6) * 60 * MINUTE_MICROS), 'done');
    }
    // Right now: carts being filled in each store (active for the store's two hours).
    for (const storeId of storeIds) {
      for (let i = 0; i < 2; i++) {
        plan(
          storeId ?? null,
          nowMicros - Math.floor((5 + random() * 70) * MINUTE_MICROS),
          'active',
        );
      }
    }
    // Created before now, whatever the generator drew (the last activity of an active cart
    // may not lie in the future either).
    for (const cart of planned) {
      if (cart.row.lastActivity > formatMicros(nowMicros))
        cart.row.lastActivity = formatMicros(nowMicros);
    }

    await insertPlanned(tx, planned, admin?.id ?? null, storeIds as number[]);
    // One random control waiting at the exit of the store that controls every checkout.
    const waiting = planned.filter((c) => c.row.storeId === storeIds[2] && !c.row.checkedOut);
    if (waiting.length > 0) {
      const [control] = await tx
        .insert(controls)
        .values({
          created: formatMicros(nowMicros - MINUTE_MICROS),
          isRandom: true,
          status: 'pending',
          userId: waiting[0].row.userId,
          storeId: storeIds[2] as number,
        })
        .returning({ id: controls.id });
      const sameCustomer = waiting.filter((c) => c.row.userId === waiting[0].row.userId);
      await tx
        .insert(controlCarts)
        .values(sameCustomer.map((c) => ({ controlId: control.id, cartId: c.row.id as number })));
    }
    return { carts: planned.length };
  });
}

/** The simulator's customers as they would be after a login, and the local-only ones. */
async function demoCustomers(
  tx: Tx,
  data: Awaited<ReturnType<typeof import('../../erp-simulator/data.js')['demoData']>>,
  nowMicros: number,
): Promise<Customer[]> {
  const organization = (id: string) => {
    const org = data.organizations.find((o) => o.organization_id === id);
    if (!org) throw new Error(`demo organization ${id} is missing`);
    return org;
  };
  const profiles: UpstreamProfile[] = [
    ...data.users
      .filter((u) => u.role === 'customer')
      .map((u) => ({
        username: u.username,
        email: u.email,
        first_name: u.first_name,
        last_name: u.last_name,
        telephone: u.telephone,
        reference: u.reference,
        organizations: u.memberships.map((m) => organization(m.organization_id)),
      })),
    ...LOCAL_CUSTOMERS.map(([username, first, last, orgs]) => ({
      username,
      email: `${username}@example.com`,
      first_name: first,
      last_name: last,
      telephone: '',
      reference: `${first[0]}${last[0]}-DEMO`,
      organizations: orgs.map(organization),
    })),
  ];
  const customers: Customer[] = [];
  for (const profile of profiles) {
    const id = await syncUser(tx, profile, nowMicros);
    const orgs = await tx
      .select({ id: memberships.organizationId })
      .from(memberships)
      .where(eq(memberships.userId, id));
    customers.push({ id, reference: profile.reference, organizationIds: orgs.map((o) => o.id) });
  }
  // Seeded, not logged in.
  await tx
    .update(users)
    .set({ lastLogin: null })
    .where(
      inArray(
        users.id,
        customers.map((c) => c.id),
      ),
    );
  return customers;
}

const CHUNK = 500;

async function insertPlanned(
  tx: Tx,
  planned: PlannedCart[],
  adminId: number | null,
  storeIds: number[],
): Promise<void> {
  for (let start = 0; start < planned.length; start += CHUNK) {
    const chunk = planned.slice(start, start + CHUNK);
    const ids = await tx
      .insert(carts)
      .values(chunk.map((c) => c.row))
      .returning({ id: carts.id });
    chunk.forEach((cart, i) => {
      cart.row.id = ids[i].id;
    });
    const cartId = (c: PlannedCart) => c.row.id as number;
    await tx
      .insert(itemsTable)
      .values(
        chunk.flatMap((c) =>
          c.lines.map((line) => ({ cartId: cartId(c), ...line, created: c.row.created as string })),
        ),
      );
    const done = chunk.filter((c) => c.checkout);
    if (done.length > 0) {
      await tx.insert(checkouts).values(
        done.map((c) => ({
          cartId: cartId(c),
          created: c.checkout?.created as string,
          orderId: `demo-${cartId(c)}`,
          orderNumber: `SO-${String(400000 + cartId(c))}`,
          timedOut: c.checkout?.timedOut ?? false,
        })),
      );
    }
    const controlled = chunk.filter((c) => c.control);
    if (controlled.length > 0) {
      const controlIds = await tx
        .insert(controls)
        .values(
          controlled.map((c) => ({
            created: c.control?.created as string,
            verifiedAt: c.control?.verifiedAt ?? null,
            isRandom: c.control?.isRandom ?? false,
            status: 'verified' as const,
            userId: c.row.userId,
            storeId: c.row.storeId ?? storeIds[0],
            controllerId: c.control?.isRandom ? null : adminId,
          })),
        )
        .returning({ id: controls.id });
      await tx
        .insert(controlCarts)
        .values(controlled.map((c, i) => ({ controlId: controlIds[i].id, cartId: cartId(c) })));
    }
  }
}
