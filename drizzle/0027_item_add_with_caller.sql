-- Behind a transaction pooler (issue 33; decision 0016): the item add brings its caller's row
-- (as auth_user answers it) in the same call, where it looked the caller up in a call of its
-- own first (`callerInRead`, src/http/auth.ts writeWithCaller). Still a write in the
-- service's verified transaction (BEGIN, the call, COMMIT). A write must not happen for a
-- caller the service would refuse: the line is added only when the user's row still carries
-- the token's username and session generation. No row when the user is gone; the add's
-- columns null when the token no longer matches (nothing written) or the cart is not there
-- or not theirs. The line's id is `item_id` (the caller's is `id`). The add is add_item's
-- (0019) text, with the caller's columns first: test/db/pooled-functions.test.ts checks the
-- two bodies alike and each answer against auth_user and ADD_ITEM.
CREATE FUNCTION add_item_as(p_user integer, p_username text, p_generation integer,
  p_cart integer, p_part text, p_quantity integer, p_now timestamptz)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, checked_out boolean, checkout_frozen boolean, item_id integer,
  cart_id integer, part_number text, quantity integer, created text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  a record;
BEGIN
  SELECT who.id, who.username, who.email, who.first_name, who.last_name, who.telephone,
    who.reference, who.is_staff, who.is_admin, who.session_generation INTO a
  FROM users who WHERE who.id = p_user;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF a.username = p_username AND a.session_generation = p_generation THEN
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
  SELECT a.id, a.username, a.email, a.first_name, a.last_name, a.telephone, a.reference,
    a.is_staff, a.is_admin, a.session_generation,
    cart.checked_out, cart.checkout_frozen, line.id, line.cart_id,
    line.part_number::text, line.quantity,
    to_char(line.created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
  FROM cart LEFT JOIN line ON true;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  -- Refused, or no such cart of theirs: the caller alone, nothing written.
  RETURN QUERY SELECT a.id, a.username, a.email, a.first_name, a.last_name, a.telephone,
    a.reference, a.is_staff, a.is_admin, a.session_generation, NULL::boolean, NULL::boolean,
    NULL::integer, NULL::integer, NULL::text, NULL::integer, NULL::text;
END $$;
