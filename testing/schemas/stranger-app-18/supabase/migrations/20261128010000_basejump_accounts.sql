-- Accounts and memberships, after usebasejump.com's layout.
-- Every union (tenant) is a team account; each user also gets a personal account.

create extension if not exists citext with schema extensions;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;

create schema if not exists basejump;
grant usage on schema basejump to authenticated, service_role;

do $$
begin
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace
                 where t.typname = 'account_role' and n.nspname = 'basejump') then
    create type basejump.account_role as enum ('owner', 'member');
  end if;
end
$$;

-- ---------------------------------------------------------------------------
-- Shared trigger functions
-- ---------------------------------------------------------------------------

create or replace function basejump.trigger_set_timestamps()
returns trigger
language plpgsql
as $$
begin
  if tg_op = 'INSERT' then
    new.created_at = now();
    new.updated_at = now();
  else
    new.updated_at = now();
    new.created_at = old.created_at;
  end if;
  return new;
end
$$;

create or replace function basejump.trigger_set_user_tracking()
returns trigger
language plpgsql
as $$
begin
  if tg_op = 'INSERT' then
    new.created_by = auth.uid();
    new.updated_by = auth.uid();
  else
    new.updated_by = auth.uid();
    new.created_by = old.created_by;
  end if;
  return new;
end
$$;

