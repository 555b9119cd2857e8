-- Behind a transaction pooler each call costs its round trip: the checkout's claim brings its
-- caller's row (as auth_user answers it) in the same call (`callerInRead`, src/http/auth.ts
-- writeWithCaller; decision 0016). A write must not happen for a caller the service would
-- refuse: the claim is made only when the user's row still carries the token's username and
-- session generation. No row when the user is gone; the claim's columns null when the token
-- no longer matches (nothing claimed) or the cart is not there or not theirs.
-- test/db/pooled-functions.test.ts checks it against auth_user and checkout_claim.
CREATE FUNCTION checkout_claim_as(p_user integer, p_username text, p_generation integer,
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
  matches boolean;
BEGIN
  SELECT a.username = p_username AND a."sessionGeneration" = p_generation INTO matches
  FROM auth_user(p_user) a;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  -- A caller the service refuses claims nothing: the cart NULL matches no cart.
  RETURN QUERY SELECT a.*, c.* FROM auth_user(p_user) a
    LEFT JOIN checkout_claim(CASE WHEN matches THEN p_cart END, p_user, p_now, p_stale_before,
      p_token) c ON true;
END $$;
