-- Campus services: people, departments, helpers. Written from the data-layer spec alone.
-- Choices of this team: profiles keyed by auth.users with cascade, departments as a table,
-- text + CHECK vocabularies, uuid keys, owner columns filled from auth.uid() by triggers,
-- one generic owner guard taking its allow-list as trigger arguments.

create table public.departments (
  code text primary key,
  title text not null
);
insert into public.departments (code, title) values
  ('SE', 'Student Experience'), ('ACAD', 'Academic Affairs'), ('FIN', 'Finance'),
  ('IT', 'Information Technology'), ('FAC', 'Facilities');

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  display_name text not null default '',
  avatar_url text,
  phone text,
  role text not null default 'user'
    check (role in ('user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin')),
  department text references public.departments (code),
  permissions text[] not null default '{}',
  managed_permissions text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index profiles_email_key on public.profiles (lower(email));

-- Helpers: definer, so policies never depend on profiles' own row rules (rule 17).
create function public.current_user_role() returns text
language sql stable security definer set search_path = public as $$
  select p.role from public.profiles p where p.id = auth.uid()
$$;

create function public.current_user_dept() returns text
language sql stable security definer set search_path = public as $$
  select p.department from public.profiles p where p.id = auth.uid()
$$;

create function public.current_user_has_permission(p_permission text) returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(
    (select p_permission = any (p.permissions || p.managed_permissions)
       from public.profiles p where p.id = auth.uid()),
    false)
$$;

create function public.current_user_is_staff() returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(public.current_user_role() in ('staff', 'pr_staff', 'vs_staff', 'vp_admin', 'admin'), false)
$$;

create function public.current_user_is_admin() returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(public.current_user_role() = 'admin', false)
$$;

-- Touch updated_at on every write.
create function public.touch_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end $$;

-- Rule 1: one guard for every owner-updatable table. Arguments: the owner column, then the
-- columns an owner may change. Everything else (new columns too) is compared.
-- The caller is exempt when the table's handler check (a boolean function named in
-- TG_ARGV[1], given the old row) says so. updated_at and generated columns are never compared.
create function public.guard_owner_columns() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  owner_col text := tg_argv[0];
  exempt_fn text := tg_argv[1];
  allowed text[] := coalesce(tg_argv[2:], '{}');
  generated text[];
  exempt boolean;
  old_row jsonb;
  new_row jsonb;
begin
  -- Server contexts, and the definer functions that say they write on the owner's behalf.
  if auth.uid() is null or current_setting('app.trusted_write', true) = 'on' then
    return new;
  end if;
  if (to_jsonb(old) ->> owner_col) is distinct from auth.uid()::text then
    return new;
  end if;
  execute format('select public.%I($1)', exempt_fn) into exempt using to_jsonb(old);
  if coalesce(exempt, false) then
    return new;
  end if;
  select coalesce(array_agg(attname::text), '{}') into generated
    from pg_attribute
   where attrelid = tg_relid and attgenerated <> '' and not attisdropped;
  old_row := to_jsonb(old) - allowed - generated - 'updated_at';
  new_row := to_jsonb(new) - allowed - generated - 'updated_at';
  if old_row is distinct from new_row then
    raise exception 'owner may not change %', (
      select string_agg(k, ', ' order by k) from jsonb_object_keys(new_row) k
       where new_row -> k is distinct from old_row -> k)
      using errcode = 'P0001';
  end if;
  return new;
end $$;

alter table public.profiles enable row level security;

create policy profiles_read_self_or_staff on public.profiles for select to authenticated
  using (id = (select auth.uid()) or public.current_user_is_staff());
create policy profiles_insert_self on public.profiles for insert to authenticated
  with check (id = (select auth.uid()));
create policy profiles_update_self on public.profiles for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));
create policy profiles_update_admin on public.profiles for update to authenticated
  using (public.current_user_is_admin())
  with check (public.current_user_is_admin());

create trigger profiles_touch before update on public.profiles
  for each row execute function public.touch_updated_at();
create function public.guard_exempt_staff(p_old jsonb) returns boolean
language sql stable as $$ select public.current_user_is_staff() $$;

create trigger profiles_owner_guard before update on public.profiles
  for each row execute function public.guard_owner_columns(
    'id', 'guard_exempt_staff', 'display_name', 'avatar_url', 'phone');

grant select, insert, update on public.profiles to authenticated;
grant all on public.profiles to service_role;
grant select on public.departments to anon, authenticated;
grant all on public.departments to service_role;
alter table public.departments enable row level security;
create policy departments_read on public.departments for select to anon, authenticated using (true);

-- Helpers are callable by the policy engine's roles (4.2), nothing else needs a revoke.
grant execute on function public.current_user_role(), public.current_user_dept(),
  public.current_user_has_permission(text), public.current_user_is_staff(),
  public.current_user_is_admin() to anon, authenticated, service_role;
revoke execute on function public.guard_owner_columns(), public.touch_updated_at() from public, anon, authenticated;
