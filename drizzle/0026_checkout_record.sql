-- The checkout behind a transaction pooler (issue 33): its record as a PL/pgSQL function, whose
-- plan each server connection keeps, where the statement sent as text was parsed and planned on
-- every checkout (the inserting and updating statement plans in about 0.15-0.2 ms); and the
-- claim with its caller (0023) reading the caller's row once instead of twice. Same arguments,
-- same columns: an instance of the previous release keeps working.
-- test/db/pooled-functions.test.ts checks that the record's body is its statement's current
-- text (src/carts/checkout.ts RECORD_CHECKOUT) and that both answer what their statements do.
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
