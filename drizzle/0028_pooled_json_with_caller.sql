-- Behind a transaction pooler (issue 33, decision 0016): the hot stats and series with their
-- caller (0022, 0025) as functions that answer one text (src/http/auth.ts CALLER_JSON), NULL
-- when the user is gone: for the stats the JSON object of the caller's columns (as auth_user
-- answers them) and the figures; for a series the caller's JSON object, then, where the series
-- has buckets, a newline and the series' text (JSON escapes every newline: the first one ends
-- the object). The caller is read first, then only the text the caller may see: staff's for
-- staff, the caller's own for a customer. Called in the select list: no result type to plan,
-- no function scan, no tuple store. Each `<fn>_as` of 0025 stays for an instance of the
-- previous release. Written by scripts/pooled-stats-sql.ts --json;
-- test/db/pooled-functions.test.ts checks each body against the service's texts today and
-- each answer against auth_user and the statements.
CREATE FUNCTION stats_all_json(p_user integer)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
      FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'T') t) r) x);
  END IF;
  RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
    FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1) r) x);
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_d_carts_json(p_user integer)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_d_items_json(p_user integer)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_w_carts_json(p_user integer)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r ) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_w_items_json(p_user integer)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r ) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_m_carts_json(p_user integer)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M') u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_m_items_json(p_user integer)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M') u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_store_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
      FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_grains r where r.grain = 'T' and r.store_id = (select id from stores where gln = $2)) t) r) x);
  END IF;
  RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
    FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)) r) x);
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_d_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.day as bucket, r.carts as carts
         from cart_counts r where r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_d_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.day as bucket, r.carts as carts
        , r.items_count as lines from cart_rollups r where r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_w_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts as carts
         from cart_counts r where r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_w_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.day::timestamp)::date as bucket, r.carts as carts
        , r.items_count as lines from cart_rollups r where r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_m_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select r.period as bucket, r.carts::int as carts
         from cart_grains r where r.grain = 'M' and r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_m_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains r where r.grain = 'M' and r.store_id = (select id from stores where gln = $2)) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.store_id = (select id from stores where gln = $2)
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_between_json(p_user integer, p1 text, p2 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
      FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select c.items_count as lines, c.total_quantity as quantity from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select c.items_count as lines, c.total_quantity as quantity from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($3::timestamptz at time zone 'UTC')::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= greatest((date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($3::timestamptz at time zone 'UTC')::date) t) r) x);
  END IF;
  RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
    FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz) r) x);
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_d_carts_json(p_user integer, p1 text, p2 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_d_items_json(p_user integer, p1 text, p2 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_w_carts_json(p_user integer, p1 text, p2 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_w_items_json(p_user integer, p1 text, p2 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < ($3::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_m_carts_json(p_user integer, p1 text, p2 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($3::timestamptz at time zone 'UTC')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= greatest((date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($3::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_m_items_json(p_user integer, p1 text, p2 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $2::timestamptz and c.created < least((date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC', $3::timestamptz) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < least((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= greatest((($2::timestamptz at time zone 'UTC')::date + 1)::timestamp, ($3::timestamptz at time zone 'UTC')::date::timestamp) and r.hour < greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC'))) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (greatest(date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour', date_trunc('hour', ($3::timestamptz at time zone 'UTC')))) at time zone 'UTC' and c.created < $3::timestamptz union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.period < date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date and r.day < ($3::timestamptz at time zone 'UTC')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= greatest((date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date, date_trunc('month', ($3::timestamptz at time zone 'UTC')::date::timestamp)::date) and r.day < ($3::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz and c.created < $3::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_after_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
      FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select c.items_count as lines, c.total_quantity as quantity from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) t) r) x);
  END IF;
  RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
    FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz) r) x);
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_d_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_d_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_w_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_w_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_m_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_m_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created > $2::timestamptz and c.created < (date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour') at time zone 'UTC' union all select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= date_trunc('hour', ($2::timestamptz at time zone 'UTC')) + interval '1 hour' and r.hour < (($2::timestamptz at time zone 'UTC')::date + 1)::timestamp union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period >= (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= ($2::timestamptz at time zone 'UTC')::date + 1 and r.day < (date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp) + interval '1 month')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created > $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_before_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
      FROM (select coalesce(sum(quantity), 0)::float8 as total_quantity,
    coalesce(sum(lines), 0)::float8 as total_items from (select r.items_count::int as lines, r.total_quantity as quantity from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select c.items_count as lines, c.total_quantity as quantity from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.items_count::int as lines, r.total_quantity as quantity from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select r.items_count::int as lines, r.total_quantity as quantity from cart_days r where r.day >= date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($2::timestamptz at time zone 'UTC')::date) t) r) x);
  END IF;
  RETURN (SELECT row_to_json(x)::text FROM (SELECT who.id, who.username, who.email, who."firstName", who."lastName", who.telephone,
      who.reference, who."isStaff", who."isAdmin", who."sessionGeneration", r.*
    FROM (select coalesce(sum(c.total_quantity), 0)::float8 as total_quantity,
        coalesce(sum(c.items_count), 0)::float8 as total_items
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz) r) x);
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_d_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.carts::int, ',') from cart_days r
      where r.day < ($2::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.hour::date as bucket, r.carts::int as carts, r.carts::int as v
      from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, 1 as v
      from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.day as bucket, r.carts::int as carts, r.carts::int as v
      from cart_days r where r.day < ($2::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_d_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select concat_ws(',', (select string_agg((r.day - date '1970-01-01') || ':' || r.items_count::int, ',') from cart_days r
      where r.day < ($2::timestamptz at time zone 'UTC')::date and r.shard = 0 and r.carts > 0 and r.day + 0 < (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0)), (select string_agg((s.bucket - date '1970-01-01') || ':' || s.total, ',') from (select bucket, sum(v) as total
    from (select r.hour::date as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select (c.created at time zone 'UTC')::date as bucket, 1 as carts, c.items_count as v
      from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.day as bucket, r.carts::int as carts, r.items_count::int as v
      from cart_days r where r.day < ($2::timestamptz at time zone 'UTC')::date and r.day between (select coalesce(min(u.day), 'infinity') from cart_days u where u.shard <> 0) and (select max(u.day) from cart_days u)) e group by 1 having sum(carts) > 0) s)) as series) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('day', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('day', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_w_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_w_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('week', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select date_trunc('week', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select date_trunc('week', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('week', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('week', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_m_carts_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(carts) as total
    from (select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
         from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
         from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.period as bucket, r.carts::int as carts
         from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
         from cart_days r where r.day >= date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, count(*) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_m_items_json(p_user integer, p1 text)
RETURNS text
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  who record;
  v_series text;
BEGIN
  SELECT u.id, u.username, u.email, u.first_name AS "firstName", u.last_name AS "lastName",
    u.telephone, u.reference, u.is_staff AS "isStaff", u.is_admin AS "isAdmin",
    u.session_generation AS "sessionGeneration"
  INTO who FROM users u WHERE u.id = $1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF who."isStaff" OR who."isAdmin" THEN
    v_series := (SELECT r.series FROM (select string_agg((t.bucket - date '1970-01-01') || ':' || t.total, ',') as series from (select bucket, sum(lines) as total
    from (select date_trunc('month', r.hour::date::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_hours r where r.hour >= ($2::timestamptz at time zone 'UTC')::date::timestamp and r.hour < date_trunc('hour', ($2::timestamptz at time zone 'UTC')) union all select date_trunc('month', (c.created at time zone 'UTC')::date::timestamp)::date as bucket, 1 as carts
        , c.items_count as lines from carts c where c.created >= (date_trunc('hour', ($2::timestamptz at time zone 'UTC'))) at time zone 'UTC' and c.created < $2::timestamptz union all select r.period as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_grains_all r where r.grain = 'M' and r.period < date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date union all select date_trunc('month', r.day::timestamp)::date as bucket, r.carts::int as carts
        , r.items_count::int as lines from cart_days r where r.day >= date_trunc('month', ($2::timestamptz at time zone 'UTC')::date::timestamp)::date and r.day < ($2::timestamptz at time zone 'UTC')::date) u group by bucket having sum(carts) > 0) t) r);
  ELSE
    v_series := (SELECT r.series FROM (select string_agg(date_part('epoch', s.bucket)::bigint || ':' || s.total, ',')
      as series from (select date_trunc('month', c.created at time zone 'UTC') as bucket, sum(c.items_count) as total
        from carts c 
        where c.user_id = $1 and c.created < $2::timestamptz
        group by date_trunc('month', c.created at time zone 'UTC')) s) r);
  END IF;
  RETURN row_to_json(who)::text || CASE WHEN v_series IS NULL THEN '' ELSE E'\n' || v_series END;
END $$;
