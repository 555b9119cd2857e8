CREATE TABLE "login_failures" (
	"account" text NOT NULL,
	"scope" text NOT NULL,
	"window_start" timestamp(6) with time zone NOT NULL,
	"failures" integer NOT NULL,
	CONSTRAINT "login_failures_account_scope_pk" PRIMARY KEY("account","scope")
);
--> statement-breakpoint
ALTER TABLE "ws_codes" ADD COLUMN "session_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "login_failures_window_idx" ON "login_failures" USING btree ("window_start");