create or replace function basejump.generate_token(length int)
returns text
language sql
as $$
  select regexp_replace(replace(replace(replace(replace(
    encode(extensions.gen_random_bytes(length)::bytea, 'base64'),
    '/', ''), '+', ''), '\', ''), '=', ''), '[^A-Za-z0-9]', '', 'g');
$$;

-- ---------------------------------------------------------------------------
-- Accounts
-- ---------------------------------------------------------------------------

create table if not exists basejump.accounts
(
  id                    uuid unique not null default extensions.uuid_generate_v4(),
  primary_owner_user_id uuid references auth.users not null default auth.uid(),
  name                  text,
  slug                  text unique,
  personal_account      boolean default false not null,
  updated_at            timestamp with time zone,
  created_at            timestamp with time zone,
  created_by            uuid references auth.users,
  updated_by            uuid references auth.users,
  private_metadata      jsonb default '{}'::jsonb,
  public_metadata       jsonb default '{}'::jsonb,
  primary key (id)
);

alter table basejump.accounts
  add constraint basejump_accounts_slug_null_if_personal_account_true check (
    (personal_account = true and slug is null)
    or (personal_account = false and slug is not null)
  );

grant select, insert, update, delete on table basejump.accounts to authenticated, service_role;

create or replace function basejump.slugify_account_slug()
returns trigger
language plpgsql
as $$
begin
  if new.slug is not null then
    new.slug = lower(regexp_replace(new.slug, '[^a-zA-Z0-9-]+', '-', 'g'));
  end if;
  return new;
end
$$;

create trigger basejump_slugify_account_slug
  before insert or update on basejump.accounts
  for each row execute procedure basejump.slugify_account_slug();

create trigger basejump_set_accounts_timestamp
  before insert or update on basejump.accounts
  for each row execute procedure basejump.trigger_set_timestamps();

create trigger basejump_set_accounts_user_tracking
  before insert or update on basejump.accounts
  for each row execute procedure basejump.trigger_set_user_tracking();

alter table basejump.accounts enable row level security;

-- ---------------------------------------------------------------------------
-- Memberships
-- ---------------------------------------------------------------------------

create table if not exists basejump.account_user
(
  user_id      uuid references auth.users on delete cascade not null,
  account_id   uuid references basejump.accounts on delete cascade not null,
  account_role basejump.account_role not null,
  constraint account_user_pkey primary key (user_id, account_id)
);

grant select, insert, update, delete on table basejump.account_user to authenticated, service_role;

alter table basejump.account_user enable row level security;

create or replace function basejump.add_current_user_to_new_account()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  if new.primary_owner_user_id = auth.uid() then
    insert into basejump.account_user (account_id, user_id, account_role)
    values (new.id, auth.uid(), 'owner');
  end if;
  return new;
end;
$$;

create trigger basejump_add_current_user_to_new_account
  after insert on basejump.accounts
  for each row execute function basejump.add_current_user_to_new_account();

-- ---------------------------------------------------------------------------
-- Membership helpers (definer: they read account_user past its own policies)
-- ---------------------------------------------------------------------------

create or replace function basejump.has_role_on_account(account_id uuid, account_role basejump.account_role default null)
returns boolean
language sql
security definer
set search_path = public
as $$
  select exists(
    select 1
    from basejump.account_user wu
    where wu.user_id = auth.uid()
      and wu.account_id = has_role_on_account.account_id
      and (wu.account_role = has_role_on_account.account_role
           or has_role_on_account.account_role is null)
  );
$$;

grant execute on function basejump.has_role_on_account(uuid, basejump.account_role) to authenticated, anon;

create or replace function basejump.get_accounts_with_role(passed_in_role basejump.account_role default null)
returns setof uuid
language sql
security definer
set search_path = public
as $$
  select account_id
  from basejump.account_user wu
  where wu.user_id = auth.uid()
    and (wu.account_role = passed_in_role or passed_in_role is null);
$$;

grant execute on function basejump.get_accounts_with_role(basejump.account_role) to authenticated;

create policy "users can view their own account_users" on basejump.account_user
  for select to authenticated
  using (user_id = auth.uid());

create policy "users can view their teammates" on basejump.account_user
  for select to authenticated
  using (basejump.has_role_on_account(account_id) = true);

create policy "Account users can be deleted by owners except primary account owner" on basejump.account_user
  for delete to authenticated
  using (
    (basejump.has_role_on_account(account_id, 'owner') = true)
    and user_id != (select primary_owner_user_id from basejump.accounts where account_id = accounts.id)
  );

create policy "Accounts are viewable by members" on basejump.accounts
  for select to authenticated
  using (basejump.has_role_on_account(id) = true);

create policy "Accounts are viewable by primary owner" on basejump.accounts
  for select to authenticated
  using (primary_owner_user_id = auth.uid());

create policy "Team accounts can be created by any user" on basejump.accounts
  for insert to authenticated
  with check (personal_account = false);

create policy "Accounts can be edited by owners" on basejump.accounts
  for update to authenticated
  using (basejump.has_role_on_account(id, 'owner') = true);

-- ---------------------------------------------------------------------------
-- public.users, kept in step with auth.users; every person column points here
-- ---------------------------------------------------------------------------

do $$
begin
  if not exists (select 1 from pg_type where typname = 'app_role') then
    create type public.app_role as enum (
      'user', 'dev', 'admin', 'staff', 'pr_staff', 'vs_staff', 'shop_staff',
      'vp_admin', 'uni_staff', 'sa_prof'
    );
  end if;
end
$$;

create table if not exists public.users
(
  id                  uuid primary key references auth.users (id) on delete cascade,
  email               extensions.citext not null,
  display_name        text,
  avatar_url          text,
  role                public.app_role not null default 'user',
  department          text,
  permissions         text[] not null default '{}',
  managed_permissions text[] not null default '{}',
  home_account_id     uuid references basejump.accounts (id) on delete set null,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  constraint users_email_key unique (email),
  constraint users_department_format check (department is null or department ~ '^[A-Z]{2,8}$'),
  constraint users_scoped_role_has_department check (role not in ('vp_admin', 'vs_staff') or department is not null)
);

create trigger users_set_timestamps
  before insert or update on public.users
  for each row execute procedure basejump.trigger_set_timestamps();

create or replace function basejump.run_new_user_setup()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
declare
  first_account_id uuid;
  generated_user_name text;
begin
  if new.email is not null then
    generated_user_name := split_part(new.email, '@', 1);
  end if;

  insert into basejump.accounts (name, primary_owner_user_id, personal_account, id)
  values (generated_user_name, new.id, true, new.id)
  returning id into first_account_id;

  insert into basejump.account_user (account_id, user_id, account_role)
  values (first_account_id, new.id, 'owner');

  insert into public.users (id, email, display_name, home_account_id)
  values (new.id, coalesce(new.email, new.id::text || '@users.invalid'), generated_user_name, first_account_id)
  on conflict (id) do nothing;

  return new;
end;
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute procedure basejump.run_new_user_setup();

create or replace function basejump.sync_user_email()
returns trigger
language plpgsql
security definer
set search_path = public
as $$
begin
  update public.users set email = new.email where id = new.id and new.email is not null;
  return new;
end;
$$;

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row
  when (old.email is distinct from new.email)
  execute procedure basejump.sync_user_email();

alter table public.users enable row level security;
