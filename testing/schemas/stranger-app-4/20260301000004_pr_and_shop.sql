-- PR tickets (text ids with a generated default) and shop orders (uuid_generate_v4 keys, an enum
-- status, a jsonb details column with a CHECK on its keys, payment slips as an array).

create type public.pr_status as enum ('new', 'reviewing', 'answered', 'closed');

create table public.pr_tickets (
  id text primary key
    default 'PR-' || upper(substr(replace(extensions.uuid_generate_v4()::text, '-', ''), 1, 8)),
  submitter_id uuid not null references public.profiles (id) on delete cascade,
  submitter_label text not null default 'anonymous',
  brief text not null check (char_length(brief) <= 4000),
  file_url text,
  status public.pr_status not null default 'new',
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger pr_touch before update on public.pr_tickets
  for each row execute function public.touch_updated_at();

create function public.pr_tickets_guard() returns trigger
language plpgsql as $$
declare
  v_changed text[];
begin
  if (select auth.uid()) is null or public.guard_bypassed() then
    return new;
  end if;
  if new.deleted_at is distinct from old.deleted_at then
    raise exception 'pr_tickets: deleted_at changes through soft_delete_pr_ticket only'
      using errcode = '42501';
  end if;
  if old.submitter_id = (select auth.uid()) and not public.can_handle_pr() and not public.is_admin() then
    v_changed := public.changed_columns(to_jsonb(old), to_jsonb(new),
      array['brief', 'file_url', 'updated_at']);
    if cardinality(v_changed) > 0 then
      raise exception 'pr_tickets: a submitter may not change %', array_to_string(v_changed, ', ')
        using errcode = '42501';
    end if;
  end if;
  return new;
end $$;

create trigger pr_tickets_guard before update on public.pr_tickets
  for each row execute function public.pr_tickets_guard();

alter table public.pr_tickets enable row level security;

create policy pr_read on public.pr_tickets for select to authenticated
  using (deleted_at is null and (submitter_id = (select auth.uid()) or public.can_handle_pr()));
create policy pr_insert on public.pr_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and deleted_at is null
              and public.current_user_role() is not null);
create policy pr_update on public.pr_tickets for update to authenticated
  using (deleted_at is null and (submitter_id = (select auth.uid()) or public.can_handle_pr()))
  with check (submitter_id = (select auth.uid()) or public.can_handle_pr());
create policy pr_delete on public.pr_tickets for delete to authenticated
  using (public.current_user_is_staff() and public.can_handle_pr());

grant select, insert, update, delete on public.pr_tickets to authenticated;
grant all on public.pr_tickets to service_role;

-- Guest lookup (rule 14): equality after trim and lower-casing, never a pattern.
create function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status public.pr_status,
               created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status, t.created_at
  from public.pr_tickets t
  where lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n')) and t.deleted_at is null
$$;

create function public.soft_delete_pr_ticket(p_id text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if public.current_user_role() is null or not (public.current_user_is_staff() and public.can_handle_pr()) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  perform set_config('app.guard_bypass', 'on', true);
  update public.pr_tickets set deleted_at = now() where id = p_id and deleted_at is null;
  if not found then
    raise exception 'NOT_FOUND' using errcode = 'P0002';
  end if;
  perform set_config('app.guard_bypass', '', true);
end $$;

grant execute on function public.get_pr_ticket_by_id(text) to anon, authenticated;
grant execute on function public.soft_delete_pr_ticket(text) to authenticated;

-- ---------------------------------------------------------------- shop

create type public.order_status as enum
  ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled');

create table public.shop_orders (
  id uuid primary key default extensions.uuid_generate_v4(),
  buyer_id uuid not null references public.profiles (id) on delete cascade,
  status public.order_status not null default 'pending',
  subtotal integer not null default 0 check (subtotal >= 0),
  fee integer not null default 0 check (fee >= 0),
  total integer not null default 0 check (total >= 0),
  slip_urls text[] not null default '{}',
  details jsonb not null default '{}'
    check (jsonb_typeof(details) = 'object' and not (details ?| array['total', 'status', 'paid'])),
  admin_note text,
  timeline jsonb not null default '[]' check (jsonb_typeof(timeline) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger shop_touch before update on public.shop_orders
  for each row execute function public.touch_updated_at();
create trigger shop_audit after insert or update or delete on public.shop_orders
  for each row execute function public.write_audit();

create function public.shop_orders_guard() returns trigger
language plpgsql as $$
declare
  v_changed text[];
begin
  if (select auth.uid()) is null or public.can_manage_shop() then
    return new;
  end if;
  if old.buyer_id = (select auth.uid()) then
    v_changed := public.changed_columns(to_jsonb(old), to_jsonb(new),
      array['slip_urls', 'details', 'status', 'updated_at']);
    if cardinality(v_changed) > 0 then
      raise exception 'shop_orders: a buyer may not change %', array_to_string(v_changed, ', ')
        using errcode = '42501';
    end if;
    if new.status is distinct from old.status and new.status not in ('pending', 'review', 'slip_mismatch') then
      raise exception 'shop_orders: a buyer may not set status %', new.status using errcode = '42501';
    end if;
  end if;
  return new;
end $$;

create trigger shop_orders_guard before update on public.shop_orders
  for each row execute function public.shop_orders_guard();

alter table public.shop_orders enable row level security;

create policy shop_read on public.shop_orders for select to authenticated
  using (buyer_id = (select auth.uid()) or public.can_manage_shop());
create policy shop_insert on public.shop_orders for insert to authenticated
  with check ((buyer_id = (select auth.uid()) and status = 'pending') or public.can_manage_shop());
-- rule 4: the buyer's window
create policy shop_update on public.shop_orders for update to authenticated
  using ((buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
         or public.can_manage_shop())
  with check (buyer_id = (select auth.uid()) or public.can_manage_shop());
create policy shop_delete on public.shop_orders for delete to authenticated
  using (public.can_manage_shop());

grant select, insert, update, delete on public.shop_orders to authenticated;
grant all on public.shop_orders to service_role;
