-- users (spec §2; rules 1, 2): profile rows keyed by auth.users.id, with the privileged role.
-- Vocabularies and the owner allow-list match model/settings.ts.
create table public.users (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  display_name text,
  avatar_url text,
  phone text,
  role text default 'user' check (role in ('user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin')),
  department text,
  permissions text[] not null default '{}',
  managed_permissions text[] not null default '{}',
  updated_at timestamptz not null default now()
);

-- Helpers used by policies (security definer so a policy never depends on users' own row
-- rules, rule 17; fail closed on a null role, rule 8).
create or replace function public.current_user_role() returns text
language sql stable security definer set search_path = ''
as $$ select u.role from public.users u where u.id = auth.uid() $$;

create or replace function public.current_user_dept() returns text
language sql stable security definer set search_path = ''
as $$ select u.department from public.users u where u.id = auth.uid() $$;

create or replace function public.current_user_is_staff() returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.current_user_role() in ('dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'admin'), false) $$;

create or replace function public.current_user_is_admin() returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.current_user_role() in ('admin', 'dev'), false) $$;

create or replace function public.current_user_has_permission(p_permission text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce((
    select p_permission = any (u.permissions) or p_permission = any (u.managed_permissions)
    from public.users u where u.id = auth.uid()
  ), false)
$$;

-- Rule 15: helpers are executable only through named grants.
revoke execute on function public.current_user_role(), public.current_user_dept(), public.current_user_is_staff(),
  public.current_user_is_admin(), public.current_user_has_permission(text) from public, anon, authenticated;
grant execute on function public.current_user_role(), public.current_user_dept(), public.current_user_is_staff(),
  public.current_user_is_admin(), public.current_user_has_permission(text) to anon, authenticated;

-- Rule 16: explicit grants to the intended roles only.
revoke all on table public.users from anon, authenticated;
grant select, update on table public.users to authenticated;

alter table public.users enable row level security;

create policy users_select on public.users for select to authenticated
  using (id = auth.uid() or public.current_user_is_staff());

create policy users_update on public.users for update to authenticated
  using (id = auth.uid() or public.current_user_is_admin())
  with check (id = auth.uid() or public.current_user_is_admin());

-- Rule 1 / 2: an owner who is not staff may change only the allow-listed columns.
create or replace function private.guard_users_owner_update()
returns trigger
language plpgsql
security definer -- reaches the private helpers whatever the caller's role
set search_path = ''
as $$
begin
  if auth.uid() is null then
    return new; -- server context
  end if;
  if old.id = auth.uid() and not public.current_user_is_staff() then
    perform private.reject_outside_allow_list(to_jsonb(old), to_jsonb(new),
      array['display_name', 'avatar_url', 'phone', 'updated_at'], 'users', 'owner');
  end if;
  return new;
end
$$;

-- Rule 15: a private helper keeps no EXECUTE for public, anon or authenticated.
revoke execute on function private.guard_users_owner_update() from public, anon, authenticated;

create trigger users_10_owner_guard before update on public.users
  for each row execute function private.guard_users_owner_update();
create trigger users_20_touch before update on public.users
  for each row execute function private.touch_updated_at();
