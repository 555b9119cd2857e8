ALTER TABLE "carts" ADD COLUMN "checkout_claim" uuid;--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "checkout_unsettled" uuid[] DEFAULT '{}'::uuid[] NOT NULL;