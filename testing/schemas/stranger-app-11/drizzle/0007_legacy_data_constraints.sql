-- Custom migration: checks the legacy data did not always meet. Added NOT VALID so the import
-- keeps its old rows; every new or updated row is checked. (Validate once the backfill is done.)
ALTER TABLE "vs_tickets" ADD CONSTRAINT "vs_tickets_target_dept_departments_code_fk" FOREIGN KEY ("target_dept") REFERENCES "public"."departments"("code") ON DELETE restrict ON UPDATE cascade NOT VALID;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_department_departments_code_fk" FOREIGN KEY ("department") REFERENCES "public"."departments"("code") ON DELETE set null ON UPDATE cascade NOT VALID;--> statement-breakpoint
ALTER TABLE "vs_tickets" ADD CONSTRAINT "vs_tickets_remarks_is_array" CHECK (jsonb_typeof("remarks") = 'array') NOT VALID;--> statement-breakpoint
ALTER TABLE "vs_tickets" ADD CONSTRAINT "vs_tickets_public_needs_headline" CHECK (NOT "is_public" OR nullif(btrim("public_title"), '') IS NOT NULL) NOT VALID;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_total_is_sum" CHECK ("total" = "subtotal" + "fee") NOT VALID;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_amounts_non_negative" CHECK ("subtotal" >= 0 AND "fee" >= 0) NOT VALID;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_kkumail_domain" CHECK (lower("kkumail") LIKE '%@kkumail.com') NOT VALID;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_email_lower" CHECK ("email" = lower("email")) NOT VALID;--> statement-breakpoint
INSERT INTO "departments" ("code", "name") VALUES ('SE', 'Student Executive'), ('ENG', 'Engineering'), ('SCI', 'Science'), ('MED', 'Medicine'), ('ARC', 'Architecture') ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "project_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
