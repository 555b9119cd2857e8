/**
 * The floor: a minimal Fastify + pg server doing the least honest SQL for the same work as the
 * service (token check and user by primary key included), on the same database and pool size.
 * Own process: DATABASE_URL, DATABASE_POOL_SIZE, JWT_SECRET, PORT.
 *
 * FLOOR=bare (the default): the rows, no joins. FLOOR=document: a cart and a page of carts
 * as the same JSON document the service answers, built by PostgreSQL in one statement
 * (the page with its count) and sent as it comes; the other routes as the bare floor.
 *
 * A checkout (UPSTREAM_URL, UPSTREAM_ADMIN_USERNAME, UPSTREAM_ADMIN_PASSWORD): the claim and
 * the cart's lines in one statement, the order upstream under the service account's token
 * (logged in once at the start), the record and the closed cart in one statement; each
 * statement its own transaction, none verified. The same triggers keep the same rollups.
 */
import { createVerifier } from 'fast-jwt';
import Fastify, { type FastifyRequest } from 'fastify';
import pg from 'pg';
import { Pool } from 'undici';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
// An idle connection the server ended (the bench drops its scratch database with force at the
// end): the pool discards it; without a listener the error would end the process noisily.
pool.on('error', () => {});
const verify = createVerifier({ key: process.env.JWT_SECRET!, algorithms: ['HS256'], cache: 1000 });
const app = Fastify({ logger: false });

type Q = Record<string, string | undefined>;

async function user(request: FastifyRequest) {
  const claims = verify((request.headers.authorization ?? '').replace(/^Bearer /, ''));
  const { rows } = await pool.query('select id, is_staff from users where id = $1', [
    Number(claims.sub),
  ]);
  if (!rows[0]) throw new Error('unknown user');
  return { id: rows[0].id as number, staff: rows[0].is_staff as boolean };
}

/** The cart filters the bench uses: owner unless staff, the store's GLN, creation range. */
function filter(u: { id: number; staff: boolean }, query: Q) {
  const where: string[] = [];
  const params: unknown[] = [];
  if (!u.staff) where.push(`c.user_id = $${params.push(u.id)}`);
  if (query.gln) where.push(`s.gln = $${params.push(query.gln)}`);
  if (query.created_after) where.push(`c.created > $${params.push(query.created_after)}`);
  if (query.created_before) where.push(`c.created < $${params.push(query.created_before)}`);
  // Stores joined only to filter by GLN: the plain list then reads carts in index order.
  const from = query.gln ? 'carts c join stores s on s.id = c.store_id' : 'carts c';
  return { from, where: where.length ? `where ${where.join(' and ')}` : '', params };
}

const DOCUMENT = process.env.FLOOR === 'document';
const iso = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** A cart `c` as the service writes it (src/carts/queries.ts), field for field. */
const CART_JSON = `json_build_object('id', c.id,
  'checkout', (select json_build_object('id', k.id, 'cart', k.cart_id, 'created', ${iso('k.created')},
     'order_id', k.order_id, 'order_number', k.order_number, 'timed_out', k.timed_out)
   from checkouts k where k.cart_id = c.id),
  'controls', array(select cc.control_id from control_carts cc where cc.cart_id = c.id
    order by cc.control_id),
  'created', ${iso('c.created')}, 'last_activity', ${iso('c.last_activity')},
  'customer_order_number', c.customer_order_number, 'order_mark', c.order_mark,
  'reference', c.reference,
  'items', coalesce((select json_agg(json_build_object('id', i.id, 'cart', i.cart_id,
      'part_number', i.part_number, 'quantity', i.quantity, 'created', ${iso('i.created')})
      order by i.created, i.id) from items i where i.cart_id = c.id), '[]'),
  'items_count', c.items_count, 'total_quantity', c.total_quantity,
  'organization', (select json_build_object('id', o.id, 'code', o.code,
     'created', ${iso('o.created')}, 'name', o.name, 'organization_id', o.organization_id,
     'parent_code', o.parent_code) from organizations o where o.id = c.organization_id),
  'store', (select json_build_object('created', ${iso('s.created')}, 'gln', s.gln, 'id', s.id)
   from stores s where s.id = c.store_id),
  'user', (select json_build_object('email', u.email, 'first_name', u.first_name, 'id', u.id,
     'last_name', u.last_name, 'username', u.username) from users u where u.id = c.user_id),
  'checkout_availability_error', c.checkout_availability_error,
  'checkout_availability_error_at', ${iso('c.checkout_availability_error_at')},
  'has_unlimited_credit', (select o.has_unlimited_credit from organizations o
   where o.id = c.organization_id))`;

