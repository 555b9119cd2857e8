-- A customer's stats and series (of their own carts) behind a transaction pooler, as staff's
-- (migrations 0021, 0022; issue 33): each shape of staff's as a function of the customer's own
-- (POOLED_OWN_STATS in src/carts/stats.ts, written by scripts/pooled-stats-sql.ts --own), the
-- owner's id first; and each `<fn>_as` of 0022 replaced so that one call brings the caller
-- and the figures the caller may see: staff's for staff, the caller's own for a customer,
-- where before a customer's call brought only the caller and the read was a second call,
-- parsed and planned on every run. Each `<fn>_as` is one statement, its plan kept: the
-- caller's row as auth_user (0019) reads it, and the two texts (the service's own), each behind
-- a filter on the caller's flags, so that only one of them runs. Same arguments and columns: a
-- running instance of the previous release keeps working (it reads the figures only for staff).
-- test/db/pooled-functions.test.ts checks each against auth_user and its statements.
CREATE FUNCTION stats_own_all(p1 integer)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_all_d_carts(p1 integer)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_all_d_items(p1 integer)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_all_w_carts(p1 integer)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_all_w_items(p1 integer)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_all_m_carts(p1 integer)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_all_m_items(p1 integer)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_own_store(p1 integer, p2 text)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2);
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_store_d_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_store_d_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_store_w_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_store_w_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_store_m_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_store_m_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_own_between(p1 integer, p2 text, p3 text)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_between_d_carts(p1 integer, p2 text, p3 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_between_d_items(p1 integer, p2 text, p3 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_between_w_carts(p1 integer, p2 text, p3 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_between_w_items(p1 integer, p2 text, p3 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_between_m_carts(p1 integer, p2 text, p3 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_between_m_items(p1 integer, p2 text, p3 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_own_after(p1 integer, p2 text)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_after_d_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_after_d_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_after_w_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_after_w_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_after_m_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_after_m_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_own_before(p1 integer, p2 text)
RETURNS TABLE (total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_before_d_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_before_d_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_before_w_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_before_w_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_before_m_carts(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_own_before_m_items(p1 integer, p2 text)
RETURNS TABLE (series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_all_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'T') t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_d_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_d_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_w_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r ) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_w_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r ) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_m_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M') u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_m_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M') u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_store_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_grains r where r.grain = 'T' and r.store_id = (select id from stores where gln = $2)) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.day as bucket, r.carts as carts
         from cart_counts r where r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.day as bucket, r.carts as carts
        , r.items_count as lines from cart_rollups r where r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts as carts
         from cart_counts r where r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts as carts
        , r.items_count as lines from cart_rollups r where r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.period as bucket, r.carts::int as carts
         from cart_grains r where r.grain = 'M' and r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains r where r.grain = 'M' and r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_between_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select c.items_count as lines, c.total_quantity as quantity from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select c.items_count as lines, c.total_quantity as quantity from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($3::timestamptz at time zone 'UTC')::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= greatest((date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($3::timestamptz at time zone 'UTC')::date) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_d_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_d_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_w_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_w_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_m_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($3::timestamptz at time zone 'UTC')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= greatest((date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($3::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_m_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($3::timestamptz at time zone 'UTC')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= greatest((date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($3::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_after_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select c.items_count as lines, c.total_quantity as quantity from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_before_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select c.items_count as lines, c.total_quantity as quantity from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($2::timestamptz at time zone 'UTC')::date) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day < ($2::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day < ($2::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day < ($2::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day < ($2::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT who.id, who.username, who.email, who.first_name, who.last_name,
    who.telephone, who.reference, who.is_staff, who.is_admin, who.session_generation, r.*
  FROM users who LEFT JOIN LATERAL (
    SELECT * FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) staff_read WHERE (who.is_staff OR who.is_admin)
    UNION ALL
    SELECT * FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) own_read WHERE NOT (who.is_staff OR who.is_admin)) r ON true
  WHERE who.id = $1;
END $$;
