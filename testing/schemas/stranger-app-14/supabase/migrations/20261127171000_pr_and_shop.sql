-- PR requests (publicity work orders) and the merch shop.
create or replace function app.new_pr_id()
returns text
language sql
volatile
set search_path = ''
as $$
  select 'PR-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 8))
$$;

create table public.pr_tickets (
  id text primary key default app.new_pr_id() check (id ~ '^PR-[A-Z0-9]{4,12}$'),
  org_id uuid not null default app.jwt_org_id() references public.orgs (id),
  submitter_id uuid not null default auth.uid() references public.users (id) on delete cascade,
  submitter_label text not null check (char_length(submitter_label) between 1 and 80),
  brief text not null check (char_length(brief) between 10 and 5000),
  file_url text check (file_url ~ '^https://[^[:space:]]+$'),
  due_on date,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index pr_tickets_submitter_idx on public.pr_tickets (submitter_id);

create or replace function app.can_handle_pr()
returns boolean
language sql
stable
set search_path = ''
as $$
  select app.has_role('pr_staff', 'admin', 'dev') or public.current_user_has_permission('pr')
$$;
grant execute on function app.can_handle_pr() to anon, authenticated;

create or replace function app.guard_pr_ticket()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not app.is_api_caller() or app.can_handle_pr() then
    return new;
  end if;
  if (to_jsonb(new) - array['brief', 'file_url', 'due_on', 'updated_at'])
     is distinct from (to_jsonb(old) - array['brief', 'file_url', 'due_on', 'updated_at']) then
    raise exception 'only the brief, file and due date of your request can change' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger pr_tickets_guard before update on public.pr_tickets
  for each row execute function app.guard_pr_ticket();
create trigger pr_tickets_touch before update on public.pr_tickets
  for each row execute function app.touch_updated_at();

alter table public.pr_tickets enable row level security;

create policy "tenant isolation" on public.pr_tickets
  as restrictive for all to authenticated
  using (org_id = (select app.jwt_org_id()))
  with check (org_id = (select app.jwt_org_id()));
create policy "deleted requests are gone" on public.pr_tickets
  as restrictive for select to authenticated
  using (deleted_at is null);
create policy "submitters read own" on public.pr_tickets
  for select to authenticated using (submitter_id = (select auth.uid()));
create policy "pr handlers read all" on public.pr_tickets
  for select to authenticated using ((select app.can_handle_pr()));
create policy "members file requests" on public.pr_tickets
  for insert to authenticated
  with check (submitter_id = (select auth.uid()) and deleted_at is null);
create policy "submitters edit own" on public.pr_tickets
  for update to authenticated
  using (submitter_id = (select auth.uid())) with check (submitter_id = (select auth.uid()));
create policy "pr handlers edit" on public.pr_tickets
  for update to authenticated
  using ((select app.can_handle_pr())) with check ((select app.can_handle_pr()));
create policy "pr handlers delete" on public.pr_tickets
  for delete to authenticated using ((select app.can_handle_pr()));

grant select, insert, update, delete on public.pr_tickets to authenticated;
revoke all on public.pr_tickets from anon;

-- ---------------------------------------------------------------------------------------------
-- Shop
-- ---------------------------------------------------------------------------------------------
create type public.order_status as enum (
  'pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled'
);

create table public.shop_orders (
  id bigint generated always as identity primary key,
  org_id uuid not null default app.jwt_org_id() references public.orgs (id),
  buyer_id uuid not null default auth.uid() references public.users (id) on delete cascade,
  status public.order_status not null default 'pending',
  subtotal numeric(10, 2) not null check (subtotal >= 0),
  fee numeric(10, 2) not null default 0 check (fee >= 0),
  total numeric(10, 2) not null,
  slip_urls text[] not null default '{}',
  recipient_name text check (char_length(recipient_name) <= 120),
  recipient_phone text check (recipient_phone ~ '^0[0-9]{8,9}$'),
  shipping_address text,
  admin_note text,
  timeline jsonb not null default '[]'::jsonb check (jsonb_typeof(timeline) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint shop_orders_total_adds_up check (total = subtotal + fee)
);
create index shop_orders_buyer_idx on public.shop_orders (buyer_id);

create or replace function app.is_shop_staff()
returns boolean
language sql
stable
set search_path = ''
as $$
  select app.has_role('staff', 'admin', 'dev') or public.current_user_has_permission('house')
$$;
grant execute on function app.is_shop_staff() to anon, authenticated;

-- Buyers: slips and their own delivery details; the status only between the waiting states.
create or replace function app.guard_shop_order()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  buyer_fields constant text[] := array[
    'slip_urls', 'recipient_name', 'recipient_phone', 'shipping_address', 'status', 'updated_at'];
begin
  if not app.is_api_caller() or app.is_shop_staff() then
    return new;
  end if;
  if (to_jsonb(new) - buyer_fields) is distinct from (to_jsonb(old) - buyer_fields) then
    raise exception 'only payment slips and delivery details can be changed on your order'
      using errcode = '42501';
  end if;
  if new.status is distinct from old.status
     and new.status not in ('pending', 'review') then
    raise exception 'an order cannot be moved to % by its buyer', new.status using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger shop_orders_guard before update on public.shop_orders
  for each row execute function app.guard_shop_order();
create trigger shop_orders_touch before update on public.shop_orders
  for each row execute function app.touch_updated_at();

alter table public.shop_orders enable row level security;

create policy "tenant isolation" on public.shop_orders
  as restrictive for all to authenticated
  using (org_id = (select app.jwt_org_id()))
  with check (org_id = (select app.jwt_org_id()));
create policy "buyers read own" on public.shop_orders
  for select to authenticated using (buyer_id = (select auth.uid()));
create policy "shop staff read" on public.shop_orders
  for select to authenticated using ((select app.is_shop_staff()));
create policy "buyers place orders" on public.shop_orders
  for insert to authenticated
  with check (buyer_id = (select auth.uid()) and status = 'pending' and admin_note is null);
create policy "buyers edit unpaid orders" on public.shop_orders
  for update to authenticated
  using (buyer_id = (select auth.uid()) and status <> 'paid')
  with check (buyer_id = (select auth.uid()) and status <> 'paid');
create policy "shop staff edit" on public.shop_orders
  for update to authenticated
  using ((select app.is_shop_staff())) with check ((select app.is_shop_staff()));

grant select, insert, update on public.shop_orders to authenticated;
revoke all on public.shop_orders from anon;
