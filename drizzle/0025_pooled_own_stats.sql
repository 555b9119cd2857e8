-- A customer's stats and series (of their own carts) behind a transaction pooler, as staff's
-- (migrations 0021, 0022; issue 33): each shape of staff's as a function of the customer's own
-- (POOLED_OWN_STATS in src/carts/stats.ts, written by scripts/pooled-stats-sql.ts --own), the
-- owner's id first; and each `<fn>_as` of 0022 replaced so that one call brings the caller
-- and the figures the caller may see: staff's for staff, the caller's own for a customer,
-- where before a customer's call brought only the caller and the read was a second call,
-- parsed and planned on every run. Same arguments and columns: a running instance of the
-- previous release keeps working (it reads the figures only for staff).
-- test/db/pooled-functions.test.ts checks each against its statements.
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
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_all() WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM stats_own_all(p_user) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_d_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_d_carts() WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_all_d_carts(p_user) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_d_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_d_items() WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_all_d_items(p_user) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_w_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_w_carts() WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_all_w_carts(p_user) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_w_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_w_items() WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_all_w_items(p_user) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_m_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_m_carts() WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_all_m_carts(p_user) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_all_m_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_m_items() WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_all_m_items(p_user) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_store_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_store(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM stats_own_store(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_d_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_store_d_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_d_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_store_d_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_w_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_store_w_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_w_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_store_w_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_m_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_store_m_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_store_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_m_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_store_m_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_between_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_between(p1, p2) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM stats_own_between(p_user, p1, p2) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_d_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_d_carts(p1, p2) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_between_d_carts(p_user, p1, p2) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_d_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_d_items(p1, p2) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_between_d_items(p_user, p1, p2) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_w_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_w_carts(p1, p2) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_between_w_carts(p_user, p1, p2) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_w_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_w_items(p1, p2) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_between_w_items(p_user, p1, p2) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_m_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_m_carts(p1, p2) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_between_m_carts(p_user, p1, p2) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_between_m_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_m_items(p1, p2) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_between_m_items(p_user, p1, p2) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_after_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_after(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM stats_own_after(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_d_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_after_d_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_d_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_after_d_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_w_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_after_w_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_w_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_after_w_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_m_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_after_m_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_after_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_m_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_after_m_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_before_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_before(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM stats_own_before(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_d_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_before_d_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_d_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_before_d_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_w_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_before_w_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_w_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_before_w_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_m_carts(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_before_m_carts(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION series_before_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_m_items(p1) WHERE (u."isStaff" OR u."isAdmin")
      UNION ALL SELECT * FROM series_own_before_m_items(p_user, p1) WHERE NOT (u."isStaff" OR u."isAdmin")) r ON true;
END $$;
