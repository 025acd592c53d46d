-- Helpers the policies call, and the row-level policies.
-- Helpers are definer functions so a policy never depends on users' own policies.

create or replace function public.current_user_role()
returns public.app_role
language sql
stable
security definer
set search_path = ''
as $$
  select u.role from public.users u where u.id = (select auth.uid());
$$;

create or replace function public.current_user_dept()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select u.department from public.users u where u.id = (select auth.uid());
$$;

create or replace function public.current_user_is_staff()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'admin', 'staff', 'pr_staff', 'vs_staff', 'shop_staff', 'vp_admin')
       from public.users u where u.id = (select auth.uid())),
    false);
$$;

create or replace function public.current_user_is_admin()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select u.role in ('dev', 'admin') from public.users u where u.id = (select auth.uid())),
    false);
$$;

create or replace function public.current_user_has_permission(p_permission text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select p_permission = any (u.permissions || u.managed_permissions)
       from public.users u where u.id = (select auth.uid())),
    false);
$$;

-- who handles VS tickets of a department
create or replace function public.can_handle_vs(p_dept text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_role public.app_role;
  v_dept text;
begin
  select u.role, u.department into v_role, v_dept
    from public.users u where u.id = (select auth.uid());
  if v_role is null then
    return false;
  end if;
  if v_role in ('dev', 'admin', 'vs_staff') then
    return true;
  end if;
  if v_role = 'vp_admin' then
    return p_dept is not null and p_dept = v_dept;
  end if;
  return public.current_user_has_permission('vs');
end
$$;

create or replace function public.can_handle_pr()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('dev', 'admin', 'pr_staff'), false)
      or public.current_user_has_permission('pr');
$$;

create or replace function public.can_handle_shop()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('dev', 'admin', 'staff', 'shop_staff'), false)
      or public.current_user_has_permission('house');
$$;

create or replace function public.current_user_is_project_actor(p_project uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.projects p
                  where p.id = p_project and p.owner_id = (select auth.uid()))
      or exists (select 1 from public.project_members m
                  where m.project_id = p_project and m.user_id = (select auth.uid()));
$$;

create or replace function public.my_person_id()
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select p.id from public.people p where p.user_id = (select auth.uid());
$$;

-- ---------------------------------------------------------------------------
-- users
-- ---------------------------------------------------------------------------

create policy "Users can read themselves" on public.users
  for select to authenticated
  using (id = (select auth.uid()));

create policy "Staff can read users" on public.users
  for select to authenticated
  using ((select public.current_user_is_staff()));

create policy "Users can update themselves" on public.users
  for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "Admins can update users" on public.users
  for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

-- ---------------------------------------------------------------------------
-- vs_categories
-- ---------------------------------------------------------------------------

alter table public.vs_categories enable row level security;

create policy "Members can read categories" on public.vs_categories
  for select to authenticated
  using (basejump.has_role_on_account(account_id));

create policy "Anyone can read public categories" on public.vs_categories
  for select to anon
  using (not is_confidential);

create policy "Handlers manage categories" on public.vs_categories
  for all to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.current_user_is_staff()))
  with check (basejump.has_role_on_account(account_id) and (select public.current_user_is_staff()));

-- ---------------------------------------------------------------------------
-- vs_tickets
-- ---------------------------------------------------------------------------

alter table public.vs_tickets enable row level security;

create policy "Submitters read their tickets" on public.vs_tickets
  for select to authenticated
  using (submitter_id = (select auth.uid()) and deleted_at is null);

create policy "Handlers read their departments' tickets" on public.vs_tickets
  for select to authenticated
  using (
    deleted_at is null
    and basejump.has_role_on_account(account_id)
    and public.can_handle_vs(target_dept)
  );

create policy "Members submit tickets" on public.vs_tickets
  for insert to authenticated
  with check (
    submitter_id = (select auth.uid())
    and basejump.has_role_on_account(account_id)
    and is_public = false
    and duplicate_of is null
  );

create policy "Submitters update their tickets" on public.vs_tickets
  for update to authenticated
  using (submitter_id = (select auth.uid()) and deleted_at is null)
  with check (submitter_id = (select auth.uid()) and deleted_at is null);

