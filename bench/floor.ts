/**
 * The floor: a minimal Fastify + pg server doing the least honest SQL for the same work as the
 * service (token check and user by primary key included), on the same database and pool size.
 * Own process: DATABASE_URL, DATABASE_POOL_SIZE, JWT_SECRET, PORT.
 */
import { createVerifier } from 'fast-jwt';
import Fastify, { type FastifyRequest } from 'fastify';
import pg from 'pg';

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

app.get<{ Params: { id: string } }>('/api/v1/carts/:id/', async (request, reply) => {
  const u = await user(request);
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

app.get<{ Querystring: Q }>('/api/v1/carts/', async (request) => {
  const u = await user(request);
  const { from, where, params } = filter(u, request.query);
  const page = Number(request.query.page ?? 1);
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
  const { rows } = await pool.query(
    `select date_trunc('day', c.created at time zone 'UTC') as interval, count(*)::int as total
     from ${from} ${where} group by 1 order by 1`,
    params,
  );
  return rows;
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => {
  app.close().then(() => pool.end().then(() => process.exit(0)));
});
