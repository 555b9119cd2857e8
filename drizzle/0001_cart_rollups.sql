CREATE TABLE "cart_rollups" (
	"store_id" integer,
	"day" date NOT NULL,
	"checked_out" boolean NOT NULL,
	"checkout_availability_error" boolean NOT NULL,
	"carts" integer NOT NULL,
	"items_count" bigint NOT NULL,
	"total_quantity" bigint NOT NULL,
	CONSTRAINT "cart_rollups_key" UNIQUE NULLS NOT DISTINCT("store_id","day","checked_out","checkout_availability_error")
);
--> statement-breakpoint
DROP INDEX "carts_store_idx";--> statement-breakpoint
DROP INDEX "carts_last_activity_idx";--> statement-breakpoint
DROP INDEX "carts_items_count_idx";--> statement-breakpoint
DROP INDEX "carts_total_quantity_idx";--> statement-breakpoint
CREATE INDEX "carts_store_created_idx" ON "carts" USING btree ("store_id","created");--> statement-breakpoint
ALTER TABLE "cart_rollups" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "carts" SET (fillfactor = 90);--> statement-breakpoint
ALTER TABLE "items" SET (fillfactor = 90);--> statement-breakpoint
CREATE FUNCTION cart_rollups_add(p_store integer, p_created timestamptz, p_checked_out boolean,
  p_error boolean, p_carts integer, p_items bigint, p_quantity bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO cart_rollups AS r (store_id, day, checked_out, checkout_availability_error, carts,
    items_count, total_quantity)
  VALUES (p_store, (p_created AT TIME ZONE 'UTC')::date, p_checked_out, p_error, p_carts, p_items,
    p_quantity)
  ON CONFLICT (store_id, day, checked_out, checkout_availability_error) DO UPDATE
  SET carts = r.carts + excluded.carts, items_count = r.items_count + excluded.items_count,
    total_quantity = r.total_quantity + excluded.total_quantity
$$;--> statement-breakpoint
-- A cart's row counts in the rollup row of its key; a change of key moves it, the two rows
-- taken in key order so that concurrent moves cannot deadlock.
CREATE FUNCTION carts_keep_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM cart_rollups_add(NEW.store_id, NEW.created, NEW.checked_out,
      NEW.checkout_availability_error, 1, NEW.items_count, NEW.total_quantity);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM cart_rollups_add(OLD.store_id, OLD.created, OLD.checked_out,
      OLD.checkout_availability_error, -1, -OLD.items_count, -OLD.total_quantity);
  ELSIF (OLD.store_id, (OLD.created AT TIME ZONE 'UTC')::date, OLD.checked_out,
      OLD.checkout_availability_error) IS NOT DISTINCT FROM (NEW.store_id,
      (NEW.created AT TIME ZONE 'UTC')::date, NEW.checked_out, NEW.checkout_availability_error) THEN
    PERFORM cart_rollups_add(NEW.store_id, NEW.created, NEW.checked_out,
      NEW.checkout_availability_error, 0, NEW.items_count - OLD.items_count,
      NEW.total_quantity - OLD.total_quantity);
  ELSIF (coalesce(OLD.store_id, 0), (OLD.created AT TIME ZONE 'UTC')::date, OLD.checked_out,
      OLD.checkout_availability_error) < (coalesce(NEW.store_id, 0),
      (NEW.created AT TIME ZONE 'UTC')::date, NEW.checked_out, NEW.checkout_availability_error) THEN
    PERFORM cart_rollups_add(OLD.store_id, OLD.created, OLD.checked_out,
      OLD.checkout_availability_error, -1, -OLD.items_count, -OLD.total_quantity);
    PERFORM cart_rollups_add(NEW.store_id, NEW.created, NEW.checked_out,
      NEW.checkout_availability_error, 1, NEW.items_count, NEW.total_quantity);
  ELSE
    PERFORM cart_rollups_add(NEW.store_id, NEW.created, NEW.checked_out,
      NEW.checkout_availability_error, 1, NEW.items_count, NEW.total_quantity);
    PERFORM cart_rollups_add(OLD.store_id, OLD.created, OLD.checked_out,
      OLD.checkout_availability_error, -1, -OLD.items_count, -OLD.total_quantity);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER carts_rollups_insert_delete AFTER INSERT OR DELETE ON carts
  FOR EACH ROW EXECUTE FUNCTION carts_keep_rollups();--> statement-breakpoint
CREATE TRIGGER carts_rollups_update AFTER UPDATE ON carts FOR EACH ROW
  WHEN (OLD.items_count IS DISTINCT FROM NEW.items_count
    OR OLD.total_quantity IS DISTINCT FROM NEW.total_quantity
    OR OLD.checked_out IS DISTINCT FROM NEW.checked_out
    OR OLD.checkout_availability_error IS DISTINCT FROM NEW.checkout_availability_error
    OR OLD.store_id IS DISTINCT FROM NEW.store_id OR OLD.created IS DISTINCT FROM NEW.created)
  EXECUTE FUNCTION carts_keep_rollups();--> statement-breakpoint
CREATE FUNCTION carts_truncate_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE cart_rollups;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER carts_rollups_truncate AFTER TRUNCATE ON carts
  FOR EACH STATEMENT EXECUTE FUNCTION carts_truncate_rollups();--> statement-breakpoint
INSERT INTO cart_rollups (store_id, day, checked_out, checkout_availability_error, carts,
  items_count, total_quantity)
SELECT store_id, (created AT TIME ZONE 'UTC')::date, checked_out, checkout_availability_error,
  count(*), sum(items_count), sum(total_quantity)
FROM carts GROUP BY 1, 2, 3, 4;
