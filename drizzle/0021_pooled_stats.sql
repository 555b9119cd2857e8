-- The hot stats and series staff read (src/carts/stats.ts, POOLED_STATS) as PL/pgSQL
-- functions behind a transaction pooler (issue 33, decision 0016, as migration 0019 did for
-- the cart, the item add and the first pages): their plans are kept per server connection,
-- which the pooler keeps open, where a statement sent as text is planned on every run. The
-- bodies are the service's texts, written by scripts/pooled-stats-sql.ts;
-- test/db/pooled-functions.test.ts checks that each body is its statement's current text and
-- answers what the statement answers. Parameters come as text: each text casts its own.
-- `#variable_conflict use_column`: a column of the body named like an output column is the
-- column.
CREATE FUNCTION stats_all()
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'T') t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_d_carts()
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_d_items()
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_w_carts()
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r ) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_w_items()
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r ) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_m_carts()
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M') u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_m_items()
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M') u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_store(p1 text)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_grains r where r.grain = 'T' and r.store_id = (select id from stores where gln = $1)) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_d_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.day as bucket, r.carts as carts
         from cart_counts r where r.store_id = (select id from stores where gln = $1)) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_d_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.day as bucket, r.carts as carts
        , r.items_count as lines from cart_rollups r where r.store_id = (select id from stores where gln = $1)) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_w_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts as carts
         from cart_counts r where r.store_id = (select id from stores where gln = $1)) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_w_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts as carts
        , r.items_count as lines from cart_rollups r where r.store_id = (select id from stores where gln = $1)) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_m_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.period as bucket, r.carts::int as carts
         from cart_grains r where r.grain = 'M' and r.store_id = (select id from stores where gln = $1)) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_m_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains r where r.grain = 'M' and r.store_id = (select id from stores where gln = $1)) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_between(p1 text, p2 text)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select c.items_count as lines, c.total_quantity as quantity from carts c where c.created > $1::timestamptz and c.created < least((date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $2::timestamptz) union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= greatest((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($2::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) union all select c.items_count as lines, c.total_quantity as quantity from carts c where c.created >= (greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($2::timestamptz at time zone 'UTC')::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= greatest((date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($2::timestamptz at time zone 'UTC')::date) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_d_carts(p1 text, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < ($2::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created > $1::timestamptz and c.created < least((date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $2::timestamptz) union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= greatest((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($2::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created >= (greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < ($2::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_d_items(p1 text, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < ($2::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created > $1::timestamptz and c.created < least((date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $2::timestamptz) union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= greatest((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($2::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created >= (greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < ($2::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_w_carts(p1 text, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $1::timestamptz and c.created < least((date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $2::timestamptz) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= greatest((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($2::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $2::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_w_items(p1 text, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $1::timestamptz and c.created < least((date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $2::timestamptz) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= greatest((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($2::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $2::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_m_carts(p1 text, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $1::timestamptz and c.created < least((date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $2::timestamptz) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= greatest((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($2::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($2::timestamptz at time zone 'UTC')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= greatest((date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_m_items(p1 text, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $1::timestamptz and c.created < least((date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $2::timestamptz) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= greatest((($1::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($2::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (greatest(date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($2::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($2::timestamptz at time zone 'UTC')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= greatest((date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_after(p1 text)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select c.items_count as lines, c.total_quantity as quantity from carts c where c.created > $1::timestamptz and c.created < (date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($1::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_d_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created > $1::timestamptz and c.created < (date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($1::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_d_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created > $1::timestamptz and c.created < (date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($1::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_w_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $1::timestamptz and c.created < (date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($1::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_w_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $1::timestamptz and c.created < (date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($1::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_m_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $1::timestamptz and c.created < (date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($1::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_m_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $1::timestamptz and c.created < (date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($1::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($1::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($1::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_before(p1 text)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= ($1::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($1::timestamptz at time zone 'UTC')) union all select c.items_count as lines, c.total_quantity as quantity from carts c where c.created >= (date_trunc('hour', ($1::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $1::timestamptz union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp)::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($1::timestamptz at time zone 'UTC')::date) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_d_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day < ($1::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= ($1::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($1::timestamptz at time zone 'UTC')) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created >= (date_trunc('hour', ($1::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $1::timestamptz union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day < ($1::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_d_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day < ($1::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= ($1::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($1::timestamptz at time zone 'UTC')) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created >= (date_trunc('hour', ($1::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $1::timestamptz union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day < ($1::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_w_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= ($1::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($1::timestamptz at time zone 'UTC')) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (date_trunc('hour', ($1::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $1::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day < ($1::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_w_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= ($1::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($1::timestamptz at time zone 'UTC')) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (date_trunc('hour', ($1::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $1::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day < ($1::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_m_carts(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= ($1::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($1::timestamptz at time zone 'UTC')) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (date_trunc('hour', ($1::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $1::timestamptz union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($1::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_m_items(p1 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= ($1::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($1::timestamptz at time zone 'UTC')) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (date_trunc('hour', ($1::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $1::timestamptz union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= date_trunc('month', ($1::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($1::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t;
END $$;
