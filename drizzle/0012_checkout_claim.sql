-- The claim of a checkout attempt in one round trip (decision 0001, src/carts/checkout.ts),
-- where it took four (BEGIN, lock, claim, COMMIT). The owner's cart is locked first; every
-- later statement here takes a snapshot of its own, after the lock (a VOLATILE function's
-- statements do, in READ COMMITTED), so it sees every line and record committed before the
-- lock was granted. Then the cart's checkout record, if any; and when the cart can be
-- claimed (no record, not checked out, no fresh claim, at least one line) the claim under
-- the attempt's token, which adds the token to the unsettled attempts (freezing the lines),
-- and the lines in byte order (whatever the collation: the body under the idempotency key
-- never changes). A cart frozen before attempts had tokens keeps a placeholder token (nil
-- UUID): its outcome is still unknown. The store's `carts_for_random_control` comes along:
-- a checkout in a store that draws nothing then costs the draw no statement. No row: the
-- user has no such cart.
CREATE FUNCTION checkout_claim(p_cart integer, p_user integer, p_now timestamptz,
  p_stale_before timestamptz, p_token uuid)
RETURNS TABLE (user_id integer, store_id integer, cart_created text,
  customer_order_number text, order_mark text, reference text, items_count integer,
  checked_out boolean, in_progress boolean, gln text, carts_for_random_control integer,
  organization_id text, record json, claimed boolean, lines json)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  c record;
  found_record json;
  claimable boolean;
  claimed_lines json;
BEGIN
  SELECT k.user_id, k.store_id, k.created, k.customer_order_number, k.order_mark,
    k.reference, k.items_count, k.checked_out,
    k.checkout_started_at IS NOT NULL AND k.checkout_started_at > p_stale_before AS in_progress,
    s.gln, s.carts_for_random_control, o.organization_id
  INTO c
  FROM carts k
  LEFT JOIN stores s ON s.id = k.store_id
  JOIN organizations o ON o.id = k.organization_id
  WHERE k.id = p_cart AND k.user_id = p_user
  FOR UPDATE OF k;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT row_to_json(r) INTO found_record FROM (
    SELECT x.id, x.cart_id,
      to_char(x.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created,
      x.order_id, x.order_number, x.timed_out
    FROM checkouts x WHERE x.cart_id = p_cart) r;
  claimable := found_record IS NULL AND NOT c.checked_out AND NOT c.in_progress
    AND c.items_count > 0;
  IF claimable THEN
    UPDATE carts SET checkout_started_at = p_now, checkout_claim = p_token,
      checkout_unsettled = CASE WHEN checkout_frozen AND cardinality(checkout_unsettled) = 0
        THEN array['00000000-0000-0000-0000-000000000000'::uuid, p_token]
        ELSE array_append(checkout_unsettled, p_token) END,
      checkout_frozen = true
    WHERE id = p_cart;
    SELECT coalesce(json_agg(json_build_object('part_number', i.part_number,
        'quantity', i.quantity) ORDER BY i.part_number COLLATE "C"), '[]')
      INTO claimed_lines FROM items i WHERE i.cart_id = p_cart;
  END IF;
  RETURN QUERY SELECT c.user_id, c.store_id, c.created::text, c.customer_order_number,
    c.order_mark, c.reference, c.items_count, c.checked_out, c.in_progress, c.gln,
    c.carts_for_random_control, c.organization_id, found_record, claimable, claimed_lines;
END
$$;
