-- Private helpers: a schema the API roles cannot reach (rule 15), and the shared core of every
-- owner guard (rule 1): the columns that differ between two row images, minus an allow-list.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

create or replace function private.changed_columns(old_row jsonb, new_row jsonb, allowed text[])
returns text[]
language sql immutable
set search_path = ''
as $$
  select coalesce(array_agg(k order by k), '{}')
  from (
    select key as k from jsonb_each(old_row)
    union
    select key from jsonb_each(new_row)
  ) keys
  where not (k = any (allowed))
    and (old_row -> k) is distinct from (new_row -> k)
$$;

-- Rule 1: the one place an owner guard refuses: any column outside the allow-list changed.
create or replace function private.reject_outside_allow_list(old_row jsonb, new_row jsonb, allowed text[], table_name text, changer text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  changed text[] := private.changed_columns(old_row, new_row, allowed);
begin
  if cardinality(changed) > 0 then
    raise exception '%: % may not be changed by the %', table_name, array_to_string(changed, ', '), changer
      using errcode = 'P0001', hint = 'privileged column';
  end if;
end
$$;

-- updated_at is set by the server on every update; guards never compare it.
create or replace function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- Rule 15: Postgres grants EXECUTE to PUBLIC on every new function; nothing in private is for callers.
revoke execute on all functions in schema private from public;
alter default privileges in schema private revoke execute on functions from public;
