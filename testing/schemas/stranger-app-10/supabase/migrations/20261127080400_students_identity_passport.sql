-- Student records and change requests, identity conflicts, the passport schema, and the audit log.

-- ---------------------------------------------------------------- student records
create table public.student_records (
  user_id    uuid primary key references public.users (id) on delete cascade,
  org_id     uuid not null references public.orgs (id),
  student_id text not null unique check (student_id ~ '^[0-9]{9,10}(-[0-9])?$'),
  full_name  text not null,
  faculty    text,
  major      text,
  year       smallint check (year between 1 and 8),
  updated_at timestamptz not null default now()
);

create type public.change_verdict as enum ('pending', 'approved', 'rejected');

create table public.student_change_requests (
  id              bigint generated always as identity primary key,
  org_id          uuid not null references public.orgs (id),
  user_id         uuid not null references public.users (id) on delete cascade,
  field           text not null check (field in ('full_name', 'faculty', 'major', 'year')),
  requested_value text not null,
  verdict         public.change_verdict not null default 'pending',
  admin_note      text,
  applied_value   text,
  decided_by      uuid references public.users (id),
  decided_at      timestamptz,
  created_at      timestamptz not null default now()
);
create index student_change_requests_user_idx on public.student_change_requests (user_id, created_at desc);

alter table public.student_records enable row level security;
alter table public.student_change_requests enable row level security;

-- Admin-only tables (rule 18): students read their record and outcomes through the RPC.
grant select, insert, update on public.student_records to authenticated;
grant select, update on public.student_change_requests to authenticated;

create policy student_records_tenant on public.student_records as restrictive for all to authenticated
  using (org_id = (select private.jwt_org_id()))
  with check (org_id = (select private.jwt_org_id()));
create policy student_records_admin on public.student_records for all to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy change_requests_tenant on public.student_change_requests as restrictive for all to authenticated
  using (org_id = (select private.jwt_org_id()))
  with check (org_id = (select private.jwt_org_id()));
create policy change_requests_admin on public.student_change_requests for all to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create or replace function public.get_my_student_record()
returns jsonb
language plpgsql stable
security definer
set search_path = ''
as $$
declare v_record jsonb; v_requests jsonb;
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select to_jsonb(r) - 'org_id' into v_record
    from public.student_records r where r.user_id = auth.uid();
  select coalesce(jsonb_agg(x order by x.created_at desc), '[]'::jsonb) into v_requests
    from (select c.id, c.field, c.requested_value, c.verdict, c.admin_note, c.applied_value,
                 c.decided_at, c.created_at
            from public.student_change_requests c
           where c.user_id = auth.uid()
           order by c.created_at desc, c.id desc
           limit 10) x;
  return jsonb_build_object('record', v_record, 'requests', v_requests);
end;
$$;

create or replace function public.request_student_change(p_field text, p_value text)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare v_id bigint; v_org uuid;
begin
  if (select auth.uid()) is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select r.org_id into v_org from public.student_records r where r.user_id = auth.uid();
  if v_org is null then
    raise exception 'no student record' using errcode = 'P0002';
  end if;
  insert into public.student_change_requests (org_id, user_id, field, requested_value)
  values (v_org, auth.uid(), p_field, p_value)
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function public.get_my_student_record(), public.request_student_change(text, text)
  from public, anon, authenticated;
grant execute on function public.get_my_student_record(), public.request_student_change(text, text)
  to authenticated;

-- ---------------------------------------------------------------- identity
create table public.people (
  id         bigint generated always as identity primary key,
  user_id    uuid unique references public.users (id) on delete set null,
  student_id text unique,
  full_name  text not null
);

create table public.identity_conflicts (
  id          bigint generated always as identity primary key,
  person_id   bigint not null references public.people (id) on delete cascade,
  source      text not null,
  details     jsonb not null default '{}',
  resolved_at timestamptz,
  created_at  timestamptz not null default now()
);

create or replace function public.my_person_id()
returns bigint
language sql stable
security definer
set search_path = ''
as $$
  select p.id from public.people p where p.user_id = (select auth.uid())
$$;
revoke execute on function public.my_person_id() from public, anon, authenticated;
grant execute on function public.my_person_id() to authenticated;

alter table public.people enable row level security;
alter table public.identity_conflicts enable row level security;

grant select on public.people to authenticated;
grant select, update on public.identity_conflicts to authenticated;

create policy people_self_or_admin on public.people for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create policy identity_conflicts_read on public.identity_conflicts for select to authenticated
  using ((select private.is_admin()) or person_id = (select public.my_person_id()));
