-- Control figures from rollups (issue 32). Hand-written, like 0019.
--
-- control_outcomes: one row per control ever created, kept when the control is rejected
-- (the control row is deleted then), when retention removes it and when its user is erased:
-- the store, the creation instant, random or chosen, and the outcome (pending, verified,
-- rejected). No person: no user, no controller, no carts. It answers the partial first and
-- last days of a period exactly, as `carts` does for the cart rollups.
--
-- control_days: per store, UTC day of creation and kind, the numbers of controls created,
-- verified and rejected (pending = created - verified - rejected); whole days of a period.
--
-- Both are kept by triggers in the transaction of the change: inserting a control adds its
-- outcome row, moving it to verified updates it (controls_outcome); the rejection updates the
-- outcome row itself (src/controls/logic.ts), since a delete may also be retention's; every
-- change of an outcome row adds to its day (control_outcomes_day). A verify and a reject of
-- one control both lock the control row first, so the second sees the first's outcome.
CREATE TABLE "control_outcomes" (
	"control_id" integer PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL REFERENCES "stores"("id") ON DELETE CASCADE,
	"created" timestamp with time zone NOT NULL,
	"is_random" boolean NOT NULL,
	"outcome" text NOT NULL,
	CONSTRAINT "control_outcomes_outcome" CHECK ("outcome" IN ('pending', 'verified', 'rejected'))
);
--> statement-breakpoint
CREATE INDEX "control_outcomes_created_idx" ON "control_outcomes" USING btree ("created");--> statement-breakpoint
CREATE INDEX "control_outcomes_store_idx" ON "control_outcomes" USING btree ("store_id", "created");--> statement-breakpoint
CREATE TABLE "control_days" (
	"store_id" integer NOT NULL REFERENCES "stores"("id") ON DELETE CASCADE,
	"day" date NOT NULL,
	"is_random" boolean NOT NULL,
	"created" integer NOT NULL,
	"verified" integer NOT NULL,
	"rejected" integer NOT NULL,
	CONSTRAINT "control_days_pkey" PRIMARY KEY ("store_id", "day", "is_random")
);
--> statement-breakpoint
CREATE INDEX "control_days_day_idx" ON "control_days" USING btree ("day");--> statement-breakpoint
-- The backfill: the controls there are, and the rejected ones from the audit trail (their
-- `before` holds `created` and `is_random`; the event's store is the control's). Controls
-- rejected before the trail existed (migration 0005) left no trace and are not counted.
INSERT INTO "control_outcomes" ("control_id", "store_id", "created", "is_random", "outcome")
SELECT "id", "store_id", "created", "is_random", "status" FROM "controls"
UNION ALL
SELECT e."object_id", e."store_id",
  coalesce((e."before" ->> 'created')::timestamptz, made."created"),
  coalesce((e."before" ->> 'is_random')::boolean, (made."after" ->> 'is_random')::boolean,
    made."via" = 'random-draw'),
  'rejected'
FROM "audit_events" e
LEFT JOIN LATERAL (SELECT c."created", c."after", c."via" FROM "audit_events" c
  WHERE c."kind" = 'control.created' AND c."object_id" = e."object_id"
  ORDER BY c."id" LIMIT 1) made ON true
WHERE e."kind" = 'control.rejected' AND e."object_id" IS NOT NULL AND e."store_id" IS NOT NULL
  AND coalesce(e."before" ->> 'created', made."created"::text) IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "controls" k WHERE k."id" = e."object_id")
ON CONFLICT ("control_id") DO NOTHING;
--> statement-breakpoint
INSERT INTO "control_days" ("store_id", "day", "is_random", "created", "verified", "rejected")
SELECT "store_id", ("created" AT TIME ZONE 'UTC')::date, "is_random", count(*)::int,
  (count(*) FILTER (WHERE "outcome" = 'verified'))::int,
  (count(*) FILTER (WHERE "outcome" = 'rejected'))::int
FROM "control_outcomes" GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE FUNCTION control_outcomes_day() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO control_days AS d (store_id, day, is_random, created, verified, rejected)
    VALUES (NEW.store_id, (NEW.created AT TIME ZONE 'UTC')::date, NEW.is_random, 1,
      (NEW.outcome = 'verified')::int, (NEW.outcome = 'rejected')::int)
    ON CONFLICT (store_id, day, is_random) DO UPDATE
    SET created = d.created + 1, verified = d.verified + excluded.verified,
      rejected = d.rejected + excluded.rejected;
  ELSIF NEW.outcome IS DISTINCT FROM OLD.outcome THEN
    -- Store, instant and kind of a control never change; only its outcome does.
    UPDATE control_days
    SET verified = verified + (NEW.outcome = 'verified')::int - (OLD.outcome = 'verified')::int,
      rejected = rejected + (NEW.outcome = 'rejected')::int - (OLD.outcome = 'rejected')::int
    WHERE store_id = OLD.store_id AND day = (OLD.created AT TIME ZONE 'UTC')::date
      AND is_random = OLD.is_random;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER control_outcomes_day AFTER INSERT OR UPDATE OF outcome ON control_outcomes
  FOR EACH ROW EXECUTE FUNCTION control_outcomes_day();
--> statement-breakpoint
CREATE FUNCTION controls_outcome() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO control_outcomes (control_id, store_id, created, is_random, outcome)
    VALUES (NEW.id, NEW.store_id, NEW.created, NEW.is_random, NEW.status);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    UPDATE control_outcomes SET outcome = NEW.status WHERE control_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER controls_outcome AFTER INSERT OR UPDATE OF status ON controls
  FOR EACH ROW EXECUTE FUNCTION controls_outcome();
