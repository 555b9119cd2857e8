-- Issue 19: a store's page of carts (ordered by created, then id) read from one index, in
-- order; with (store_id, created) the planner preferred scanning all carts by date and
-- filtering by store. The new index is built before the old one goes, so that a store's
-- reads always have one.
CREATE INDEX "carts_store_created_id_idx" ON "carts" USING btree ("store_id","created","id");--> statement-breakpoint
DROP INDEX "carts_store_created_idx";