create policy identity_conflicts_admin_update on public.identity_conflicts for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

-- ---------------------------------------------------------------- passport
create schema if not exists passport;
grant usage on schema passport to anon, authenticated;
alter default privileges in schema passport revoke execute on functions from public, anon, authenticated;

create type passport.tier as enum ('bronze', 'silver', 'gold', 'platinum');

create table passport.profiles (
  user_id     uuid primary key references public.users (id) on delete cascade,
  student_id  text,
  nickname    text,
  faculty     text,
  bio         text,
  points      integer not null default 0 check (points >= 0),
  created_at  timestamptz not null default now()
);

create table passport.activities (
  id          bigint generated always as identity primary key,
  user_id     uuid not null references public.users (id) on delete cascade,
  title       text not null,
  points      integer not null check (points between 0 and 1000),
  occurred_on date not null default current_date
);

alter table passport.profiles enable row level security;
alter table passport.activities enable row level security;

grant select on passport.profiles, passport.activities to authenticated;
grant update (nickname, bio) on passport.profiles to authenticated;

create policy profiles_owner_or_admin on passport.profiles for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));
create policy profiles_owner_update on passport.profiles for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
create policy activities_owner_or_admin on passport.activities for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

-- Runs as the caller so the profiles policy narrows it (rule 19).
create view passport.user_tiers with (security_invoker = true) as
  select p.user_id, p.nickname, p.points,
         case when p.points >= 1000 then 'platinum'::passport.tier
              when p.points >= 500 then 'gold'::passport.tier
              when p.points >= 200 then 'silver'::passport.tier
              else 'bronze'::passport.tier end as tier
    from passport.profiles p;
grant select on passport.user_tiers to authenticated;

create or replace function passport.admin_leaderboard()
returns table (user_id uuid, nickname text, points integer, tier passport.tier)
language plpgsql stable
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or not private.is_admin() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  return query
    select t.user_id, t.nickname, t.points, t.tier
      from passport.user_tiers t
      join public.users u on u.id = t.user_id
     where u.org_id = private.jwt_org_id()
     order by t.points desc
     limit 100;
end;
$$;
revoke execute on function passport.admin_leaderboard() from public, anon, authenticated;
grant execute on function passport.admin_leaderboard() to anon, authenticated;

-- ---------------------------------------------------------------- audit (append-only, partitioned)
create table private.audit_log (
  id         bigint generated always as identity,
  at         timestamptz not null default now(),
  actor_id   uuid default auth.uid(),
  table_name text not null,
  op         text not null check (op in ('INSERT', 'UPDATE', 'DELETE')),
  row_id     text,
  diff       jsonb,
  primary key (id, at)
) partition by range (at);
create table private.audit_log_2026 partition of private.audit_log
  for values from ('2026-01-01') to ('2027-01-01');
create table private.audit_log_default partition of private.audit_log default;

revoke all on private.audit_log from public, anon, authenticated;

create or replace function private.audit_row()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.audit_log (table_name, op, row_id, diff)
  values (tg_table_name, tg_op,
          coalesce(to_jsonb(new) ->> 'id', to_jsonb(old) ->> 'id'),
          case tg_op
            when 'UPDATE' then jsonb_build_object('old', to_jsonb(old), 'new', to_jsonb(new))
            when 'DELETE' then to_jsonb(old)
            else to_jsonb(new) end);
  return null;
end;
$$;

-- Append-only: no one updates or deletes history, not even the owner role by mistake.
create or replace function private.audit_is_append_only()
returns trigger language plpgsql set search_path = '' as $$
begin
  raise exception 'audit_log is append-only' using errcode = '42501';
end;
$$;
create trigger audit_log_no_update before update or delete on private.audit_log_2026
  for each row execute function private.audit_is_append_only();
create trigger audit_log_default_no_update before update or delete on private.audit_log_default
  for each row execute function private.audit_is_append_only();

create trigger users_audit after update of role, department, permissions, managed_permissions
  on public.users for each row execute function private.audit_row();
create trigger vs_tickets_audit after update of target_dept, duplicate_of, is_public, deleted_at
  on public.vs_tickets for each row execute function private.audit_row();
create trigger pr_tickets_audit after update of deleted_at, status
  on public.pr_tickets for each row execute function private.audit_row();
create trigger shop_orders_audit after update of status, subtotal, fee
  on public.shop_orders for each row execute function private.audit_row();
create trigger student_change_requests_audit after update
  on public.student_change_requests for each row execute function private.audit_row();
