ALTER TABLE "carts" ADD COLUMN "checkout_unconfirmed_at" timestamp(6) with time zone;--> statement-breakpoint
CREATE INDEX "carts_unconfirmed_idx" ON "carts" USING btree ("id") WHERE "carts"."checkout_unconfirmed_at" is not null;--> statement-breakpoint
-- A cart whose order the ERP placed but whose answer could not be stored (checked out,
-- `checkout_unconfirmed_at` set, no record: decision 0001) can be claimed again: the next
-- attempt sends the same body under the same key, and the ERP's first answer, once it can be
-- stored, is recorded. Such a cart is reported as not checked out here, since it has no record
-- yet; otherwise the function is that of 0012.
CREATE OR REPLACE FUNCTION checkout_claim(p_cart integer, p_user integer, p_now timestamptz,
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
    k.reference, k.items_count, k.checked_out AND k.checkout_unconfirmed_at IS NULL AS checked_out,
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