create policy "Handlers update their departments' tickets" on public.vs_tickets
  for update to authenticated
  using (deleted_at is null and basejump.has_role_on_account(account_id) and public.can_handle_vs(target_dept))
  with check (deleted_at is null and basejump.has_role_on_account(account_id) and public.can_handle_vs(target_dept));

create policy "Admins delete tickets" on public.vs_tickets
  for delete to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.current_user_is_admin()));

alter table public.vs_public_comments enable row level security;

create policy "Public comments are read through the board" on public.vs_public_comments
  for select to authenticated
  using (author_id = (select auth.uid()));

-- submitter-facing columns only (rule: no duplicate_of, tags or internal remarks)
create view public.my_vs_tickets
with (security_invoker = true)
as
select t.id, t.account_id, t.ticket_no, t.target_dept, t.category, t.status, t.title, t.body,
       t.is_public, t.public_title, t.is_duplicate,
       coalesce((select jsonb_agg(r) from jsonb_array_elements(t.remarks) r
                  where coalesce((r ->> 'internal')::boolean, false) = false
                    and r ->> 'vis' = 'ticket'), '[]'::jsonb) as remarks,
       t.created_at, t.updated_at
from public.vs_tickets t
where t.submitter_id = (select auth.uid());

-- ---------------------------------------------------------------------------
-- pr_tickets
-- ---------------------------------------------------------------------------

alter table public.pr_tickets enable row level security;

create policy "Submitters read their PR requests" on public.pr_tickets
  for select to authenticated
  using (submitter_id = (select auth.uid()) and deleted_at is null);

create policy "PR staff read requests" on public.pr_tickets
  for select to authenticated
  using (deleted_at is null and basejump.has_role_on_account(account_id) and (select public.can_handle_pr()));

create policy "Anyone can file a PR request" on public.pr_tickets
  for insert to anon, authenticated
  with check (submitter_id is not distinct from (select auth.uid()) and deleted_at is null);

create policy "PR staff update requests" on public.pr_tickets
  for update to authenticated
  using (deleted_at is null and basejump.has_role_on_account(account_id) and (select public.can_handle_pr()))
  with check (basejump.has_role_on_account(account_id) and (select public.can_handle_pr()));

create policy "PR staff delete requests" on public.pr_tickets
  for delete to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.can_handle_pr()));

-- ---------------------------------------------------------------------------
-- shop_orders
-- ---------------------------------------------------------------------------

alter table public.shop_orders enable row level security;

create policy "Buyers read their orders" on public.shop_orders
  for select to authenticated
  using (buyer_id = (select auth.uid()));

create policy "Shop staff read orders" on public.shop_orders
  for select to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.can_handle_shop()));

create policy "Members place orders" on public.shop_orders
  for insert to authenticated
  with check (
    buyer_id = (select auth.uid())
    and basejump.has_role_on_account(account_id)
    and status = 'pending'
  );

create policy "Buyers edit open orders" on public.shop_orders
  for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid()));

create policy "Shop staff edit orders" on public.shop_orders
  for update to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.can_handle_shop()))
  with check (basejump.has_role_on_account(account_id) and (select public.can_handle_shop()));

-- ---------------------------------------------------------------------------
-- team tree
-- ---------------------------------------------------------------------------

alter table public.team_nodes enable row level security;
alter table public.team_members enable row level security;

create policy "Members read their union's tree" on public.team_nodes
  for select to authenticated
  using (basejump.has_role_on_account(account_id));

create policy "Staff manage the tree" on public.team_nodes
  for all to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.current_user_is_staff()))
  with check (basejump.has_role_on_account(account_id) and (select public.current_user_is_staff()));

create policy "Members read their own seat" on public.team_members
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Staff read team members" on public.team_members
  for select to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.current_user_is_staff()));

create policy "Staff manage team members" on public.team_members
  for all to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.current_user_is_admin()))
  with check (basejump.has_role_on_account(account_id) and (select public.current_user_is_admin()));

-- ---------------------------------------------------------------------------
-- projects
-- ---------------------------------------------------------------------------

alter table public.projects enable row level security;
alter table public.project_members enable row level security;
alter table public.project_documents enable row level security;
alter table public.project_files enable row level security;
alter table public.project_sign_requests enable row level security;
alter table public.project_settings enable row level security;