app.get<{ Params: { id: string } }>('/api/v1/carts/:id/', async (request, reply) => {
  const u = await user(request);
  if (DOCUMENT) {
    const { rows } = await pool.query(
      `select ${CART_JSON}::text as doc from carts c
       where c.id = $1 and (c.user_id = $2 or $3)`,
      [Number(request.params.id), u.id, u.staff],
    );
    if (!rows[0]) return reply.code(404).send({ detail: 'Not found.' });
    return reply.type('application/json').send(rows[0].doc);
  }
  const id = Number(request.params.id);
  const { rows } = await pool.query(
    'select c.*, s.gln from carts c left join stores s on s.id = c.store_id where c.id = $1 and (c.user_id = $2 or $3)',
    [id, u.id, u.staff],
  );
  if (!rows[0]) return reply.code(404).send({ detail: 'Not found.' });
  const items = await pool.query('select * from items where cart_id = $1 order by created, id', [
    id,
  ]);
  return { ...rows[0], items: items.rows };
});

app.post<{ Body: { cart: number; part_number: string; quantity: number } }>(
  '/api/v1/items/',
  async (request, reply) => {
    const u = await user(request);
    const { cart, part_number, quantity } = request.body;
    const client = await pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query(
        `insert into items (cart_id, part_number, quantity, created)
         select id, $2, $3, now() from carts
         where id = $1 and user_id = $4 and not checked_out and not checkout_frozen
         on conflict (cart_id, part_number) do update set quantity = items.quantity + excluded.quantity
         returning *, (xmax = 0) as inserted`,
        [cart, part_number.trim(), quantity, u.id],
      );
      if (!rows[0]) {
        await client.query('rollback');
        return reply.code(404).send({ detail: 'Not found.' });
      }
      await client.query(
        `update carts set items_count = items_count + $2, total_quantity = total_quantity + $3,
         last_activity = now() where id = $1`,
        [cart, rows[0].inserted ? 1 : 0, quantity],
      );
      await client.query('commit');
      return reply.code(rows[0].inserted ? 201 : 200).send(rows[0]);
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  },
);

app.get<{ Querystring: Q }>('/api/v1/carts/', async (request, reply) => {
  const u = await user(request);
  const { from, where, params } = filter(u, request.query);
  const page = Number(request.query.page ?? 1);
  if (DOCUMENT) {
    // The envelope, the count and the page's 20 carts in one statement.
    const base = `http://${request.headers.host}/api/v1/carts/`;
    const { rows } = await pool.query(
      `select json_build_object('count', n.count,
         'next', case when n.count > ${page * 20} then '${base}?page=${page + 1}' end,
         'previous', case when ${page} > 1 then '${base}?page=${page - 1}' end,
         'results', coalesce((select json_agg(${CART_JSON} order by p.pos)
           from unnest(array(select c.id from ${from} ${where}
             order by c.created desc, c.id desc limit 20 offset ${(page - 1) * 20}))
             with ordinality p(id, pos) join carts c on c.id = p.id), '[]'))::text as doc
       from (select count(*)::int as count from ${from} ${where}) n`,
      params,
    );
    return reply.type('application/json').send(rows[0].doc);
  }
  const [list, count] = await Promise.all([
    pool.query(
      `select c.*, (select gln from stores where id = c.store_id) as gln from ${from} ${where} order by c.created desc, c.id desc limit 20 offset ${(page - 1) * 20}`,
      params,
    ),
    pool.query(`select count(*)::int as n from ${from} ${where}`, params),
  ]);
  const items = await pool.query(
    'select * from items where cart_id = any($1) order by created, id',
    [list.rows.map((r) => r.id)],
  );
  return {
    count: count.rows[0].n,
    results: list.rows.map((r) => ({ ...r, items: items.rows.filter((i) => i.cart_id === r.id) })),
  };
});

