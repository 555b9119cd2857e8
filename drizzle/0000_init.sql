CREATE TABLE "carts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"store_id" integer,
	"customer_order_number" text DEFAULT '' NOT NULL,
	"order_mark" text DEFAULT '' NOT NULL,
	"reference" text,
	"created" timestamp(6) with time zone NOT NULL,
	"last_activity" timestamp(6) with time zone NOT NULL,
	"items_count" integer DEFAULT 0 NOT NULL,
	"total_quantity" integer DEFAULT 0 NOT NULL,
	"checkout_availability_error" boolean DEFAULT false NOT NULL,
	"checkout_availability_error_at" timestamp(6) with time zone,
	"checkout_started_at" timestamp(6) with time zone,
	"checkout_frozen" boolean DEFAULT false NOT NULL,
	"checked_out" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checkouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"cart_id" integer NOT NULL,
	"created" timestamp(6) with time zone NOT NULL,
	"order_id" text NOT NULL,
	"order_number" text NOT NULL,
	"timed_out" boolean DEFAULT false NOT NULL,
	CONSTRAINT "checkouts_cart_id_unique" UNIQUE("cart_id")
);
--> statement-breakpoint
CREATE TABLE "control_carts" (
	"control_id" integer NOT NULL,
	"cart_id" integer NOT NULL,
	CONSTRAINT "control_carts_control_id_cart_id_pk" PRIMARY KEY("control_id","cart_id")
);
--> statement-breakpoint
CREATE TABLE "controls" (
	"id" serial PRIMARY KEY NOT NULL,
	"created" timestamp(6) with time zone NOT NULL,
	"verified_at" timestamp(6) with time zone,
	"is_random" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"user_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"controller_id" integer
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" serial PRIMARY KEY NOT NULL,
	"cart_id" integer NOT NULL,
	"part_number" varchar(64) NOT NULL,
	"quantity" integer NOT NULL,
	"created" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "items_quantity_range" CHECK ("items"."quantity" between 1 and 1000000)
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"user_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"favorite" boolean DEFAULT false NOT NULL,
	CONSTRAINT "memberships_user_id_organization_id_pk" PRIMARY KEY("user_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "options" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"public_name" text DEFAULT '' NOT NULL,
	"type" integer DEFAULT 0 NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"file" text,
	"is_list" boolean DEFAULT false NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	CONSTRAINT "options_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"parent_code" text DEFAULT '' NOT NULL,
	"has_unlimited_credit" boolean DEFAULT false NOT NULL,
	"created" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "organizations_organization_id_unique" UNIQUE("organization_id")
);
--> statement-breakpoint
CREATE TABLE "random_control_draws" (
	"user_id" integer NOT NULL,
	"store_id" integer NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "random_control_draws_user_id_store_id_day_pk" PRIMARY KEY("user_id","store_id","day")
);
--> statement-breakpoint
CREATE TABLE "restore_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"variant" text NOT NULL,
	"code_hash" text NOT NULL,
	"created" timestamp(6) with time zone NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"used_at" timestamp(6) with time zone
);
--> statement-breakpoint
CREATE TABLE "shopping_list_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"shopping_list_id" integer NOT NULL,
	"name" text NOT NULL,
	"quantity" integer NOT NULL,
	"scanned" boolean DEFAULT false NOT NULL,
	"created" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shopping_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"cart_id" integer,
	"created" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_hours" (
	"store_id" integer NOT NULL,
	"weekday" smallint NOT NULL,
	"opening_time" time,
	"closing_time" time,
	CONSTRAINT "store_hours_store_id_weekday_pk" PRIMARY KEY("store_id","weekday")
);
--> statement-breakpoint
CREATE TABLE "stores" (
	"id" serial PRIMARY KEY NOT NULL,
	"gln" text NOT NULL,
	"name" text NOT NULL,
	"active_period_seconds" integer DEFAULT 7200 NOT NULL,
	"carts_for_random_control" integer DEFAULT 0 NOT NULL,
	"created" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "stores_gln_unique" UNIQUE("gln")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"telephone" text DEFAULT '' NOT NULL,
	"reference" text,
	"is_staff" boolean DEFAULT false NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"created" timestamp(6) with time zone NOT NULL,
	"last_login" timestamp(6) with time zone,
	CONSTRAINT "users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "ws_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "control_carts" ADD CONSTRAINT "control_carts_control_id_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "control_carts" ADD CONSTRAINT "control_carts_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "controls" ADD CONSTRAINT "controls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "controls" ADD CONSTRAINT "controls_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "controls" ADD CONSTRAINT "controls_controller_id_users_id_fk" FOREIGN KEY ("controller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "random_control_draws" ADD CONSTRAINT "random_control_draws_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "random_control_draws" ADD CONSTRAINT "random_control_draws_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopping_list_items" ADD CONSTRAINT "shopping_list_items_shopping_list_id_shopping_lists_id_fk" FOREIGN KEY ("shopping_list_id") REFERENCES "public"."shopping_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopping_lists" ADD CONSTRAINT "shopping_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopping_lists" ADD CONSTRAINT "shopping_lists_cart_id_carts_id_fk" FOREIGN KEY ("cart_id") REFERENCES "public"."carts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_hours" ADD CONSTRAINT "store_hours_store_id_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ws_codes" ADD CONSTRAINT "ws_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carts_user_created_idx" ON "carts" USING btree ("user_id","created");--> statement-breakpoint
CREATE INDEX "carts_created_idx" ON "carts" USING btree ("created");--> statement-breakpoint
CREATE INDEX "carts_store_idx" ON "carts" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "carts_organization_idx" ON "carts" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "carts_last_activity_idx" ON "carts" USING btree ("last_activity");--> statement-breakpoint
CREATE INDEX "carts_customer_order_number_idx" ON "carts" USING btree ("customer_order_number");--> statement-breakpoint
CREATE INDEX "carts_items_count_idx" ON "carts" USING btree ("items_count");--> statement-breakpoint
CREATE INDEX "carts_total_quantity_idx" ON "carts" USING btree ("total_quantity");--> statement-breakpoint
CREATE INDEX "control_carts_cart_idx" ON "control_carts" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "controls_user_idx" ON "controls" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "controls_store_idx" ON "controls" USING btree ("store_id");--> statement-breakpoint
CREATE INDEX "controls_status_idx" ON "controls" USING btree ("status");--> statement-breakpoint
CREATE INDEX "controls_created_idx" ON "controls" USING btree ("created");--> statement-breakpoint
CREATE UNIQUE INDEX "items_cart_part_number_idx" ON "items" USING btree ("cart_id","part_number");--> statement-breakpoint
CREATE INDEX "memberships_organization_idx" ON "memberships" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "restore_codes_hash_idx" ON "restore_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "restore_codes_username_idx" ON "restore_codes" USING btree ("username");--> statement-breakpoint
CREATE INDEX "shopping_list_items_list_created_idx" ON "shopping_list_items" USING btree ("shopping_list_id","created");--> statement-breakpoint
CREATE INDEX "shopping_lists_user_created_idx" ON "shopping_lists" USING btree ("user_id","created");--> statement-breakpoint
CREATE INDEX "ws_codes_expires_idx" ON "ws_codes" USING btree ("expires_at");