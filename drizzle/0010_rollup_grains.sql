CREATE TABLE "cart_grains" (
	"store_id" integer,
	"grain" char(1) NOT NULL,
	"period" date NOT NULL,
	"checked_out" boolean NOT NULL,
	"checkout_availability_error" boolean NOT NULL,
	"carts" bigint NOT NULL,
	"items_count" bigint NOT NULL,
	"total_quantity" bigint NOT NULL,
	CONSTRAINT "cart_grains_key" UNIQUE NULLS NOT DISTINCT("store_id","grain","period","checked_out","checkout_availability_error")
);
--> statement-breakpoint
CREATE TABLE "cart_grains_all" (
	"grain" char(1) NOT NULL,
	"period" date NOT NULL,
	"shard" smallint NOT NULL,
	"warehouse" boolean NOT NULL,
	"checked_out" boolean NOT NULL,
	"checkout_availability_error" boolean NOT NULL,
	"carts" bigint NOT NULL,
	"items_count" bigint NOT NULL,
	"total_quantity" bigint NOT NULL,
	CONSTRAINT "cart_grains_all_key" UNIQUE("grain","period","warehouse","checked_out","checkout_availability_error","shard")
);
--> statement-breakpoint
CREATE INDEX "cart_grains_all_unfolded_idx" ON "cart_grains_all" USING btree ("grain","period") WHERE "cart_grains_all"."shard" <> 0;--> statement-breakpoint
-- Hand-written from here (decision 0010): fillfactor, the delta type, the trigger function
-- redefined whole, statement-level triggers, the backfill.
ALTER TABLE "cart_grains" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "cart_grains_all" SET (fillfactor = 50);--> statement-breakpoint
-- One cart's contribution to the figures: +1 and its sums when it appears, -1 and minus its
-- sums when it goes; an update is the old row going and the new row appearing.
CREATE TYPE cart_rollup_delta AS (store_id integer, created timestamptz, checked_out boolean,
  error boolean, id bigint, carts integer, items bigint, quantity bigint);--> statement-breakpoint
