-- The reads every request of the hot paths makes, as PL/pgSQL functions (issue 33, decision
-- 0016). Behind a transaction pooler nothing is prepared (PgBouncer 1.18 has no
-- prepared-statement support), so a statement sent as text is parsed and planned on every
-- run; a PL/pgSQL function keeps the plans of its statements per server connection, which
-- the pooler keeps open. The service calls these only with DATABASE_POOLER=transaction; on
-- a direct connection the same texts are prepared statements (src/db/statement.ts). The
-- bodies are the service's texts (src/http/auth.ts USER_BY_ID, src/carts/queries.ts GET_CART)
-- with `iso()` written out; test/db/pooled-functions.test.ts checks that both answer the same.
CREATE FUNCTION auth_user(p_id integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY SELECT u.id, u.username, u.email, u.first_name, u.last_name, u.telephone,
    u.reference, u.is_staff, u.is_admin, u.session_generation
  FROM users u WHERE u.id = p_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION cart_doc(p_id integer, p_user integer, p_staff boolean)
RETURNS SETOF text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY SELECT (select row_to_json(j) from (select c.id,
    (select row_to_json(k) from (select k.id, k.cart_id as cart,
        to_char(k.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        k.order_id, k.order_number, k.timed_out
      from checkouts k where k.cart_id = c.id) k) as checkout,
    array(select cc.control_id from control_carts cc where cc.cart_id = c.id
      order by cc.control_id) as controls,
    to_char(c.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
    to_char(c.last_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_activity,
    c.customer_order_number, c.order_mark, c.reference,
    array_to_json(array(select row_to_json(i) from (select i.id, i.cart_id as cart,
        i.part_number, i.quantity,
        to_char(i.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
      from items i where i.cart_id = c.id order by i.created, i.id) i)) as items,
    c.items_count, c.total_quantity,
    (select row_to_json(o) from (select o.id, o.code,
        to_char(o.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        o.name, o.organization_id, o.parent_code
      from organizations o where o.id = c.organization_id) o) as organization,
    (select row_to_json(s) from (select
        to_char(s.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        s.gln, s.id
      from stores s where s.id = c.store_id) s) as store,
    (select row_to_json(u) from (select u.email, u.first_name, u.id, u.last_name, u.username
      from users u where u.id = c.user_id) u) as "user",
    c.checkout_availability_error,
    to_char(c.checkout_availability_error_at at time zone 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as checkout_availability_error_at,
    (select o.has_unlimited_credit from organizations o
      where o.id = c.organization_id) as has_unlimited_credit) j)::text
  FROM carts c WHERE c.id = p_id AND (c.user_id = p_user OR p_staff);
END $$;
--> statement-breakpoint
-- A line added (src/items/logic.ts ADD_ITEM, the same text with `iso()` written out): a
-- write, still sent in the service's verified transaction (BEGIN, the call, COMMIT).
CREATE FUNCTION add_item(p_cart integer, p_user integer, p_part text, p_quantity integer,
  p_now timestamptz)
RETURNS TABLE (checked_out boolean, checkout_frozen boolean, id integer, cart_id integer,
  part_number text, quantity integer, created text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY WITH cart AS (
    SELECT c.id, c.checked_out, c.checkout_frozen FROM carts c
    WHERE c.id = p_cart AND c.user_id = p_user FOR UPDATE
  ), line AS (
    INSERT INTO items AS it (cart_id, part_number, quantity, created)
    SELECT cart.id, p_part, p_quantity, p_now FROM cart
    WHERE NOT cart.checked_out AND NOT cart.checkout_frozen
    ON CONFLICT (cart_id, part_number) DO UPDATE SET quantity = it.quantity + excluded.quantity
      WHERE it.quantity + excluded.quantity <= 1000000
    RETURNING it.id, it.cart_id, it.part_number, it.quantity, it.created, it.xmax = 0 AS inserted
  ), touched AS (
    UPDATE carts SET items_count = carts.items_count + CASE WHEN line.inserted THEN 1 ELSE 0 END,
      total_quantity = carts.total_quantity + p_quantity, last_activity = p_now
    FROM line WHERE carts.id = line.cart_id
  )
  SELECT cart.checked_out, cart.checkout_frozen, line.id, line.cart_id,
    line.part_number::text, line.quantity,
    to_char(line.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
  FROM cart LEFT JOIN line ON true;
END $$;
--> statement-breakpoint
-- A customer's first page of their own carts, by default order (src/carts/queries.ts, the
-- hot page of a customer, its text verbatim: $1 and $2 are the function's parameters, the
-- user both times). Its plan made once, as on a direct connection (decision 0013).
CREATE FUNCTION customer_page(p_count_user integer, p_page_user integer)
RETURNS TABLE (total integer, results text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY select (select count(*)::int from carts c
    where c.user_id = $1) as total,
    array_to_json(array(select (select row_to_json(j) from (select c.id,
    (select row_to_json(k) from (select k.id, k.cart_id as cart, to_char(k.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        k.order_id, k.order_number, k.timed_out
      from checkouts k where k.cart_id = c.id) k) as checkout,
    array(select cc.control_id from control_carts cc where cc.cart_id = c.id
      order by cc.control_id) as controls,
    to_char(c.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, to_char(c.last_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_activity,
    c.customer_order_number, c.order_mark, c.reference,
    array_to_json(array(select row_to_json(i) from (select i.id, i.cart_id as cart,
        i.part_number, i.quantity, to_char(i.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
      from items i where i.cart_id = c.id order by i.created, i.id) i)) as items,
    c.items_count, c.total_quantity,
    (select row_to_json(o) from (select o.id, o.code, to_char(o.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, o.name,
        o.organization_id, o.parent_code
      from organizations o where o.id = c.organization_id) o) as organization,
    (select row_to_json(s) from (select to_char(s.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, s.gln, s.id
      from stores s where s.id = c.store_id) s) as store,
    (select row_to_json(u) from (select u.email, u.first_name, u.id, u.last_name, u.username
      from users u where u.id = c.user_id) u) as "user",
    c.checkout_availability_error,
    to_char(c.checkout_availability_error_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as checkout_availability_error_at,
    (select o.has_unlimited_credit from organizations o
      where o.id = c.organization_id) as has_unlimited_credit) j) from unnest(array(select c.id from carts c
      where c.user_id = $2
      order by c.created desc, c.id desc limit 20 offset 0)) with ordinality p(id, pos)
      join carts c on c.id = p.id order by p.pos))::text as results;
END $$;
--> statement-breakpoint
-- Staff's first pages, by default order (src/carts/queries.ts HOT_PAGES, the texts verbatim):
-- over all carts, of a store, between dates, from and up to a date. The parameters come as
-- text: each text casts its own (`$1::timestamptz`) or compares with a text column (gln).
-- Their plans made once, as on a direct connection (decision 0013).
-- Staff: all carts.
CREATE FUNCTION staff_page()
RETURNS TABLE (total float8, results text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY select (select coalesce(sum(n), 0)::float8 from (select r.carts::int as n from cart_grains_all r where r.grain = 'T') t) as total,
    array_to_json(array(select (select row_to_json(j) from (select c.id,
    (select row_to_json(k) from (select k.id, k.cart_id as cart, to_char(k.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        k.order_id, k.order_number, k.timed_out
      from checkouts k where k.cart_id = c.id) k) as checkout,
    array(select cc.control_id from control_carts cc where cc.cart_id = c.id
      order by cc.control_id) as controls,
    to_char(c.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, to_char(c.last_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_activity,
    c.customer_order_number, c.order_mark, c.reference,
    array_to_json(array(select row_to_json(i) from (select i.id, i.cart_id as cart,
        i.part_number, i.quantity, to_char(i.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
      from items i where i.cart_id = c.id order by i.created, i.id) i)) as items,
    c.items_count, c.total_quantity,
    (select row_to_json(o) from (select o.id, o.code, to_char(o.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, o.name,
        o.organization_id, o.parent_code
      from organizations o where o.id = c.organization_id) o) as organization,
    (select row_to_json(s) from (select to_char(s.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, s.gln, s.id
      from stores s where s.id = c.store_id) s) as store,
    (select row_to_json(u) from (select u.email, u.first_name, u.id, u.last_name, u.username
      from users u where u.id = c.user_id) u) as "user",
    c.checkout_availability_error,
    to_char(c.checkout_availability_error_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as checkout_availability_error_at,
    (select o.has_unlimited_credit from organizations o
      where o.id = c.organization_id) as has_unlimited_credit) j) from unnest(array(select c.id from carts c

      order by c.created desc, c.id desc limit 20 offset 0)) with ordinality p(id, pos)
      join carts c on c.id = p.id order by p.pos))::text as results;
END $$;
--> statement-breakpoint
-- Staff: a store (gln).
CREATE FUNCTION staff_page_store(p1 text, p2 text)
RETURNS TABLE (total float8, results text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY select (select coalesce(sum(n), 0)::float8 from (select r.carts::int as n from cart_grains r where r.grain = 'T' and r.store_id = (select id from stores where gln = $1)) t) as total,
    array_to_json(array(select (select row_to_json(j) from (select c.id,
    (select row_to_json(k) from (select k.id, k.cart_id as cart, to_char(k.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        k.order_id, k.order_number, k.timed_out
      from checkouts k where k.cart_id = c.id) k) as checkout,
    array(select cc.control_id from control_carts cc where cc.cart_id = c.id
      order by cc.control_id) as controls,
    to_char(c.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, to_char(c.last_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_activity,
    c.customer_order_number, c.order_mark, c.reference,
    array_to_json(array(select row_to_json(i) from (select i.id, i.cart_id as cart,
        i.part_number, i.quantity, to_char(i.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
      from items i where i.cart_id = c.id order by i.created, i.id) i)) as items,
    c.items_count, c.total_quantity,
    (select row_to_json(o) from (select o.id, o.code, to_char(o.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, o.name,
        o.organization_id, o.parent_code
      from organizations o where o.id = c.organization_id) o) as organization,
    (select row_to_json(s) from (select to_char(s.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, s.gln, s.id
      from stores s where s.id = c.store_id) s) as store,
    (select row_to_json(u) from (select u.email, u.first_name, u.id, u.last_name, u.username
      from users u where u.id = c.user_id) u) as "user",
    c.checkout_availability_error,
    to_char(c.checkout_availability_error_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as checkout_availability_error_at,
    (select o.has_unlimited_credit from organizations o
      where o.id = c.organization_id) as has_unlimited_credit) j) from unnest(array(select c.id from carts c
      where c.store_id = (select id from stores where gln = $2)
      order by c.created desc, c.id desc limit 20 offset 0)) with ordinality p(id, pos)
      join carts c on c.id = p.id order by p.pos))::text as results;
END $$;
--> statement-breakpoint
-- Staff: between dates.
CREATE FUNCTION staff_page_between(p1 text, p2 text, p3 text, p4 text)
RETURNS TABLE (total float8, results text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY select (select coalesce(sum(n), 0)::float8 from (select 1 as n from carts c where c.created > $1::timestamptz and c.created < least((date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $2::timestamptz) union all select r.carts::int as n from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) union all select r.carts::int as n from cart_hours r where r.hour >= greatest((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($2::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) union all select 1 as n from carts c where c.created >= (greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.carts::int as n from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select r.carts::int as n from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($2::timestamptz at time zone 'UTC')::date union all select r.carts::int as n from cart_days r where r.day >= greatest((date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($2::timestamptz at time zone 'UTC')::date) t) as total,
    array_to_json(array(select (select row_to_json(j) from (select c.id,
    (select row_to_json(k) from (select k.id, k.cart_id as cart, to_char(k.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        k.order_id, k.order_number, k.timed_out
      from checkouts k where k.cart_id = c.id) k) as checkout,
    array(select cc.control_id from control_carts cc where cc.cart_id = c.id
      order by cc.control_id) as controls,
    to_char(c.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, to_char(c.last_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_activity,
    c.customer_order_number, c.order_mark, c.reference,
    array_to_json(array(select row_to_json(i) from (select i.id, i.cart_id as cart,
        i.part_number, i.quantity, to_char(i.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
      from items i where i.cart_id = c.id order by i.created, i.id) i)) as items,
    c.items_count, c.total_quantity,
    (select row_to_json(o) from (select o.id, o.code, to_char(o.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, o.name,
        o.organization_id, o.parent_code
      from organizations o where o.id = c.organization_id) o) as organization,
    (select row_to_json(s) from (select to_char(s.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, s.gln, s.id
      from stores s where s.id = c.store_id) s) as store,
    (select row_to_json(u) from (select u.email, u.first_name, u.id, u.last_name, u.username
      from users u where u.id = c.user_id) u) as "user",
    c.checkout_availability_error,
    to_char(c.checkout_availability_error_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as checkout_availability_error_at,
    (select o.has_unlimited_credit from organizations o
      where o.id = c.organization_id) as has_unlimited_credit) j) from unnest(array(select c.id from carts c
      where c.created > $3::timestamptz and c.created < $4::timestamptz
      order by c.created desc, c.id desc limit 20 offset 0)) with ordinality p(id, pos)
      join carts c on c.id = p.id order by p.pos))::text as results;
END $$;
--> statement-breakpoint
-- Staff: from a date.
CREATE FUNCTION staff_page_after(p1 text, p2 text)
RETURNS TABLE (total float8, results text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY select (select coalesce(sum(n), 0)::float8 from (select 1 as n from carts c where c.created > $1::timestamptz and c.created < (date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.carts::int as n from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($1::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.carts::int as n from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select r.carts::int as n from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) t) as total,
    array_to_json(array(select (select row_to_json(j) from (select c.id,
    (select row_to_json(k) from (select k.id, k.cart_id as cart, to_char(k.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        k.order_id, k.order_number, k.timed_out
      from checkouts k where k.cart_id = c.id) k) as checkout,
    array(select cc.control_id from control_carts cc where cc.cart_id = c.id
      order by cc.control_id) as controls,
    to_char(c.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, to_char(c.last_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_activity,
    c.customer_order_number, c.order_mark, c.reference,
    array_to_json(array(select row_to_json(i) from (select i.id, i.cart_id as cart,
        i.part_number, i.quantity, to_char(i.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
      from items i where i.cart_id = c.id order by i.created, i.id) i)) as items,
    c.items_count, c.total_quantity,
    (select row_to_json(o) from (select o.id, o.code, to_char(o.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, o.name,
        o.organization_id, o.parent_code
      from organizations o where o.id = c.organization_id) o) as organization,
    (select row_to_json(s) from (select to_char(s.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, s.gln, s.id
      from stores s where s.id = c.store_id) s) as store,
    (select row_to_json(u) from (select u.email, u.first_name, u.id, u.last_name, u.username
      from users u where u.id = c.user_id) u) as "user",
    c.checkout_availability_error,
    to_char(c.checkout_availability_error_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as checkout_availability_error_at,
    (select o.has_unlimited_credit from organizations o
      where o.id = c.organization_id) as has_unlimited_credit) j) from unnest(array(select c.id from carts c
      where c.created > $2::timestamptz
      order by c.created desc, c.id desc limit 20 offset 0)) with ordinality p(id, pos)
      join carts c on c.id = p.id order by p.pos))::text as results;
END $$;
--> statement-breakpoint
-- Staff: up to a date.
CREATE FUNCTION staff_page_before(p1 text, p2 text)
RETURNS TABLE (total float8, results text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY select (select coalesce(sum(n), 0)::float8 from (select r.carts::int as n from cart_hours r where r.hour >= ($1::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($1::timestamptz at time zone 'UTC')) union all select 1 as n from carts c where c.created >= (date_trunc('hour', ($1::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $1::timestamptz union all select r.carts::int as n from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp)::date union all select r.carts::int as n from cart_days r where r.day >= date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($1::timestamptz at time zone 'UTC')::date) t) as total,
    array_to_json(array(select (select row_to_json(j) from (select c.id,
    (select row_to_json(k) from (select k.id, k.cart_id as cart, to_char(k.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created,
        k.order_id, k.order_number, k.timed_out
      from checkouts k where k.cart_id = c.id) k) as checkout,
    array(select cc.control_id from control_carts cc where cc.cart_id = c.id
      order by cc.control_id) as controls,
    to_char(c.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, to_char(c.last_activity at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as last_activity,
    c.customer_order_number, c.order_mark, c.reference,
    array_to_json(array(select row_to_json(i) from (select i.id, i.cart_id as cart,
        i.part_number, i.quantity, to_char(i.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created
      from items i where i.cart_id = c.id order by i.created, i.id) i)) as items,
    c.items_count, c.total_quantity,
    (select row_to_json(o) from (select o.id, o.code, to_char(o.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, o.name,
        o.organization_id, o.parent_code
      from organizations o where o.id = c.organization_id) o) as organization,
    (select row_to_json(s) from (select to_char(s.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, s.gln, s.id
      from stores s where s.id = c.store_id) s) as store,
    (select row_to_json(u) from (select u.email, u.first_name, u.id, u.last_name, u.username
      from users u where u.id = c.user_id) u) as "user",
    c.checkout_availability_error,
    to_char(c.checkout_availability_error_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as checkout_availability_error_at,
    (select o.has_unlimited_credit from organizations o
      where o.id = c.organization_id) as has_unlimited_credit) j) from unnest(array(select c.id from carts c
      where c.created < $2::timestamptz
      order by c.created desc, c.id desc limit 20 offset 0)) with ordinality p(id, pos)
      join carts c on c.id = p.id order by p.pos))::text as results;
END $$;
