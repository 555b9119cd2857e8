CREATE TABLE "cart_hours" (
	"hour" timestamp NOT NULL,
	"shard" smallint NOT NULL,
	"carts" bigint NOT NULL,
	"items_count" bigint NOT NULL,
	"total_quantity" bigint NOT NULL,
	CONSTRAINT "cart_hours_key" UNIQUE("hour","shard")
);
--> statement-breakpoint
CREATE INDEX "cart_hours_unfolded_idx" ON "cart_hours" USING btree ("hour") WHERE "cart_hours"."shard" <> 0;--> statement-breakpoint
-- Hand-written from here (issue 19): fillfactor, the trigger's function redefined whole with
-- cart_hours as its last table (writers still take rows table by table in one global order),
-- truncation, the fold, the backfill.
ALTER TABLE "cart_hours" SET (fillfactor = 50);--> statement-breakpoint
CREATE OR REPLACE FUNCTION cart_rollups_apply(deltas cart_rollup_delta[]) RETURNS void
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

  -- Every cart of a day, whatever its store and flags (the daily series over all carts):
  -- sharded as above while the day is current.
  INSERT INTO cart_days AS y (day, shard, carts, items_count, total_quantity)
  SELECT (d.created AT TIME ZONE 'UTC')::date,
    CASE WHEN (d.created AT TIME ZONE 'UTC')::date >= (now() AT TIME ZONE 'UTC')::date
      THEN (d.id % 32)::smallint ELSE 0::smallint END,
    sum(d.carts), sum(d.items), sum(d.quantity)
  FROM unnest(deltas) d GROUP BY 1, 2
  HAVING sum(d.carts) <> 0 OR sum(d.items) <> 0 OR sum(d.quantity) <> 0
  ORDER BY 1, 2
  ON CONFLICT (day, shard) DO UPDATE
  SET carts = y.carts + excluded.carts, items_count = y.items_count + excluded.items_count,
    total_quantity = y.total_quantity + excluded.total_quantity;
  -- Every cart of an hour, whatever its store and flags (the edges of a range between two
  -- instants): sharded as above while its day is current.
  INSERT INTO cart_hours AS h (hour, shard, carts, items_count, total_quantity)
  SELECT date_trunc('hour', d.created AT TIME ZONE 'UTC'),
    CASE WHEN (d.created AT TIME ZONE 'UTC')::date >= (now() AT TIME ZONE 'UTC')::date
      THEN (d.id % 32)::smallint ELSE 0::smallint END,
    sum(d.carts), sum(d.items), sum(d.quantity)
  FROM unnest(deltas) d GROUP BY 1, 2
  HAVING sum(d.carts) <> 0 OR sum(d.items) <> 0 OR sum(d.quantity) <> 0
  ORDER BY 1, 2
  ON CONFLICT (hour, shard) DO UPDATE
  SET carts = h.carts + excluded.carts, items_count = h.items_count + excluded.items_count,
    total_quantity = h.total_quantity + excluded.total_quantity;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION carts_truncate_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE cart_rollups, cart_counts, cart_grains, cart_grains_all, cart_days, cart_hours;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The fold of decision 0010, now also of cart_hours: closed days' shards gathered into shard 0.
CREATE OR REPLACE FUNCTION cart_grains_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  folded integer;
  folded_days integer;
  folded_hours integer;
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
  WITH moved AS (
    DELETE FROM cart_days y WHERE y.ctid IN (
      SELECT s.ctid FROM cart_days s
      WHERE s.shard <> 0 AND s.day < (now() AT TIME ZONE 'UTC')::date
      FOR UPDATE SKIP LOCKED)
    RETURNING y.*
  ), kept AS (
    INSERT INTO cart_days AS y (day, shard, carts, items_count, total_quantity)
    SELECT m.day, 0, sum(m.carts), sum(m.items_count), sum(m.total_quantity)
    FROM moved m GROUP BY 1 ORDER BY 1
    ON CONFLICT (day, shard) DO UPDATE
    SET carts = y.carts + excluded.carts, items_count = y.items_count + excluded.items_count,
      total_quantity = y.total_quantity + excluded.total_quantity
  )
  SELECT count(*) INTO folded_days FROM moved;
  WITH moved AS (
    DELETE FROM cart_hours h WHERE h.ctid IN (
      SELECT s.ctid FROM cart_hours s
      WHERE s.shard <> 0 AND s.hour < date_trunc('day', now() AT TIME ZONE 'UTC')
      FOR UPDATE SKIP LOCKED)
    RETURNING h.*
  ), kept AS (
    INSERT INTO cart_hours AS h (hour, shard, carts, items_count, total_quantity)
    SELECT m.hour, 0, sum(m.carts), sum(m.items_count), sum(m.total_quantity)
    FROM moved m GROUP BY 1 ORDER BY 1
    ON CONFLICT (hour, shard) DO UPDATE
    SET carts = h.carts + excluded.carts, items_count = h.items_count + excluded.items_count,
      total_quantity = h.total_quantity + excluded.total_quantity
  )
  SELECT count(*) INTO folded_hours FROM moved;
  RETURN folded + folded_days + folded_hours;
END
$$;--> statement-breakpoint
INSERT INTO cart_hours (hour, shard, carts, items_count, total_quantity)
SELECT date_trunc('hour', created AT TIME ZONE 'UTC'),
  CASE WHEN (created AT TIME ZONE 'UTC')::date >= (now() AT TIME ZONE 'UTC')::date
    THEN (id % 32)::smallint ELSE 0::smallint END,
  count(*), sum(items_count), sum(total_quantity)
FROM carts GROUP BY 1, 2;
