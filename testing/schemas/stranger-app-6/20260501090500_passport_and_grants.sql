-- Passport (its own exposed schema) and every grant, explicit (rules 15, 16).

create schema if not exists passport;
grant usage on schema passport to anon, authenticated, service_role;

create table passport.profiles (
  user_id uuid primary key references private.users (id) on delete restrict,
  handle text not null unique check (handle ~ '^[a-z0-9_]{3,24}$'),
  student_id text,
  points integer not null default 0 check (points >= 0),
  created_at timestamptz not null default now()
);
alter table passport.profiles enable row level security;

create policy profiles_owner_or_admin on passport.profiles for select to authenticated
  using (user_id = (select auth.uid()) or api.current_user_is_admin());
create policy profiles_owner_update on passport.profiles for update to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

create function passport.profiles_guard() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  bad text[];
begin
  if auth.uid() is null or api.current_user_is_admin() then
    return new;
  end if;
  bad := private.changed_columns(to_jsonb(old), to_jsonb(new), array['handle']);
  if cardinality(bad) > 0 then
    raise exception 'profiles: you may not change %', array_to_string(bad, ', ')
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end $$;
create trigger profiles_guard before update on passport.profiles
  for each row execute function passport.profiles_guard();

-- Rule 19: invoker's rights, so the profiles rules apply to whoever reads it.
create view passport.user_tiers with (security_invoker = true) as
  select p.user_id, p.handle, p.points,
         case when p.points >= 1000 then 'gold' when p.points >= 300 then 'silver' else 'bronze' end as tier
  from passport.profiles p;

create function passport.admin_leaderboard()
returns table (user_id uuid, handle text, points integer)
language plpgsql stable security definer set search_path = '' as $$
begin
  if auth.uid() is null or not api.current_user_is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'insufficient_privilege';
  end if;
  return query select p.user_id, p.handle, p.points from passport.profiles p
               order by p.points desc, p.user_id limit 100;
end $$;

-- ---------------------------------------------------------------------------
-- Grants. Base tables: the API roles reach them only through the invoker views in `api`, whose
-- row rules are the tables'; they need the same privileges on both.
-- ---------------------------------------------------------------------------
grant usage on schema private to anon, authenticated;   -- guards and invoker views resolve here

revoke all on all tables in schema private from anon, authenticated;
revoke all on all tables in schema api from anon, authenticated;

grant select on private.vs_categories, api.vs_categories to anon, authenticated;
grant insert, update, delete on private.vs_categories, api.vs_categories to authenticated;
grant select, update (display_name, avatar_url, email, department, role, permissions, managed_permissions)
  on private.users, api.users to authenticated;
grant select, insert, update, delete on private.vs_tickets, api.vs_tickets to authenticated;
grant select, insert, update, delete on private.pr_tickets, api.pr_tickets to authenticated;
grant select, insert, update on private.shop_orders, api.shop_orders to authenticated;
grant select, insert, update, delete on private.team_nodes, api.team_nodes to authenticated;
grant select, insert, update, delete on private.team_members, api.team_members to authenticated;
grant select on private.projects, api.projects, private.project_documents, api.project_documents,
  private.project_files, api.project_files to anon, authenticated;
grant insert on private.projects, api.projects, private.project_documents, api.project_documents,
  private.project_files, api.project_files to authenticated;
grant select, insert, update on private.project_sign_requests, api.project_sign_requests to authenticated;
grant select, insert, update, delete on private.project_settings, api.project_settings to authenticated;
grant select, insert, update, delete on private.student_records, api.student_records to authenticated;
grant select, insert, update, delete on private.student_change_requests, api.student_change_requests to authenticated;
grant select on private.identity_conflicts, api.identity_conflicts to authenticated;
grant select, update (handle) on passport.profiles to authenticated;
grant select on passport.user_tiers to authenticated;
grant all on all tables in schema private, api, passport to service_role;

-- Functions: nothing by default, then each named grant.
revoke execute on all functions in schema private, api, passport from public, anon, authenticated;

grant execute on function
  api.current_user_role(), api.current_user_dept(), api.current_user_is_staff(),
  api.current_user_has_permission(text), api.current_user_is_project_actor(),
  api.current_user_is_admin(), api.current_user_can_handle_vs(text),
  api.current_user_is_pr_handler(), api.current_user_is_shop_handler(), api.my_person_id(),
  api.get_vs_ticket_by_id(text), api.get_pr_ticket_by_id(text),
  api.get_public_vs_board(), api.get_public_vs_problem(text), api.get_vs_linked_context(text),
  api.get_public_org_chart()
  to anon, authenticated;
grant execute on function
  api.soft_delete_vs_ticket(text), api.soft_delete_pr_ticket(text),
  api.find_similar_vs_tickets(text), api.merge_vs_tickets(text, text),
  api.vs_transfer_dept(text, text, jsonb), api.vs_set_public(text, boolean, text, text),
  api.vs_post_public_comment(text, text), api.get_my_student_record(),
  api.sync_my_team_permissions()
  to authenticated;
-- rule 20: a caller with no session receives NOT_AUTHORIZED (from the function, not a missing grant)
grant execute on function passport.admin_leaderboard() to anon, authenticated;
-- a policy helper about the caller (project_files' professor upload), run as the caller
grant execute on function private.is_addressed_professor(uuid) to authenticated;
grant execute on all functions in schema private, api, passport to service_role;
