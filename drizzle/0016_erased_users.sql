-- Issue 29: an erased user's row is marked, so that no login matches it whatever username
-- the ERP answers (the login upsert updates only rows without the mark). Rows erased before
-- this release hold the tombstone name `erased:<own id>`; they get the mark, and any session
-- a login may have opened on one of them ends.
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp(6) with time zone;--> statement-breakpoint
UPDATE "users" SET "erased_at" = now(), "session_generation" = "session_generation" + 1
  WHERE "username" = 'erased:' || "id"::text;
