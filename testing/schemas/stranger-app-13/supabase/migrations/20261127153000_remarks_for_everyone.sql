-- Fixes for what the second policyfuzz run found: the remarks of a VS ticket are append-only and
-- capped for every writer (rule 3, section 8), not for submitters only as the first version had it.

alter table public.vs_tickets
  add constraint vs_tickets_remarks_cap check (pg_catalog.jsonb_array_length(remarks) <= 50);

create or replace function authz.guard_vs_remarks_append_only()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_old_len integer := pg_catalog.jsonb_array_length(old.remarks);
begin
  if authz.uid() is null or new.remarks is not distinct from old.remarks then
    return new;
  end if;
  if pg_catalog.jsonb_typeof(new.remarks) <> 'array'
     or pg_catalog.jsonb_array_length(new.remarks) < v_old_len
     or (select pg_catalog.jsonb_agg(e order by i)
           from pg_catalog.jsonb_array_elements(new.remarks) with ordinality as x(e, i)
          where i <= v_old_len) is distinct from (case when v_old_len = 0 then null else old.remarks end) then
    raise exception 'vs_tickets: remarks are append-only' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger vs_tickets_guard_remarks before update of remarks on public.vs_tickets
  for each row execute function authz.guard_vs_remarks_append_only();
