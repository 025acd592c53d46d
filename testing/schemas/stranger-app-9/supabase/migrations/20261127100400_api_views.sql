-- The REST surface: security_invoker views over app.*, one per resource.
-- Row security of the app tables applies to the caller through every view.

create view api.users with (security_invoker = true) as
select u.id, u.email, u.display_name, u.department,
       private.role_of(u.id) as role,   -- read-only: roles are granted in api.user_roles
       u.created_at, u.updated_at
from app.users u;

create view api.roles with (security_invoker = true) as
select id, slug, description, parent_role_id, rank, created_at from app.roles;
create view api.permissions with (security_invoker = true) as
select id, slug, description, created_at from app.permissions;
create view api.role_permissions with (security_invoker = true) as
select role_id, permission_id from app.role_permissions;
create view api.user_roles with (security_invoker = true) as
select user_id, role_id, granted_by, granted_at from app.user_roles;
create view api.user_permissions with (security_invoker = true) as
select user_id, permission_id, source, granted_at from app.user_permissions;

create view api.vs_categories with (security_invoker = true) as
select id, slug, name, is_confidential, public_eligible, created_at from app.vs_categories;

-- Handler view: every column, only tickets the caller handles.
create view api.vs_tickets with (security_invoker = true) as
select id, submitter_id, submitter_label, target_dept, category_id, status, body, is_public,
       public_title, duplicate_of, is_duplicate, tags, remarks, created_at, updated_at
from app.vs_tickets
where private.can_handle_vs(target_dept);

-- Submitter view: an allow-list of columns; duplicate_of, tags and internal or staff-only
-- remarks never appear, is_duplicate stands in.
create view api.my_vs_tickets with (security_invoker = true) as
select id, submitter_label, target_dept, category_id, status, body, is_public, public_title,
       is_duplicate, private.submitter_remarks(remarks) as remarks, created_at, updated_at
from app.vs_tickets
where submitter_id = (select auth.uid());

create view api.pr_tickets with (security_invoker = true) as
select id, submitter_id, submitter_label, brief, file_url, status, staff_note, created_at,
       updated_at
from app.pr_tickets;

create view api.shop_orders with (security_invoker = true) as
select id, buyer_id, status, subtotal, fee, total, items, recipient_name, phone,
       shipping_address, slip_path, admin_note, timeline, created_at, updated_at
from app.shop_orders;

create view api.team_nodes with (security_invoker = true) as
select id, parent_id, slug, name, kind, position, is_public, created_at, updated_at
from app.team_nodes;
create view api.team_members with (security_invoker = true) as
select id, node_id, user_id, name, nickname, position, kkumail, student_id, year, major,
       permissions, vs_dept, project_seat, created_at, updated_at
from app.team_members;

create view api.projects with (security_invoker = true) as
select id, slug, title, owner_id, created_at, updated_at from app.projects;
create view api.project_members with (security_invoker = true) as
select project_id, user_id from app.project_members;
create view api.project_documents with (security_invoker = true) as
select id, project_id, slug, title, body, created_at, updated_at from app.project_documents;
create view api.project_files with (security_invoker = true) as
select id, document_id, storage_path, uploaded_by, is_signed, created_at from app.project_files;
create view api.project_sign_requests with (security_invoker = true) as
select id, document_id, actor_id, professor_id, status, created_at from app.project_sign_requests;
create view api.project_settings with (security_invoker = true) as
select key, value, updated_at from app.project_settings;

create view api.student_records with (security_invoker = true) as
select id, user_id, student_id, full_name, faculty, year, created_at, updated_at
from app.student_records;
create view api.student_change_requests with (security_invoker = true) as
select id, record_id, field, requested_value, verdict, admin_note, applied_value, decided_by,
       decided_at, created_at
from app.student_change_requests;

create view api.people with (security_invoker = true) as
select id, user_id, display_name, created_at from app.people;
create view api.identity_conflicts with (security_invoker = true) as
select id, person_id, details, resolved_at, created_at from app.identity_conflicts;

-- Explicit grants per view (nothing in api is granted by default).
grant select on api.vs_categories, api.projects, api.project_documents, api.project_files
  to anon, authenticated;
grant select on api.users, api.roles, api.permissions, api.role_permissions, api.user_roles,
  api.user_permissions, api.vs_tickets, api.my_vs_tickets, api.pr_tickets, api.shop_orders,
  api.team_nodes, api.team_members, api.project_members, api.project_sign_requests,
  api.project_settings, api.student_records, api.student_change_requests, api.people,
  api.identity_conflicts
  to authenticated;
grant update on api.users to authenticated;
grant insert, update, delete on api.roles, api.role_permissions, api.vs_categories,
  api.team_nodes, api.team_members, api.project_settings, api.student_records,
  api.student_change_requests, api.identity_conflicts to authenticated;
grant insert, delete on api.user_roles, api.user_permissions, api.project_members
  to authenticated;
grant insert, update on api.vs_tickets, api.my_vs_tickets, api.shop_orders, api.projects,
  api.project_sign_requests to authenticated;
grant insert, update, delete on api.pr_tickets, api.project_documents to authenticated;
grant delete on api.shop_orders to authenticated;
grant insert on api.project_files to authenticated;
grant all on all tables in schema api to service_role;

-- DELETE on the PR view is a soft delete (the row stays, deleted_at is set).
create or replace function private.pr_tickets_view_delete()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform api.soft_delete_pr_ticket(old.id);
  return old;
end;
$$;
