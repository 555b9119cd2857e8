-- Hand-written (decision 0011): the trail is append-only against the service's own role, not
-- only against a transaction that forgets to declare itself retention. The table and its
-- functions belong to the NOLOGIN role ordering_audit; the service's role may read and append,
-- and remove old events only through audit_events_remove_before, which bounds its cutoff.
-- Run by a role that is not a superuser (it cannot give the table away), the functions are
-- installed but the table stays the service's own, with a warning; `npm run admin -- audit
-- guard` runs this file again as a superuser (every statement is idempotent).

-- A delete passes only inside audit_events_remove_before: as the table's owner, with the
-- setting the function turns on for its own delete. Updates and truncation: never.
CREATE OR REPLACE FUNCTION public.audit_events_append_only() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('ordering.audit_retention', true) = 'on'
      AND current_user = (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = TG_RELID) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
-- Retention's one door: at most max_rows events created before cutoff, oldest first; a cutoff
-- less than 30 days back (by the database's clock) is refused, whatever the caller asks.
CREATE OR REPLACE FUNCTION public.audit_events_remove_before(cutoff timestamptz, max_rows integer)
  RETURNS integer LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  removed integer;
BEGIN
  IF cutoff IS NULL OR cutoff > now() - interval '30 days' THEN
    RAISE EXCEPTION 'audit events are kept at least 30 days (cutoff %)', cutoff
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF max_rows IS NULL OR max_rows < 1 OR max_rows > 10000 THEN
    RAISE EXCEPTION 'max_rows must be 1 to 10000 (got %)', max_rows
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- On for this delete only (a SET clause on the function would need a superuser to create).
  PERFORM set_config('ordering.audit_retention', 'on', true);
  DELETE FROM public.audit_events WHERE id IN (
    SELECT id FROM public.audit_events WHERE created < cutoff ORDER BY created, id LIMIT max_rows);
  GET DIAGNOSTICS removed = ROW_COUNT;
  PERFORM set_config('ordering.audit_retention', 'off', true);
  RETURN removed;
END
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION public.audit_events_remove_before(timestamptz, integer) FROM PUBLIC;--> statement-breakpoint
DO $$
DECLARE
  -- The role the service runs as: the one that created the trail (or the one a restore
  -- without owners gave it to).
  service name := (SELECT pg_get_userbyid(relowner) FROM pg_class
    WHERE oid = 'public.audit_events'::regclass);
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    RAISE WARNING 'audit_events stays owned by %, which can therefore still change it: run `npm run admin -- audit guard` as a superuser (docs/operations.md, "The audit trail")', service;
    RETURN;
  END IF;
  -- Roles are shared by the databases of a cluster: another one may be creating it now.
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ordering_audit') THEN
    BEGIN
      CREATE ROLE ordering_audit NOLOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
      NULL;
    END;
  END IF;
  -- The table's sequence goes with it. The owner alone may alter, disable its triggers or grant.
  ALTER TABLE public.audit_events OWNER TO ordering_audit;
  ALTER FUNCTION public.audit_events_append_only() OWNER TO ordering_audit;
  ALTER FUNCTION public.audit_events_remove_before(timestamptz, integer) OWNER TO ordering_audit;
  -- After the transfer: a change of owner hands the old owner's own grants to the new one.
  IF service <> 'ordering_audit' THEN
    EXECUTE format('GRANT SELECT, INSERT ON public.audit_events TO %I', service);
    EXECUTE format('GRANT USAGE ON SEQUENCE public.audit_events_id_seq TO %I', service);
    EXECUTE format(
      'GRANT EXECUTE ON FUNCTION public.audit_events_remove_before(timestamptz, integer) TO %I',
      service);
  END IF;
END
$$;
