CREATE TABLE "cart_counts" (
	"store_id" integer,
	"day" date NOT NULL,
	"checked_out" boolean NOT NULL,
	"checkout_availability_error" boolean NOT NULL,
	"carts" integer NOT NULL,
	CONSTRAINT "cart_counts_key" UNIQUE NULLS NOT DISTINCT("store_id","day","checked_out","checkout_availability_error")
);
--> statement-breakpoint
CREATE INDEX "cart_counts_read_idx" ON "cart_counts" USING btree ("store_id","day","checked_out","checkout_availability_error","carts");--> statement-breakpoint
-- The same function as in 0001, which also keeps cart_counts when the number of carts changes.
CREATE OR REPLACE FUNCTION cart_rollups_add(p_store integer, p_created timestamptz,
  p_checked_out boolean, p_error boolean, p_carts integer, p_items bigint, p_quantity bigint)
  RETURNS void
LANGUAGE sql AS $$
  INSERT INTO cart_rollups AS r (store_id, day, checked_out, checkout_availability_error, carts,
    items_count, total_quantity)
  VALUES (p_store, (p_created AT TIME ZONE 'UTC')::date, p_checked_out, p_error, p_carts, p_items,
    p_quantity)
  ON CONFLICT (store_id, day, checked_out, checkout_availability_error) DO UPDATE
  SET carts = r.carts + excluded.carts, items_count = r.items_count + excluded.items_count,
    total_quantity = r.total_quantity + excluded.total_quantity;
  INSERT INTO cart_counts AS n (store_id, day, checked_out, checkout_availability_error, carts)
  SELECT p_store, (p_created AT TIME ZONE 'UTC')::date, p_checked_out, p_error, p_carts
  WHERE p_carts <> 0
  ON CONFLICT (store_id, day, checked_out, checkout_availability_error) DO UPDATE
  SET carts = n.carts + excluded.carts;
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION carts_truncate_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE cart_rollups, cart_counts;
  RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO cart_counts (store_id, day, checked_out, checkout_availability_error, carts)
SELECT store_id, day, checked_out, checkout_availability_error, carts FROM cart_rollups;
