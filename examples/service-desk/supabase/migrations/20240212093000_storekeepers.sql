-- The shop is run by storekeepers; auditors read everything and change nothing.
alter table public.users drop constraint users_role_check;
alter table public.users add constraint users_role_check
  check (role in ('requester', 'agent', 'lead', 'storekeeper', 'auditor', 'admin'));

create or replace function internal.caller_is_agent() returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(internal.caller_role() in ('agent', 'lead', 'storekeeper', 'admin'), false)
$$;

create function internal.caller_runs_the_shop() returns boolean
language sql stable security definer set search_path = public as $$
  select internal.caller_role() is not null
     and (internal.caller_role() in ('storekeeper', 'admin') or internal.caller_holds('shop'))
$$;
