-- Append-only audit log, partitioned by month. Written only by definer triggers.

create table public.audit_events (
  id          bigint generated always as identity,
  occurred_at timestamptz not null default now(),
  actor_id    uuid,
  table_name  text not null,
  row_key     text not null,
  action      text not null,
  changes     jsonb not null default '{}'::jsonb,
  primary key (id, occurred_at),
  constraint audit_events_action check (action in ('insert', 'update', 'delete')),
  constraint audit_events_changes_object check (jsonb_typeof(changes) = 'object')
) partition by range (occurred_at);

create table public.audit_events_2026_h2 partition of public.audit_events
  for values from ('2026-07-01') to ('2027-01-01');
create table public.audit_events_2027_h1 partition of public.audit_events
  for values from ('2027-01-01') to ('2027-07-01');
create table public.audit_events_default partition of public.audit_events default;

alter table public.audit_events enable row level security;

create policy "admins read the audit log"
  on public.audit_events for select to authenticated
  using ((select public.current_user_is_admin()));

-- The partitions are reached only through the parent.
revoke all on public.audit_events_2026_h2, public.audit_events_2027_h1, public.audit_events_default
  from anon, authenticated;
revoke insert, update, delete, truncate on public.audit_events from anon, authenticated;

create or replace function public.audit_row_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_key text;
  v_changes jsonb;
begin
  v_key := coalesce(to_jsonb(new) ->> 'id', to_jsonb(old) ->> 'id', '');
  if tg_op = 'UPDATE' then
    select coalesce(jsonb_object_agg(n.key, n.value), '{}'::jsonb) into v_changes
      from jsonb_each(to_jsonb(new)) n
     where n.value is distinct from to_jsonb(old) -> n.key;
  else
    v_changes := '{}'::jsonb;
  end if;
  insert into public.audit_events (actor_id, table_name, row_key, action, changes)
  values (auth.uid(), tg_table_name, v_key, lower(tg_op), v_changes);
  return null;
end;
$$;

create or replace trigger vs_tickets_audit
  after insert or update or delete on public.vs_tickets
  for each row execute function public.audit_row_change();

create or replace trigger shop_orders_audit
  after insert or update or delete on public.shop_orders
  for each row execute function public.audit_row_change();

create or replace trigger users_audit
  after update on public.users
  for each row execute function public.audit_row_change();
