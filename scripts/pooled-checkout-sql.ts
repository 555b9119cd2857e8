// Prints migration 0026 (drizzle/0026_pooled_record_and_cart.sql): behind a transaction pooler,
// the checkout's record as a PL/pgSQL function (its body the service's text, RECORD_CHECKOUT),
// the claim with its caller reading the caller once, and the cart with its caller in one
// statement (GET_CART's text inlined). test/db/pooled-functions.test.ts checks each body
// against the service's texts today and each answer against its statements.
import { RECORD_CHECKOUT } from '../src/carts/checkout.js';
import { GET_CART } from '../src/carts/queries.js';
import { CALLER_COLUMNS, CALLER_SELECT, withParams } from './pooled-stats-sql.js';

/** GET_CART's text for `cart_doc_as`: the cart `$2`, the caller `$1` as `who`, whose flags say staff. */
export function cartAsText(): string {
  const params = ['$2', '$1', '(who.is_staff OR who.is_admin)'];
  return withParams(GET_CART.text.trim(), (n) => {
    const to = params[n - 1];
    if (!to) throw new Error(`GET_CART: unexpected parameter $${n}`);
    return to;
  });
}

export function pooledCheckoutSql(): string {
  return `-- Behind a transaction pooler (issue 33; decision 0016):
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
  RETURN QUERY ${RECORD_CHECKOUT.text.trim()};
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION checkout_claim_as(p_user integer, p_username text, p_generation integer,
  p_cart integer, p_now timestamptz, p_stale_before timestamptz, p_token uuid)
RETURNS TABLE (${CALLER_COLUMNS}, user_id integer, store_id integer, cart_created text,
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
RETURNS TABLE (${CALLER_COLUMNS}, doc text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT ${CALLER_SELECT},
    (${cartAsText()})
  FROM users who WHERE who.id = $1;
END $$;
`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(pooledCheckoutSql());
