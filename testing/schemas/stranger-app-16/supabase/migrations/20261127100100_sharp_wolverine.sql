CREATE TYPE "public"."app_role" AS ENUM('user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin');--> statement-breakpoint
CREATE TYPE "public"."vs_status" AS ENUM('open', 'in_progress', 'resolved', 'closed', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."order_status" AS ENUM('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."node_kind" AS ENUM('root', 'division', 'team', 'committee');--> statement-breakpoint
CREATE TYPE "public"."verdict" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
CREATE TABLE "public"."workspaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspaces_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "public"."profiles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"email" text NOT NULL,
	"full_name" text,
	"role" "app_role" DEFAULT 'user' NOT NULL,
	"department" text,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"managed_permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_workspace_id_email_unique" UNIQUE("workspace_id","email")
);
--> statement-breakpoint
CREATE TABLE "public"."vs_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"is_confidential" boolean DEFAULT false NOT NULL,
	"public_eligible" boolean DEFAULT false NOT NULL,
	CONSTRAINT "vs_categories_workspace_id_name_unique" UNIQUE("workspace_id","name")
);
--> statement-breakpoint
CREATE TABLE "public"."vs_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"submitter_id" uuid NOT NULL,
	"submitter_label" text NOT NULL,
	"target_dept" text NOT NULL,
	"status" "vs_status" DEFAULT 'open' NOT NULL,
	"category_id" uuid,
	"is_public" boolean DEFAULT false NOT NULL,
	"public_title" text,
	"body" text NOT NULL,
	"duplicate_of" uuid,
	"is_duplicate" boolean GENERATED ALWAYS AS ("vs_tickets"."duplicate_of" is not null) STORED,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"remarks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."vs_public_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."pr_tickets" (
	"id" text PRIMARY KEY DEFAULT ('PR-' || upper(substr(md5(gen_random_uuid()::text), 1, 8))) NOT NULL,
	"id_key" text GENERATED ALWAYS AS (lower("pr_tickets"."id")) STORED,
	"workspace_id" uuid NOT NULL,
	"submitter_id" uuid NOT NULL,
	"submitter_label" text NOT NULL,
	"brief" text NOT NULL,
	"file_url" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."shop_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"status" "order_status" DEFAULT 'pending' NOT NULL,
	"subtotal" numeric(12, 2) DEFAULT '0' NOT NULL,
	"fee" numeric(12, 2) DEFAULT '0' NOT NULL,
	"total" numeric(12, 2) DEFAULT '0' NOT NULL,
	"admin_note" text,
	"timeline" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"slip_url" text,
	"shipping_address" text,
	"phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."team_nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"parent_id" uuid,
	"name" text NOT NULL,
	"kind" "node_kind" DEFAULT 'team' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	CONSTRAINT "team_nodes_parent_id_name_unique" UNIQUE("parent_id","name")
);
--> statement-breakpoint
CREATE TABLE "public"."team_members" (
	"node_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"nickname" text,
	"position" text,
	"kkumail" text,
	"student_id" text,
	"year" integer,
	"major" text,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"vs_dept" text,
	"project_seat" text,
	CONSTRAINT "team_members_node_id_profile_id_pk" PRIMARY KEY("node_id","profile_id")
);
--> statement-breakpoint
CREATE TABLE "public"."projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"owner_id" uuid,
	"title" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."project_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"title" text NOT NULL,
	"body" text
);
--> statement-breakpoint
CREATE TABLE "public"."project_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"document_id" uuid,
	"uploaded_by" uuid,
	"storage_path" text NOT NULL,
	"signed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."project_sign_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"actor_id" uuid NOT NULL,
	"professor_id" uuid NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."project_settings" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."student_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"student_id" text NOT NULL,
	"full_name" text NOT NULL,
	"major" text,
	"year" integer,
	CONSTRAINT "student_records_profile_id_unique" UNIQUE("profile_id"),
	CONSTRAINT "student_records_workspace_id_student_id_unique" UNIQUE("workspace_id","student_id")
);
--> statement-breakpoint
CREATE TABLE "public"."student_change_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"record_id" uuid NOT NULL,
	"requested_by" uuid NOT NULL,
	"field" text NOT NULL,
	"requested_value" text,
	"verdict" "verdict" DEFAULT 'pending' NOT NULL,
	"admin_note" text,
	"applied_value" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public"."identity_conflicts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"person_id" uuid NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "passport"."profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"display_name" text NOT NULL,
	"faculty" text,
	"points" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "public"."profiles" ADD CONSTRAINT "profiles_id_users_id_fk" FOREIGN KEY ("id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."profiles" ADD CONSTRAINT "profiles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."vs_categories" ADD CONSTRAINT "vs_categories_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."vs_tickets" ADD CONSTRAINT "vs_tickets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."vs_tickets" ADD CONSTRAINT "vs_tickets_submitter_id_profiles_id_fk" FOREIGN KEY ("submitter_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."vs_tickets" ADD CONSTRAINT "vs_tickets_category_id_vs_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."vs_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."vs_tickets" ADD CONSTRAINT "vs_tickets_duplicate_of_vs_tickets_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "public"."vs_tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."vs_public_comments" ADD CONSTRAINT "vs_public_comments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."vs_public_comments" ADD CONSTRAINT "vs_public_comments_ticket_id_vs_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."vs_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."vs_public_comments" ADD CONSTRAINT "vs_public_comments_author_id_profiles_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."pr_tickets" ADD CONSTRAINT "pr_tickets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."pr_tickets" ADD CONSTRAINT "pr_tickets_submitter_id_profiles_id_fk" FOREIGN KEY ("submitter_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."shop_orders" ADD CONSTRAINT "shop_orders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."shop_orders" ADD CONSTRAINT "shop_orders_buyer_id_profiles_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."team_nodes" ADD CONSTRAINT "team_nodes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."team_nodes" ADD CONSTRAINT "team_nodes_parent_id_team_nodes_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."team_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."team_members" ADD CONSTRAINT "team_members_node_id_team_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."team_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."team_members" ADD CONSTRAINT "team_members_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."team_members" ADD CONSTRAINT "team_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."projects" ADD CONSTRAINT "projects_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."projects" ADD CONSTRAINT "projects_owner_id_profiles_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_documents" ADD CONSTRAINT "project_documents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_documents" ADD CONSTRAINT "project_documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_files" ADD CONSTRAINT "project_files_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_files" ADD CONSTRAINT "project_files_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_files" ADD CONSTRAINT "project_files_document_id_project_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."project_documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_files" ADD CONSTRAINT "project_files_uploaded_by_profiles_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_sign_requests" ADD CONSTRAINT "project_sign_requests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_sign_requests" ADD CONSTRAINT "project_sign_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_sign_requests" ADD CONSTRAINT "project_sign_requests_actor_id_profiles_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_sign_requests" ADD CONSTRAINT "project_sign_requests_professor_id_profiles_id_fk" FOREIGN KEY ("professor_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."project_settings" ADD CONSTRAINT "project_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."student_records" ADD CONSTRAINT "student_records_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."student_records" ADD CONSTRAINT "student_records_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."student_change_requests" ADD CONSTRAINT "student_change_requests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."student_change_requests" ADD CONSTRAINT "student_change_requests_record_id_student_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."student_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."student_change_requests" ADD CONSTRAINT "student_change_requests_requested_by_profiles_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."identity_conflicts" ADD CONSTRAINT "identity_conflicts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public"."identity_conflicts" ADD CONSTRAINT "identity_conflicts_person_id_profiles_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passport"."profiles" ADD CONSTRAINT "profiles_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passport"."profiles" ADD CONSTRAINT "profiles_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vs_tickets_workspace_dept_idx" ON "public"."vs_tickets" USING btree ("workspace_id","target_dept");--> statement-breakpoint
CREATE UNIQUE INDEX "vs_tickets_public_title_uq" ON "public"."vs_tickets" USING btree ("workspace_id","public_title") WHERE "vs_tickets"."is_public" and "vs_tickets"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "pr_tickets_workspace_key_uq" ON "public"."pr_tickets" USING btree ("workspace_id","id_key");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_one_pending_per_buyer" ON "public"."shop_orders" USING btree ("workspace_id","buyer_id") WHERE "shop_orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "team_members_profile_idx" ON "public"."team_members" USING btree ("profile_id");--> statement-breakpoint
CREATE INDEX "change_requests_record_idx" ON "public"."student_change_requests" USING btree ("record_id","created_at");--> statement-breakpoint
CREATE POLICY "workspaces_read_own" ON "public"."workspaces" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("workspaces"."id" = (select current_workspace_id()));--> statement-breakpoint
CREATE POLICY "profiles_read_workspace" ON "public"."profiles" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("profiles"."id" = (select auth.uid()) or (("profiles"."workspace_id" = (select current_workspace_id())) and (select current_user_is_staff())));--> statement-breakpoint
CREATE POLICY "profiles_update_self" ON "public"."profiles" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("profiles"."id" = (select auth.uid())) WITH CHECK ("profiles"."id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "profiles_update_admin" ON "public"."profiles" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("profiles"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin())) WITH CHECK ("profiles"."workspace_id" = (select current_workspace_id()));--> statement-breakpoint
CREATE POLICY "vs_categories_read" ON "public"."vs_categories" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("vs_categories"."workspace_id" = (select current_workspace_id()));--> statement-breakpoint
CREATE POLICY "vs_categories_manage" ON "public"."vs_categories" AS PERMISSIVE FOR ALL TO "authenticated" USING ("vs_categories"."workspace_id" = (select current_workspace_id()) and (select current_user_is_staff())) WITH CHECK ("vs_categories"."workspace_id" = (select current_workspace_id()) and (select current_user_is_staff()));--> statement-breakpoint
CREATE POLICY "vs_tickets_read_submitter" ON "public"."vs_tickets" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("vs_tickets"."submitter_id" = (select auth.uid()) and "vs_tickets"."deleted_at" is null);--> statement-breakpoint
CREATE POLICY "vs_tickets_read_handler" ON "public"."vs_tickets" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("vs_tickets"."workspace_id" = (select current_workspace_id()) and can_handle_vs("vs_tickets"."target_dept") and "vs_tickets"."deleted_at" is null);--> statement-breakpoint
CREATE POLICY "vs_tickets_insert_submitter" ON "public"."vs_tickets" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("vs_tickets"."submitter_id" = (select auth.uid()) and "vs_tickets"."workspace_id" = (select current_workspace_id()));--> statement-breakpoint
CREATE POLICY "vs_tickets_update_submitter" ON "public"."vs_tickets" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("vs_tickets"."submitter_id" = (select auth.uid()) and "vs_tickets"."deleted_at" is null) WITH CHECK ("vs_tickets"."submitter_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "vs_tickets_update_handler" ON "public"."vs_tickets" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("vs_tickets"."workspace_id" = (select current_workspace_id()) and can_handle_vs("vs_tickets"."target_dept") and "vs_tickets"."deleted_at" is null) WITH CHECK ("vs_tickets"."workspace_id" = (select current_workspace_id()) and can_handle_vs("vs_tickets"."target_dept"));--> statement-breakpoint
CREATE POLICY "vs_tickets_delete_handler" ON "public"."vs_tickets" AS PERMISSIVE FOR DELETE TO "authenticated" USING ("vs_tickets"."workspace_id" = (select current_workspace_id()) and can_handle_vs("vs_tickets"."target_dept") and (select current_user_is_staff()));--> statement-breakpoint
CREATE POLICY "vs_public_comments_read" ON "public"."vs_public_comments" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("vs_public_comments"."workspace_id" = (select current_workspace_id()) and (select current_user_is_staff()));--> statement-breakpoint
CREATE POLICY "pr_tickets_read_submitter" ON "public"."pr_tickets" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("pr_tickets"."submitter_id" = (select auth.uid()) and "pr_tickets"."deleted_at" is null);--> statement-breakpoint
CREATE POLICY "pr_tickets_read_handler" ON "public"."pr_tickets" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("pr_tickets"."workspace_id" = (select current_workspace_id()) and (select can_handle_pr()) and "pr_tickets"."deleted_at" is null);--> statement-breakpoint
CREATE POLICY "pr_tickets_insert_submitter" ON "public"."pr_tickets" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("pr_tickets"."submitter_id" = (select auth.uid()) and "pr_tickets"."workspace_id" = (select current_workspace_id()));--> statement-breakpoint
CREATE POLICY "pr_tickets_update_submitter" ON "public"."pr_tickets" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("pr_tickets"."submitter_id" = (select auth.uid()) and "pr_tickets"."deleted_at" is null) WITH CHECK ("pr_tickets"."submitter_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "pr_tickets_update_handler" ON "public"."pr_tickets" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("pr_tickets"."workspace_id" = (select current_workspace_id()) and (select can_handle_pr()) and "pr_tickets"."deleted_at" is null) WITH CHECK ("pr_tickets"."workspace_id" = (select current_workspace_id()) and (select can_handle_pr()));--> statement-breakpoint
CREATE POLICY "pr_tickets_delete_handler" ON "public"."pr_tickets" AS PERMISSIVE FOR DELETE TO "authenticated" USING ("pr_tickets"."workspace_id" = (select current_workspace_id()) and (select can_handle_pr()) and (select current_user_is_staff()));--> statement-breakpoint
CREATE POLICY "shop_orders_read_buyer" ON "public"."shop_orders" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("shop_orders"."buyer_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "shop_orders_read_handler" ON "public"."shop_orders" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("shop_orders"."workspace_id" = (select current_workspace_id()) and (select can_handle_shop()));--> statement-breakpoint
CREATE POLICY "shop_orders_insert_buyer" ON "public"."shop_orders" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("shop_orders"."buyer_id" = (select auth.uid()) and "shop_orders"."workspace_id" = (select current_workspace_id()) and "shop_orders"."status" = 'pending');--> statement-breakpoint
CREATE POLICY "shop_orders_update_buyer" ON "public"."shop_orders" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("shop_orders"."buyer_id" = (select auth.uid()) and "shop_orders"."status" in ('pending', 'review', 'slip_mismatch')) WITH CHECK ("shop_orders"."buyer_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "shop_orders_update_handler" ON "public"."shop_orders" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("shop_orders"."workspace_id" = (select current_workspace_id()) and (select can_handle_shop())) WITH CHECK ("shop_orders"."workspace_id" = (select current_workspace_id()) and (select can_handle_shop()));--> statement-breakpoint
CREATE POLICY "team_nodes_read_workspace" ON "public"."team_nodes" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("team_nodes"."workspace_id" = (select current_workspace_id()));--> statement-breakpoint
CREATE POLICY "team_nodes_manage" ON "public"."team_nodes" AS PERMISSIVE FOR ALL TO "authenticated" USING ("team_nodes"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin())) WITH CHECK ("team_nodes"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin()));--> statement-breakpoint
CREATE POLICY "team_members_read_self_or_staff" ON "public"."team_members" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("team_members"."profile_id" = (select auth.uid()) or ("team_members"."workspace_id" = (select current_workspace_id()) and (select current_user_is_staff())));--> statement-breakpoint
CREATE POLICY "team_members_manage" ON "public"."team_members" AS PERMISSIVE FOR ALL TO "authenticated" USING ("team_members"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin())) WITH CHECK ("team_members"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin()));--> statement-breakpoint
CREATE POLICY "projects_read_all" ON "public"."projects" AS PERMISSIVE FOR SELECT TO "anon", "authenticated" USING (true);--> statement-breakpoint
CREATE POLICY "projects_write_actor" ON "public"."projects" AS PERMISSIVE FOR ALL TO "authenticated" USING ("projects"."workspace_id" = (select current_workspace_id()) and (select current_user_is_project_actor())) WITH CHECK ("projects"."workspace_id" = (select current_workspace_id()) and (select current_user_is_project_actor()));--> statement-breakpoint
CREATE POLICY "project_documents_read_all" ON "public"."project_documents" AS PERMISSIVE FOR SELECT TO "anon", "authenticated" USING (true);--> statement-breakpoint
CREATE POLICY "project_documents_write_actor" ON "public"."project_documents" AS PERMISSIVE FOR ALL TO "authenticated" USING ("project_documents"."workspace_id" = (select current_workspace_id()) and (select current_user_is_project_actor())) WITH CHECK ("project_documents"."workspace_id" = (select current_workspace_id()) and (select current_user_is_project_actor()));--> statement-breakpoint
CREATE POLICY "project_files_read_all" ON "public"."project_files" AS PERMISSIVE FOR SELECT TO "anon", "authenticated" USING (true);--> statement-breakpoint
CREATE POLICY "project_files_insert_actor_or_professor" ON "public"."project_files" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("project_files"."workspace_id" = (select current_workspace_id()) and "project_files"."uploaded_by" = (select auth.uid()) and ((select current_user_is_project_actor()) or (select current_user_role()) = 'sa_prof'));--> statement-breakpoint
CREATE POLICY "project_sign_requests_read_party" ON "public"."project_sign_requests" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("project_sign_requests"."actor_id" = (select auth.uid()) or "project_sign_requests"."professor_id" = (select auth.uid()));--> statement-breakpoint
CREATE POLICY "project_sign_requests_insert_actor" ON "public"."project_sign_requests" AS PERMISSIVE FOR INSERT TO "authenticated" WITH CHECK ("project_sign_requests"."actor_id" = (select auth.uid()) and "project_sign_requests"."workspace_id" = (select current_workspace_id()) and (select current_user_is_project_actor()));--> statement-breakpoint
CREATE POLICY "project_settings_read_staff" ON "public"."project_settings" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("project_settings"."workspace_id" = (select current_workspace_id()) and (select current_user_is_staff()));--> statement-breakpoint
CREATE POLICY "project_settings_write_staff" ON "public"."project_settings" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("project_settings"."workspace_id" = (select current_workspace_id()) and (select current_user_is_staff())) WITH CHECK ("project_settings"."workspace_id" = (select current_workspace_id()) and (select current_user_is_staff()));--> statement-breakpoint
CREATE POLICY "student_records_read_admin" ON "public"."student_records" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("student_records"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin()));--> statement-breakpoint
CREATE POLICY "student_change_requests_admin" ON "public"."student_change_requests" AS PERMISSIVE FOR ALL TO "authenticated" USING ("student_change_requests"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin())) WITH CHECK ("student_change_requests"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin()));--> statement-breakpoint
CREATE POLICY "identity_conflicts_read" ON "public"."identity_conflicts" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("identity_conflicts"."person_id" = (select my_person_id()) or ("identity_conflicts"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin())));--> statement-breakpoint
CREATE POLICY "passport_profiles_read_owner_or_admin" ON "passport"."profiles" AS PERMISSIVE FOR SELECT TO "authenticated" USING ("profiles"."user_id" = (select auth.uid()) or ("profiles"."workspace_id" = (select current_workspace_id()) and (select current_user_is_admin())));--> statement-breakpoint
CREATE POLICY "passport_profiles_update_owner" ON "passport"."profiles" AS PERMISSIVE FOR UPDATE TO "authenticated" USING ("profiles"."user_id" = (select auth.uid())) WITH CHECK ("profiles"."user_id" = (select auth.uid()));--> statement-breakpoint
ALTER TABLE "public"."workspaces" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."profiles" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."vs_categories" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."vs_tickets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."vs_public_comments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."pr_tickets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."shop_orders" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."team_nodes" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."team_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."projects" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."project_documents" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."project_files" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."project_sign_requests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."project_settings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."student_records" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."student_change_requests" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "public"."identity_conflicts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "passport"."profiles" ENABLE ROW LEVEL SECURITY;
