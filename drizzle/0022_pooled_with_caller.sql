-- Behind a transaction pooler every call is parsed and planned anew, and each costs its
-- round trip: the hot reads of a route that looks its caller up with its read
-- (`callerInRead`, src/http/auth.ts readWithCaller; decision 0016) bring the caller's row
-- (as auth_user answers it) in the same call. Written by scripts/pooled-stats-sql.ts
-- --with-caller; test/db/pooled-functions.test.ts checks each against its two calls.
-- A read's figures come only for staff (as the database says): a customer's are of their own
-- carts, another statement. No row when the user is gone; the read's columns null when the
-- cart is not there or not theirs.
CREATE FUNCTION cart_doc_as(p_user integer, p_cart integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, doc text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, (SELECT d FROM cart_doc(p_cart, p_user, u."isStaff" OR u."isAdmin") d)
  FROM auth_user(p_user) u;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_all_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_all() WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_d_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_d_carts() WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_d_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_d_items() WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_w_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_w_carts() WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_w_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_w_items() WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_m_carts_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_m_carts() WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_all_m_items_as(p_user integer)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_all_m_items() WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_store_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_store(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_d_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_d_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_w_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_w_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_m_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_store_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_store_m_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_between_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_between(p1, p2) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_d_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_d_carts(p1, p2) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_d_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_d_items(p1, p2) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_w_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_w_carts(p1, p2) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_w_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_w_items(p1, p2) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_m_carts_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_m_carts(p1, p2) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_between_m_items_as(p_user integer, p1 text, p2 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_between_m_items(p1, p2) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_after_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_after(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_d_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_d_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_w_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_w_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_m_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_after_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_after_m_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION stats_before_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, total_quantity float8, total_items float8)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM stats_before(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_d_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_d_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_d_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_d_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_w_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_w_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_w_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_w_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_m_carts_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_m_carts(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
--> statement-breakpoint
CREATE FUNCTION series_before_m_items_as(p_user integer, p1 text)
RETURNS TABLE (id integer, username text, email text, "firstName" text, "lastName" text,
  telephone text, reference text, "isStaff" boolean, "isAdmin" boolean,
  "sessionGeneration" integer, series text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY SELECT u.*, r.* FROM auth_user(p_user) u
    LEFT JOIN LATERAL (SELECT * FROM series_before_m_items(p1) WHERE u."isStaff" OR u."isAdmin") r ON true;
END $$;