app.get<{ Querystring: Q }>('/api/v1/carts/stats/', async (request) => {
  const u = await user(request);
  const { from, where, params } = filter(u, request.query);
  const { rows } = await pool.query(
    `select coalesce(sum(total_quantity), 0)::int as total_quantity,
            coalesce(sum(items_count), 0)::int as total_items
     from ${from} ${where}`,
    params,
  );
  return rows[0];
});

app.get<{ Querystring: Q }>('/api/v1/carts/time-series/', async (request) => {
  const u = await user(request);
  const { from, where, params } = filter(u, request.query);
  const unit = request.query.interval === 'M' ? 'month' : 'day';
  const { rows } = await pool.query(
    `select date_trunc('${unit}', c.created at time zone 'UTC') as interval, count(*)::int as total
     from ${from} ${where} group by 1 order by 1`,
    params,
  );
  return rows;
});

/** The ERP, logged in once as the service account (the bench's simulator answers at once). */
const erp = process.env.UPSTREAM_URL ? new Pool(process.env.UPSTREAM_URL) : undefined;
async function post(path: string, body: unknown, token?: string, key?: string) {
  const answer = await erp!.request({
    method: 'POST',
    path,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = (await answer.body.json()) as Record<string, unknown>;
  if (answer.statusCode >= 300) throw new Error(`upstream ${path}: ${answer.statusCode}`);
  return json;
}
const erpToken = erp
  ? ((
      await post('/auth/token', {
        username: process.env.UPSTREAM_ADMIN_USERNAME,
        password: process.env.UPSTREAM_ADMIN_PASSWORD,
      })
    ).access_token as string)
  : undefined;

app.patch<{ Params: { id: string } }>('/api/v1/carts/:id/checkout/', async (request, reply) => {
  const u = await user(request);
  const id = Number(request.params.id);
  const claimed = await pool.query(
    `with claimed as (
       update carts set checkout_claim = gen_random_uuid(), checkout_started_at = now(),
         checkout_frozen = true
       where id = $1 and user_id = $2 and not checked_out and checkout_claim is null
         and items_count > 0
       returning id, store_id, organization_id, customer_order_number, order_mark, reference)
     select c.store_id, s.gln, o.organization_id, c.customer_order_number, c.order_mark,
       c.reference, (select json_agg(json_build_object('part_number', i.part_number,
         'quantity', i.quantity) order by i.part_number collate "C")
         from items i where i.cart_id = c.id) as lines
     from claimed c left join stores s on s.id = c.store_id
     join organizations o on o.id = c.organization_id`,
    [id, u.id],
  );
  const cart = claimed.rows[0];
  if (!cart) return reply.code(409).send({ detail: 'not claimed' });
  const order = await post(
    '/orders',
    {
      channel: cart.store_id === null ? 'warehouse' : 'store',
      store_gln: cart.gln,
      organization_id: cart.organization_id,
      customer_order_number: cart.customer_order_number,
      order_mark: cart.order_mark,
      reference: cart.reference,
      lines: cart.lines,
    },
    erpToken,
    // `cart-<id>-…` as the service's: the bench's data check reads the cart from the key.
    `cart-${id}-floor`,
  );
  const { rows } = await pool.query(
    `with added as (
       insert into checkouts (cart_id, created, order_id, order_number, timed_out)
       values ($1, now(), $2, $3, $4) returning *
     ), closed as (
       update carts set checked_out = true, checkout_claim = null, checkout_started_at = null,
         checkout_frozen = false, last_activity = now() where id = $1
     )
     select id, cart_id as cart, ${iso('created')} as created, order_id, order_number, timed_out
     from added`,
    [id, order.order_id, order.order_number, order.status === 'queued'],
  );
  return rows[0];
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => {
  app.close().then(() => pool.end().then(() => process.exit(0)));
});