-- Every grain from one statement's deltas: summed per row of each table, zero sums left out,
-- the rows taken table by table in key order, so that writers (one cart or a thousand) lock
-- them in one global order and cannot deadlock.
CREATE FUNCTION cart_rollups_apply(deltas cart_rollup_delta[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF deltas IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO cart_rollups AS r (store_id, day, checked_out, checkout_availability_error, carts,
    items_count, total_quantity)
  SELECT d.store_id, (d.created AT TIME ZONE 'UTC')::date, d.checked_out, d.error, sum(d.carts),
    sum(d.items), sum(d.quantity)
  FROM unnest(deltas) d GROUP BY 1, 2, 3, 4
  HAVING sum(d.carts) <> 0 OR sum(d.items) <> 0 OR sum(d.quantity) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (store_id, day, checked_out, checkout_availability_error) DO UPDATE
  SET carts = r.carts + excluded.carts, items_count = r.items_count + excluded.items_count,
    total_quantity = r.total_quantity + excluded.total_quantity;

  INSERT INTO cart_counts AS n (store_id, day, checked_out, checkout_availability_error, carts)
  SELECT d.store_id, (d.created AT TIME ZONE 'UTC')::date, d.checked_out, d.error, sum(d.carts)
  FROM unnest(deltas) d GROUP BY 1, 2, 3, 4
  HAVING sum(d.carts) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (store_id, day, checked_out, checkout_availability_error) DO UPDATE
  SET carts = n.carts + excluded.carts;

  INSERT INTO cart_grains AS g (store_id, grain, period, checked_out, checkout_availability_error,
    carts, items_count, total_quantity)
  SELECT d.store_id, x.grain, x.period, d.checked_out, d.error, sum(d.carts), sum(d.items),
    sum(d.quantity)
  FROM unnest(deltas) d CROSS JOIN LATERAL (VALUES
    ('M', date_trunc('month', d.created AT TIME ZONE 'UTC')::date),
    ('T', '-infinity'::date)) x(grain, period)
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum(d.carts) <> 0 OR sum(d.items) <> 0 OR sum(d.quantity) <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (store_id, grain, period, checked_out, checkout_availability_error) DO UPDATE
  SET carts = g.carts + excluded.carts, items_count = g.items_count + excluded.items_count,
    total_quantity = g.total_quantity + excluded.total_quantity;

  -- Rows of the current day and month, and the all-time rows, are shared by every writer:
  -- 32 shards (by cart) so that writers rarely wait on one another. Closed days and months
  -- are rarely written: shard 0, where cart_grains_fold() gathers them (decision 0010).
  INSERT INTO cart_grains_all AS a (grain, period, warehouse, checked_out,
    checkout_availability_error, shard, carts, items_count, total_quantity)
  SELECT x.grain, x.period, d.store_id IS NULL, d.checked_out, d.error,
    CASE WHEN x.period >= x.current THEN (d.id % 32)::smallint ELSE 0::smallint END,
    sum(d.carts), sum(d.items), sum(d.quantity)
  FROM unnest(deltas) d CROSS JOIN LATERAL (VALUES
    ('D', (d.created AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date),
    ('M', date_trunc('month', d.created AT TIME ZONE 'UTC')::date,
      date_trunc('month', now() AT TIME ZONE 'UTC')::date),
    ('T', '-infinity'::date, '-infinity'::date)) x(grain, period, current)
  GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(d.carts) <> 0 OR sum(d.items) <> 0 OR sum(d.quantity) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (grain, period, warehouse, checked_out, checkout_availability_error, shard)
  DO UPDATE
  SET carts = a.carts + excluded.carts, items_count = a.items_count + excluded.items_count,
    total_quantity = a.total_quantity + excluded.total_quantity;
END
$$;--> statement-breakpoint
-- Redefined whole: one call per statement over its transition tables (a retention batch of a
-- thousand carts is one grouped write per table, not a thousand).
CREATE OR REPLACE FUNCTION carts_keep_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  deltas cart_rollup_delta[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(row(n.store_id, n.created, n.checked_out, n.checkout_availability_error,
        n.id, 1, n.items_count, n.total_quantity)::cart_rollup_delta)
      INTO deltas FROM new_carts n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(row(o.store_id, o.created, o.checked_out, o.checkout_availability_error,
        o.id, -1, -o.items_count, -o.total_quantity)::cart_rollup_delta)
      INTO deltas FROM old_carts o;
  ELSE
    SELECT array_agg(v.d) INTO deltas
    FROM old_carts o JOIN new_carts n ON n.id = o.id
    CROSS JOIN LATERAL (VALUES
      (row(o.store_id, o.created, o.checked_out, o.checkout_availability_error, o.id, -1,
        -o.items_count, -o.total_quantity)::cart_rollup_delta),
      (row(n.store_id, n.created, n.checked_out, n.checkout_availability_error, n.id, 1,
        n.items_count, n.total_quantity)::cart_rollup_delta)) v(d)
    WHERE (o.items_count, o.total_quantity, o.checked_out, o.checkout_availability_error,
        o.store_id, o.created) IS DISTINCT FROM (n.items_count, n.total_quantity, n.checked_out,
        n.checkout_availability_error, n.store_id, n.created);
  END IF;
  PERFORM cart_rollups_apply(deltas);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER carts_rollups_insert_delete ON carts;--> statement-breakpoint
DROP TRIGGER carts_rollups_update ON carts;--> statement-breakpoint
DROP FUNCTION cart_rollups_add(integer, timestamptz, boolean, boolean, integer, bigint, bigint);--> statement-breakpoint
CREATE TRIGGER carts_rollups_insert AFTER INSERT ON carts REFERENCING NEW TABLE AS new_carts
  FOR EACH STATEMENT EXECUTE FUNCTION carts_keep_rollups();--> statement-breakpoint
CREATE TRIGGER carts_rollups_delete AFTER DELETE ON carts REFERENCING OLD TABLE AS old_carts
  FOR EACH STATEMENT EXECUTE FUNCTION carts_keep_rollups();--> statement-breakpoint
CREATE TRIGGER carts_rollups_update AFTER UPDATE ON carts
  REFERENCING OLD TABLE AS old_carts NEW TABLE AS new_carts
  FOR EACH STATEMENT EXECUTE FUNCTION carts_keep_rollups();--> statement-breakpoint
CREATE OR REPLACE FUNCTION carts_truncate_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE cart_rollups, cart_counts, cart_grains, cart_grains_all;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Gathers the shards of closed days and months into shard 0, so that a series over them
-- reads one row per period and flags. Its own short transaction (the service calls it once
-- a day, src/carts/grain-fold.ts): the figures are the same before and after, so it may run
-- at any time, any number of times at once; rows a writer holds are skipped (left for the
-- next fold), never waited for.
CREATE FUNCTION cart_grains_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
BEGIN
  WITH moved AS (
    DELETE FROM cart_grains_all a WHERE a.ctid IN (
      SELECT s.ctid FROM cart_grains_all s
      WHERE s.shard <> 0 AND ((s.grain = 'D' AND s.period < (now() AT TIME ZONE 'UTC')::date)
        OR (s.grain = 'M' AND s.period < date_trunc('month', now() AT TIME ZONE 'UTC')::date))
      FOR UPDATE SKIP LOCKED)
    RETURNING a.*
  ), kept AS (
    INSERT INTO cart_grains_all AS a (grain, period, warehouse, checked_out,
      checkout_availability_error, shard, carts, items_count, total_quantity)
    SELECT m.grain, m.period, m.warehouse, m.checked_out, m.checkout_availability_error, 0,
      sum(m.carts), sum(m.items_count), sum(m.total_quantity)
    FROM moved m GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (grain, period, warehouse, checked_out, checkout_availability_error, shard)
    DO UPDATE
    SET carts = a.carts + excluded.carts, items_count = a.items_count + excluded.items_count,
      total_quantity = a.total_quantity + excluded.total_quantity
  )
  SELECT count(*) INTO folded FROM moved;
  RETURN folded;
END
$$;--> statement-breakpoint
INSERT INTO cart_grains (store_id, grain, period, checked_out, checkout_availability_error, carts,
  items_count, total_quantity)
SELECT store_id, x.grain, x.period, checked_out, checkout_availability_error, count(*),
  sum(items_count), sum(total_quantity)
FROM carts CROSS JOIN LATERAL (VALUES
  ('M', date_trunc('month', created AT TIME ZONE 'UTC')::date),
  ('T', '-infinity'::date)) x(grain, period)
GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
INSERT INTO cart_grains_all (grain, period, warehouse, checked_out, checkout_availability_error,
  shard, carts, items_count, total_quantity)
SELECT x.grain, x.period, store_id IS NULL, checked_out, checkout_availability_error,
  CASE WHEN x.period >= x.current THEN (id % 32)::smallint ELSE 0::smallint END, count(*),
  sum(items_count), sum(total_quantity)
FROM carts CROSS JOIN LATERAL (VALUES
  ('D', (created AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date),
  ('M', date_trunc('month', created AT TIME ZONE 'UTC')::date,
    date_trunc('month', now() AT TIME ZONE 'UTC')::date),
  ('T', '-infinity'::date, '-infinity'::date)) x(grain, period, current)
GROUP BY 1, 2, 3, 4, 5, 6;
