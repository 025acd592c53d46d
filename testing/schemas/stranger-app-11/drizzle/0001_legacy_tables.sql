CREATE TYPE "public"."user_role" AS ENUM('user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin');--> statement-breakpoint
CREATE TYPE "public"."vs_status" AS ENUM('open', 'in_progress', 'resolved', 'closed');--> statement-breakpoint
CREATE TYPE "public"."pr_status" AS ENUM('new', 'in_review', 'answered', 'closed');--> statement-breakpoint
CREATE TYPE "public"."order_status" AS ENUM('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'cancelled', 'refunded');--> statement-breakpoint
CREATE TYPE "public"."node_kind" AS ENUM('org', 'division', 'team', 'seat');--> statement-breakpoint
CREATE TYPE "public"."change_request_status" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."sign_request_status" AS ENUM('requested', 'signed', 'declined');--> statement-breakpoint
CREATE TABLE "departments" (
	"code" varchar(16) PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"auth_user_id" uuid,
	"legacy_uid" integer,
	"email" varchar(320) NOT NULL,
	"display_name" varchar(120),
	"avatar_url" text,
	"phone" varchar(32),
	"role" "user_role" DEFAULT 'user' NOT NULL,
	"department" varchar(16),
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"managed_permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp(3) DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) DEFAULT now() NOT NULL,
	CONSTRAINT "users_auth_user_id_unique" UNIQUE("auth_user_id"),
	CONSTRAINT "users_email_unique" UNIQUE("email"),
	CONSTRAINT "users_legacy_uid_unique" UNIQUE("legacy_uid")
);
--> statement-breakpoint
CREATE TABLE "vs_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"is_confidential" boolean DEFAULT true NOT NULL,
	"public_eligible" boolean DEFAULT false NOT NULL,
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vs_tickets" (
	"id" text PRIMARY KEY DEFAULT nanoid(16) NOT NULL,
	"legacy_no" bigint,
	"submitter_id" bigint,
	"target_dept" varchar(16) NOT NULL,
	"status" "vs_status" DEFAULT 'open' NOT NULL,
	"category_id" integer,
	"title" varchar(200) NOT NULL,
	"body" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"public_title" varchar(140),
	"duplicate_of" text,
	"is_duplicate" boolean GENERATED ALWAYS AS ("vs_tickets"."duplicate_of" is not null) STORED,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"remarks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deleted_at" timestamp(3),
	"created_at" timestamp(3) DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vs_public_comments" (
	"id" text PRIMARY KEY DEFAULT nanoid() NOT NULL,
	"ticket_id" text NOT NULL,
	"author_id" bigint,
	"author_label" varchar(60) NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pr_tickets" (
	"id" text PRIMARY KEY DEFAULT ('PR-' || upper(nanoid(8, '0123456789abcdefghjkmnpqrstvwxyz'))) NOT NULL,
	"submitter_id" bigint,
	"submitter_label" varchar(120) NOT NULL,
	"contact_email" varchar(320),
	"status" "pr_status" DEFAULT 'new' NOT NULL,
	"brief" text NOT NULL,
	"file_url" text,
	"staff_note" text,
	"deleted_at" timestamp(3),
	"created_at" timestamp(3) DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text DEFAULT nanoid(10, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ') NOT NULL,
	"buyer_id" bigint NOT NULL,
	"status" "order_status" DEFAULT 'pending' NOT NULL,
	"subtotal" numeric(12, 2) DEFAULT '0' NOT NULL,
	"fee" numeric(12, 2) DEFAULT '0' NOT NULL,
	"total" numeric(12, 2) DEFAULT '0' NOT NULL,
	"payment_slips" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"shipping_name" varchar(120),
	"shipping_address" text,
	"shipping_phone" varchar(32),
	"buyer_note" text,
	"admin_note" text,
	"timeline" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp(3) DEFAULT now() NOT NULL,
	"updated_at" timestamp(3) DEFAULT now() NOT NULL,
	CONSTRAINT "shop_orders_order_no_unique" UNIQUE("order_no")
);
--> statement-breakpoint
CREATE TABLE "team_nodes" (
	"id" text PRIMARY KEY DEFAULT nanoid(12) NOT NULL,
	"parent_id" text,
	"name" varchar(120) NOT NULL,
	"kind" "node_kind" DEFAULT 'team' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"node_id" text NOT NULL,
	"kkumail" varchar(320) NOT NULL,
	"user_id" bigint,
	"name" varchar(120) NOT NULL,
	"nickname" varchar(60),
	"student_id" varchar(16),
	"year" smallint,
	"major" varchar(120),
	"position" integer DEFAULT 0 NOT NULL,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"vs_dept" varchar(16),
	"project_seat" varchar(60),
	"created_at" timestamp(3) DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_node_id_kkumail_unique" UNIQUE("node_id","kkumail")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY DEFAULT nanoid(12) NOT NULL,
	"title" varchar(200) NOT NULL,
	"owner_id" bigint,
	"summary" text,
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_documents" (
	"id" text PRIMARY KEY DEFAULT nanoid(12) NOT NULL,
	"project_id" text NOT NULL,
	"title" varchar(200) NOT NULL,
	"created_by" bigint,
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_files" (
	"id" text PRIMARY KEY DEFAULT nanoid(12) NOT NULL,
	"document_id" text NOT NULL,
	"storage_path" text NOT NULL,
	"is_signed" boolean DEFAULT false NOT NULL,
	"uploaded_by" bigint,
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_sign_requests" (
	"id" text PRIMARY KEY DEFAULT nanoid(12) NOT NULL,
	"document_id" text NOT NULL,
	"actor_id" bigint NOT NULL,
	"professor_id" bigint NOT NULL,
	"status" "sign_request_status" DEFAULT 'requested' NOT NULL,
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp(3) DEFAULT now() NOT NULL,
	CONSTRAINT "project_settings_singleton" CHECK ("project_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "student_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"student_id" varchar(16) NOT NULL,
	"full_name" varchar(200) NOT NULL,
	"faculty" varchar(120),
	"major" varchar(120),
	"year" smallint,
	"updated_at" timestamp(3) DEFAULT now() NOT NULL,
	CONSTRAINT "student_records_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "student_records_student_id_unique" UNIQUE("student_id")
);
--> statement-breakpoint
CREATE TABLE "student_change_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"student_record_id" bigint NOT NULL,
	"field" varchar(60) NOT NULL,
	"requested_value" text NOT NULL,
	"status" "change_request_status" DEFAULT 'pending' NOT NULL,
	"verdict" text,
	"admin_note" text,
	"applied_value" text,
	"decided_by" bigint,
	"created_at" timestamp(3) DEFAULT now() NOT NULL,
	"decided_at" timestamp(3)
);
--> statement-breakpoint
CREATE TABLE "identity_conflicts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"person_id" bigint NOT NULL,
	"kind" varchar(60) NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"resolved_at" timestamp(3),
	"created_at" timestamp(3) DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_auth_user_id_users_id_fk" FOREIGN KEY ("auth_user_id") REFERENCES "auth"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vs_tickets" ADD CONSTRAINT "vs_tickets_submitter_id_users_id_fk" FOREIGN KEY ("submitter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vs_tickets" ADD CONSTRAINT "vs_tickets_category_id_vs_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."vs_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vs_tickets" ADD CONSTRAINT "vs_tickets_duplicate_of_vs_tickets_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "public"."vs_tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vs_public_comments" ADD CONSTRAINT "vs_public_comments_ticket_id_vs_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."vs_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vs_public_comments" ADD CONSTRAINT "vs_public_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pr_tickets" ADD CONSTRAINT "pr_tickets_submitter_id_users_id_fk" FOREIGN KEY ("submitter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_nodes" ADD CONSTRAINT "team_nodes_parent_id_team_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."team_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_node_id_team_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."team_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_documents" ADD CONSTRAINT "project_documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_files" ADD CONSTRAINT "project_files_document_id_project_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."project_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_sign_requests" ADD CONSTRAINT "project_sign_requests_document_id_project_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."project_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_sign_requests" ADD CONSTRAINT "project_sign_requests_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_sign_requests" ADD CONSTRAINT "project_sign_requests_professor_id_users_id_fk" FOREIGN KEY ("professor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_records" ADD CONSTRAINT "student_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "student_change_requests" ADD CONSTRAINT "student_change_requests_student_record_id_student_records_id_fk" FOREIGN KEY ("student_record_id") REFERENCES "public"."student_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_conflicts" ADD CONSTRAINT "identity_conflicts_person_id_users_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vs_tickets_target_dept_idx" ON "vs_tickets" USING btree ("target_dept");--> statement-breakpoint
CREATE INDEX "vs_tickets_submitter_id_idx" ON "vs_tickets" USING btree ("submitter_id");--> statement-breakpoint
CREATE INDEX "shop_orders_buyer_id_idx" ON "shop_orders" USING btree ("buyer_id");--> statement-breakpoint
CREATE INDEX "team_members_kkumail_idx" ON "team_members" USING btree (lower("kkumail"));--> statement-breakpoint
CREATE UNIQUE INDEX "pr_tickets_upper_id_idx" ON "pr_tickets" USING btree (upper("id"));
