-- PR tickets (text ids handed to guests) and the shop.

create sequence public.pr_ticket_seq start 1001;

create table public.pr_tickets (
  id text primary key default ('PR-' || nextval('public.pr_ticket_seq')::text)
    check (id = btrim(id, E' \t\r\n') and char_length(id) between 3 and 40),
  submitter_id uuid references public.profiles (id) on delete set null,
  submitter_label text not null default 'guest',
  brief text not null default '' check (char_length(brief) <= 4000),
  file_url text check (file_url is null or file_url ~* '^https://'),
  status text not null default 'new' check (status in ('new', 'in_review', 'scheduled', 'published', 'rejected')),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create unique index pr_tickets_id_ci on public.pr_tickets (lower(id));

create trigger pr_tickets_touch before update on public.pr_tickets
  for each row execute function private.touch_updated_at();

create or replace function public.current_user_can_handle_pr()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('pr_staff', 'staff', 'dev', 'admin'), false)
      or (public.current_user_role() is not null and public.current_user_has_permission('pr'));
$$;

create or replace function private.guard_pr_ticket_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_allowed text[] := array['brief', 'file_url', 'updated_at'];
begin
  if (select auth.uid()) is null or current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if old.submitter_id = (select auth.uid()) and not public.current_user_can_handle_pr() then
    if (to_jsonb(new) - v_allowed) is distinct from (to_jsonb(old) - v_allowed) then
      raise exception 'pr_tickets: a submitter may only edit the brief and the file' using errcode = 'P0001';
    end if;
  end if;
  return new;
end;
$$;

create trigger pr_tickets_guard before update on public.pr_tickets
  for each row execute function private.guard_pr_ticket_update();

alter table public.pr_tickets enable row level security;

create policy "pr_tickets: submitter reads own" on public.pr_tickets
  for select to authenticated
  using (deleted_at is null and submitter_id = (select auth.uid()));
create policy "pr_tickets: handlers read" on public.pr_tickets
  for select to authenticated
  using (deleted_at is null and (select public.current_user_can_handle_pr()));
create policy "pr_tickets: signed-in file own" on public.pr_tickets
  for insert to authenticated
  with check (submitter_id = (select auth.uid()) and deleted_at is null and status = 'new');
create policy "pr_tickets: handlers file" on public.pr_tickets
  for insert to authenticated
  with check ((select public.current_user_can_handle_pr()));
create policy "pr_tickets: submitter edits own" on public.pr_tickets
  for update to authenticated
  using (deleted_at is null and submitter_id = (select auth.uid()))
  with check (deleted_at is null and submitter_id = (select auth.uid()));
create policy "pr_tickets: handlers edit" on public.pr_tickets
  for update to authenticated
  using (deleted_at is null and (select public.current_user_can_handle_pr()))
  with check (deleted_at is null and (select public.current_user_can_handle_pr()));
create policy "pr_tickets: staff handlers delete" on public.pr_tickets
  for delete to authenticated
  using ((select public.current_user_is_staff()) and (select public.current_user_can_handle_pr()));

grant select, insert, update, delete on public.pr_tickets to authenticated;
grant all on public.pr_tickets to service_role;
grant usage on sequence public.pr_ticket_seq to authenticated, service_role;

-- Guest lookup: trimmed, case-insensitive equality; % and _ are plain characters.
create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status, t.created_at
    from public.pr_tickets t
   where lower(t.id) = lower(btrim(p_id, E' \t\r\n'))
     and t.deleted_at is null;
$$;

create or replace function public.soft_delete_pr_ticket(p_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id text;
begin
  perform private.require_role();
  if not (public.current_user_is_staff() and public.current_user_can_handle_pr()) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets t set deleted_at = now() where t.id = p_id and t.deleted_at is null
  returning t.id into v_id;
  return v_id is not null;
end;
$$;

revoke execute on function public.soft_delete_pr_ticket(text) from public, anon;
grant execute on function public.soft_delete_pr_ticket(text) to authenticated;
grant execute on function public.get_pr_ticket_by_id(text), public.current_user_can_handle_pr() to anon, authenticated;

-- ---------------------------------------------------------------------------
-- Shop
-- ---------------------------------------------------------------------------

create type public.order_status as enum ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'cancelled', 'refunded');

create table public.shop_orders (
  id bigint generated always as identity primary key,
  order_no text generated always as ('ORD-' || lpad(id::text, 6, '0')) stored,
  buyer_id uuid not null references public.profiles (id) on delete cascade,
  status public.order_status not null default 'pending',
  subtotal numeric(10, 2) not null default 0 check (subtotal >= 0),
  fee numeric(10, 2) not null default 0 check (fee >= 0 and fee::text !~ '^-'),
  total numeric(10, 2) not null default 0 check (total >= 0),
  admin_note text,
  timeline jsonb not null default '[]'::jsonb check (jsonb_typeof(timeline) = 'array'),
  slip_url text,
  shipping_name text,
  shipping_phone text,
  shipping_address text,
  note text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index shop_orders_buyer on public.shop_orders (buyer_id);

create trigger shop_orders_touch before update on public.shop_orders
  for each row execute function private.touch_updated_at();

create or replace function public.current_user_can_handle_shop()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('staff', 'dev', 'admin'), false)
      or (public.current_user_role() is not null and public.current_user_has_permission('house'));
$$;

-- Rule 4: the buyer's allow-list; the status window is kept by the UPDATE policy.
create or replace function private.guard_shop_order_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_allowed text[] := array['slip_url', 'shipping_name', 'shipping_phone', 'shipping_address', 'note',
                            'status', 'updated_at', 'order_no'];
begin
  if (select auth.uid()) is null or current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if old.buyer_id = (select auth.uid()) and not public.current_user_can_handle_shop() then
    if (to_jsonb(new) - v_allowed) is distinct from (to_jsonb(old) - v_allowed) then
      raise exception 'shop_orders: a buyer may not change totals, notes or the timeline' using errcode = 'P0001';
    end if;
    if new.status = 'paid' and old.status is distinct from 'paid' then
      raise exception 'shop_orders: a buyer may not mark an order paid' using errcode = 'P0001';
    end if;
  end if;
  return new;
end;
$$;

create trigger shop_orders_guard before update on public.shop_orders
  for each row execute function private.guard_shop_order_update();

alter table public.shop_orders enable row level security;

create policy "shop_orders: buyer reads own" on public.shop_orders
  for select to authenticated using (buyer_id = (select auth.uid()));
create policy "shop_orders: handlers read" on public.shop_orders
  for select to authenticated using ((select public.current_user_can_handle_shop()));
create policy "shop_orders: buyer places own" on public.shop_orders
  for insert to authenticated
  with check (buyer_id = (select auth.uid()) and status = 'pending' and admin_note is null);
create policy "shop_orders: buyer edits own while open" on public.shop_orders
  for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'));
create policy "shop_orders: handlers edit" on public.shop_orders
  for update to authenticated
  using ((select public.current_user_can_handle_shop()))
  with check ((select public.current_user_can_handle_shop()));

grant select, insert, update on public.shop_orders to authenticated;
grant all on public.shop_orders to service_role;
grant execute on function public.current_user_can_handle_shop() to anon, authenticated;
