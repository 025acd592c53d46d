-- The REST surface: views in api over the app tables, with the caller's rights.

create view api.users with (security_invoker = true) as
  select id, email, handle, display_name, role, department, permissions, managed_permissions,
         created_at, updated_at
    from app.members;

create view api.vs_categories with (security_invoker = true) as
  select id, name, is_confidential, public_eligible from app.vs_categories;

-- Handlers' view: every column, only the tickets the caller handles.
create view api.vs_tickets with (security_invoker = true) as
  select id, submitter_id, target_dept, status, category_id, title, body, is_public, public_title,
         public_summary, duplicate_of, is_duplicate, tags, remarks, deleted_at, created_at, updated_at
    from app.vs_tickets
   where api.can_handle_vs(target_dept);

-- Submitters' view: the allow-list of columns, internal remarks left out.
create view api.my_vs_tickets with (security_invoker = true) as
  select t.id, t.target_dept, t.status, t.category_id, t.title, t.body, t.is_public, t.public_title,
         t.is_duplicate,
         coalesce((select jsonb_agg(r order by o)
                     from jsonb_array_elements(t.remarks) with ordinality as e(r, o)
                    where not coalesce((r ->> 'internal')::boolean, false)
                      and r ->> 'vis' is distinct from 'staff'), '[]'::jsonb) as remarks,
         t.created_at, t.updated_at
    from app.vs_tickets t
   where t.submitter_id = auth.uid();

create view api.pr_tickets with (security_invoker = true) as
  select id, submitter_id, submitter_label, brief, file_url, created_at
    from app.pr_tickets;

-- New PR tickets: the database draws the id and the label, whatever the client sent.
create function api.pr_tickets_insert() returns trigger
language plpgsql as $$
begin
  insert into app.pr_tickets (brief, file_url) values (new.brief, new.file_url);
  return new;
end;
$$;

create trigger pr_tickets_insert instead of insert on api.pr_tickets
  for each row execute function api.pr_tickets_insert();

create view api.shop_orders with (security_invoker = true) as
  select buyer_id, order_no, status, subtotal, fee, total, slip_url, details, admin_note, timeline,
         created_at, updated_at
    from app.shop_orders;

create view api.team_nodes with (security_invoker = true) as
  select id, parent_id, name, kind, position, is_public from app.team_nodes;

create view api.team_members with (security_invoker = true) as
  select node_id, kkumail, user_id, name, nickname, position, student_id, year, major, permissions,
         vs_dept, project_seat, term
    from app.team_members;

create view api.projects with (security_invoker = true) as
  select id, title, summary, owner_id, created_at from app.projects;
create view api.project_documents with (security_invoker = true) as
  select project_id, doc_no, title, storage_path from app.project_documents;
create view api.project_files with (security_invoker = true) as
  select project_id, doc_no, file_no, uploaded_by, storage_path, is_signed, created_at
    from app.project_files;
create view api.project_sign_requests with (security_invoker = true) as
  select project_id, doc_no, professor_id, requested_by, state, created_at
    from app.project_sign_requests;
create view api.project_settings with (security_invoker = true) as
  select singleton, submissions_open, max_files_per_document, updated_at from app.project_settings;

create view api.student_records with (security_invoker = true) as
  select student_id, member_id, full_name, faculty, major, year, updated_at from app.student_records;
create view api.student_change_requests with (security_invoker = true) as
  select student_id, request_no, field, requested_value, verdict, admin_note, applied_value,
         decided_by, decided_at, created_at
    from app.student_change_requests;

create view api.identity_conflicts with (security_invoker = true) as
  select id, person_id, source, detail, resolved_at, created_at from app.identity_conflicts;

create view api.passport_profiles with (security_invoker = true) as
  select member_id, student_id, nickname, faculty, points, updated_at from app.passport_profiles;

create view api.user_tiers as
  select p.member_id, p.points, t.tier
    from app.passport_profiles p
    join app.passport_tiers t on t.points @> p.points;

-- Privileges on the views come from api's default privileges (foundation); the grants on the app
-- tables and their row rules decide what reaches the rows.
