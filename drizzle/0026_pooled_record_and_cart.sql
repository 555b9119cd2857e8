-- Behind a transaction pooler (issue 33; decision 0016):
-- - the checkout's record as a PL/pgSQL function, whose plan each server connection keeps,
--   where the statement sent as text was parsed and planned on every checkout (it plans in
--   about 0.15-0.2 ms): its body is the service's text (src/carts/checkout.ts RECORD_CHECKOUT);
-- - the claim with its caller (0023) reading the caller's row once instead of twice;
-- - the cart with its caller (0022) as one statement, the caller's row as auth_user (0019)
--   reads it and the cart's text (src/carts/queries.ts GET_CART) inlined, where it called two
--   functions (each call of a PL/pgSQL function from another costs its own executor).
-- Same arguments and columns: an instance of the previous release keeps working. Written by
-- scripts/pooled-checkout-sql.ts; test/db/pooled-functions.test.ts checks each body against
-- the service's texts today and each answer against its statements.
CREATE FUNCTION checkout_record(p1 integer, p2 timestamptz, p3 text, p4 text, p5 boolean,
  p6 uuid)
RETURNS TABLE (added boolean, id integer, cart_id integer, created text, order_id text,
  order_number text, timed_out boolean)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY with added as (
    insert into checkouts (cart_id, created, order_id, order_number, timed_out, attempt)
    values ($1, $2, $3, $4, $5, $6::uuid)
    on conflict (cart_id) do nothing
    returning id, cart_id, created, order_id, order_number, timed_out
  ), closed as (
    update carts set checked_out = true, checkout_claim = null, checkout_started_at = null,
      checkout_unsettled = '{}', checkout_frozen = false, last_activity = $2,
      checkout_unconfirmed_at = null
    where id = $1 and exists (select from added)
  )
  select true as added, id, cart_id, to_char(created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, order_id, order_number,
    timed_out
  from added
  union all
  select false, id, cart_id, to_char(created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created, order_id, order_number, timed_out from checkouts
  where cart_id = $1 and not exists (select from added);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION checkout_claim_as(p_user integer, p_username text, p_generation integer,
  p_cart integer, p_now timestamptz, p_stale_before timestamptz, p_token uuid)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, user_id integer, store_id integer, cart_created text,
  customer_order_number text, order_mark text, cart_reference text, items_count integer,
  checked_out boolean, in_progress boolean, gln text, carts_for_random_control integer,
  organization_id text, record json, claimed boolean, lines json)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  a record;
BEGIN
  SELECT * INTO a FROM auth_user(p_user);
  IF NOT FOUND THEN
    RETURN;
  END IF;
  -- A caller the service refuses claims nothing: the cart NULL matches no cart.
  RETURN QUERY SELECT a.id, a.username, a.email, a."firstName", a."lastName", a.telephone,
    a.reference, a."isStaff", a."isAdmin", a."sessionGeneration", c.*
    FROM (SELECT) one LEFT JOIN checkout_claim(
      CASE WHEN a.username = p_username AND a."sessionGeneration" = p_generation THEN p_cart END,
      p_user, p_now, p_stale_before, p_token) c ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cart_doc_as(p_user integer, p_cart integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, doc text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation,
    (select (select row_to_json(j) from (select c.id,
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
      where o.id = c.organization_id) as has_unlimited_credit) j)::text as doc from carts c
  where c.id = $2 and (c.user_id = $1 or (who.is_staff OR who.is_admin)))
  FROM users who WHERE who.id = $1;
END $$;