create policy "Projects are public" on public.projects
  for select to anon, authenticated using (true);

create policy "Members start projects" on public.projects
  for insert to authenticated
  with check (owner_id = (select auth.uid()) and basejump.has_role_on_account(account_id));

create policy "Actors edit projects" on public.projects
  for update to authenticated
  using (public.current_user_is_project_actor(id))
  with check (public.current_user_is_project_actor(id));

create policy "Project members are visible to actors" on public.project_members
  for select to authenticated
  using (user_id = (select auth.uid()) or public.current_user_is_project_actor(project_id));

create policy "Owners add project members" on public.project_members
  for insert to authenticated
  with check (exists (select 1 from public.projects p
                       where p.id = project_id and p.owner_id = (select auth.uid())));

create policy "Project documents are public" on public.project_documents
  for select to anon, authenticated using (true);

create policy "Actors write documents" on public.project_documents
  for insert to authenticated
  with check (public.current_user_is_project_actor(project_id));

create policy "Project files are public" on public.project_files
  for select to anon, authenticated using (true);

create policy "Actors upload files" on public.project_files
  for insert to authenticated
  with check (
    uploaded_by = (select auth.uid())
    and exists (select 1 from public.project_documents d
                 where d.id = document_id and public.current_user_is_project_actor(d.project_id))
  );

create policy "Professors upload signed files" on public.project_files
  for insert to authenticated
  with check (
    uploaded_by = (select auth.uid())
    and kind = 'signed'
    and exists (select 1 from public.project_sign_requests r
                 where r.document_id = project_files.document_id
                   and r.professor_id = (select auth.uid()))
  );

create policy "Sign requests visible to actor or professor" on public.project_sign_requests
  for select to authenticated
  using (actor_id = (select auth.uid()) or professor_id = (select auth.uid()));

create policy "Actors request signatures" on public.project_sign_requests
  for insert to authenticated
  with check (
    actor_id = (select auth.uid())
    and exists (select 1 from public.project_documents d
                 where d.id = document_id and public.current_user_is_project_actor(d.project_id))
  );

create policy "Professors answer sign requests" on public.project_sign_requests
  for update to authenticated
  using (professor_id = (select auth.uid()))
  with check (professor_id = (select auth.uid()));

create policy "Staff read project settings" on public.project_settings
  for select to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.current_user_is_staff()));

create policy "Admins edit project settings" on public.project_settings
  for all to authenticated
  using (basejump.has_role_on_account(account_id) and (select public.current_user_is_admin()))
  with check (basejump.has_role_on_account(account_id) and (select public.current_user_is_admin()));

-- ---------------------------------------------------------------------------
-- students and identities
-- ---------------------------------------------------------------------------

alter table public.people enable row level security;
alter table public.identity_conflicts enable row level security;
alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;

create policy "People read themselves" on public.people
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_admin()));

create policy "Conflicts readable by admins and the person" on public.identity_conflicts
  for select to authenticated
  using ((select public.current_user_is_admin()) or person_id = (select public.my_person_id()));

create policy "Admins resolve conflicts" on public.identity_conflicts
  for update to authenticated
  using ((select public.current_user_is_admin()))
  with check ((select public.current_user_is_admin()));

create policy "Students read their record" on public.student_records
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Student admins read records" on public.student_records
  for select to authenticated
  using (basejump.has_role_on_account(account_id)
         and public.current_user_role() in ('admin', 'dev', 'uni_staff'));

create policy "Student admins manage change requests" on public.student_change_requests
  for all to authenticated
  using (public.current_user_role() in ('admin', 'dev', 'uni_staff'))
  with check (public.current_user_role() in ('admin', 'dev', 'uni_staff'));

-- ---------------------------------------------------------------------------
-- passport
-- ---------------------------------------------------------------------------

alter table passport.profiles enable row level security;
alter table passport.activities enable row level security;
alter table passport.tiers enable row level security;

create policy "Owners read their passport" on passport.profiles
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_admin()));

create policy "Owners edit their passport" on passport.profiles
  for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "Owners read their activities" on passport.activities
  for select to authenticated
  using (user_id = (select auth.uid()) or (select public.current_user_is_admin()));

create policy "Tiers are public" on passport.tiers
  for select to anon, authenticated using (true);
