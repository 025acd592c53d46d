-- PR tickets (public relations requests) and the shop.

-- ---------------------------------------------------------------- PR tickets
create type public.pr_status as enum ('submitted', 'accepted', 'in_progress', 'done', 'rejected');

create table public.pr_tickets (
  -- Human-readable code handed to guests; looked up case-insensitively after trimming (rule 14).
  id              text primary key
                  default ('PR-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 8)))
                  check (id ~ '^PR-[A-Z0-9]{4,16}$'),
  org_id          uuid not null default private.jwt_org_id() references public.orgs (id),
  submitter_id    uuid not null default auth.uid() references public.users (id) on delete cascade,
  submitter_label text not null,
  brief           text not null check (char_length(brief) between 1 and 5000),
  file_url        text check (file_url is null or file_url ~ '^https://'),
  status          public.pr_status not null default 'submitted',
  staff_note      text,
  deleted_at      timestamptz,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now()
);
create index pr_tickets_org_idx on public.pr_tickets (org_id) where deleted_at is null;
create index pr_tickets_submitter_idx on public.pr_tickets (submitter_id);
create unique index pr_tickets_id_ci on public.pr_tickets (upper(id));

create trigger pr_tickets_touch before update on public.pr_tickets
  for each row execute function private.touch_updated_at();

-- Guard (rule 1): whole row minus the submitter's allow-list.
create or replace function private.pr_tickets_submitter_guard()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or private.can_handle_pr() then
    return new;
  end if;
  if (to_jsonb(new) - array['brief', 'file_url', 'submitter_label', 'updated_at'])
     is distinct from (to_jsonb(old) - array['brief', 'file_url', 'submitter_label', 'updated_at']) then
    raise exception 'submitters may only edit brief, file_url and label' using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger pr_tickets_guard before update on public.pr_tickets
  for each row execute function private.pr_tickets_submitter_guard();

alter table public.pr_tickets enable row level security;

grant select, delete on public.pr_tickets to authenticated;
grant insert (submitter_label, brief, file_url) on public.pr_tickets to authenticated;
grant update (submitter_label, brief, file_url, status, staff_note) on public.pr_tickets to authenticated;

create policy pr_tenant on public.pr_tickets as restrictive for all to authenticated
  using (org_id = (select private.jwt_org_id()))
  with check (org_id = (select private.jwt_org_id()));
create policy pr_not_deleted on public.pr_tickets as restrictive for select to authenticated
  using (deleted_at is null);

create policy pr_select_own on public.pr_tickets for select to authenticated
  using (submitter_id = (select auth.uid()));
create policy pr_select_handler on public.pr_tickets for select to authenticated
  using ((select private.can_handle_pr()));
create policy pr_insert_own on public.pr_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and status = 'submitted');
create policy pr_update_own on public.pr_tickets for update to authenticated
  using (submitter_id = (select auth.uid()) and status = 'submitted')
  with check (submitter_id = (select auth.uid()));
create policy pr_update_handler on public.pr_tickets for update to authenticated
  using ((select private.can_handle_pr()))
  with check ((select private.can_handle_pr()));

create or replace function private.can_delete_pr_ticket()
returns boolean language sql stable set search_path = '' as $$
  select public.current_user_is_staff() and private.can_handle_pr()
$$;
revoke execute on function private.can_delete_pr_ticket() from public, anon, authenticated;
grant execute on function private.can_delete_pr_ticket() to authenticated;

create policy pr_delete_staff on public.pr_tickets for delete to authenticated
  using ((select private.can_delete_pr_ticket()));

create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (id text, status public.pr_status, submitter_label text, brief text,
               created_at timestamptz, updated_at timestamptz)
language sql stable
security definer
set search_path = ''
as $$
  select t.id, t.status, t.submitter_label, t.brief, t.created_at, t.updated_at
    from public.pr_tickets t
   where upper(t.id) = upper(btrim(p_id))
     and t.deleted_at is null
$$;

create or replace function public.soft_delete_pr_ticket(p_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if public.current_user_role() is null or not private.can_delete_pr_ticket() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets
     set deleted_at = now()
   where id = p_id and deleted_at is null and org_id = private.jwt_org_id();
  if not found then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
end;
$$;

revoke execute on function public.get_pr_ticket_by_id(text), public.soft_delete_pr_ticket(text)
  from public, anon, authenticated;
grant execute on function public.get_pr_ticket_by_id(text) to anon, authenticated;
grant execute on function public.soft_delete_pr_ticket(text) to authenticated;

-- ---------------------------------------------------------------- shop
create type public.order_status as enum
  ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled');

create table public.shop_orders (
  id               bigint generated always as identity primary key,
  org_id           uuid not null default private.jwt_org_id() references public.orgs (id),
  buyer_id         uuid not null default auth.uid() references public.users (id) on delete cascade,
  status           public.order_status not null default 'pending',
  items            jsonb not null default '[]' check (jsonb_typeof(items) = 'array'),
  subtotal         numeric(12, 2) not null default 0 check (subtotal >= 0),
  fee              numeric(12, 2) not null default 0 check (fee >= 0),
  total            numeric(12, 2) generated always as (subtotal + fee) stored,
  slip_paths       text[] not null default '{}',
  recipient_name   text,
  shipping_address text,
  contact_phone    text,
  buyer_note       text,
  admin_note       text,
  timeline         jsonb not null default '[]' check (jsonb_typeof(timeline) = 'array'),
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now()
);
create index shop_orders_org_status_idx on public.shop_orders (org_id, status);
create index shop_orders_buyer_idx on public.shop_orders (buyer_id);

create trigger shop_orders_touch before update on public.shop_orders
  for each row execute function private.touch_updated_at();

-- Buyer guard (rule 4). Column grants can't tell a buyer from shop staff (both are
-- `authenticated`), so the money and staff columns are compared here.
create or replace function private.shop_orders_buyer_guard()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or private.can_handle_shop() then
    return new;
  end if;
  if (to_jsonb(new) - array['slip_paths', 'recipient_name', 'shipping_address', 'contact_phone',
                             'buyer_note', 'status', 'updated_at', 'total'])
     is distinct from
     (to_jsonb(old) - array['slip_paths', 'recipient_name', 'shipping_address', 'contact_phone',
                             'buyer_note', 'status', 'updated_at', 'total']) then
    raise exception 'buyers may not change amounts, notes or the timeline' using errcode = '42501';
  end if;
  -- A buyer submits for review (or stays pending); every other move is the shop's.
  if new.status is distinct from old.status and new.status not in ('pending', 'review') then
    raise exception 'buyers may not set status %', new.status using errcode = '42501';
  end if;
  return new;
end;
$$;
create trigger shop_orders_guard before update on public.shop_orders
  for each row execute function private.shop_orders_buyer_guard();

alter table public.shop_orders enable row level security;

grant select on public.shop_orders to authenticated;
grant insert (items, subtotal, fee, recipient_name, shipping_address, contact_phone, buyer_note)
  on public.shop_orders to authenticated;
grant update (status, slip_paths, recipient_name, shipping_address, contact_phone, buyer_note,
              subtotal, fee, admin_note, timeline)
  on public.shop_orders to authenticated;

create policy shop_tenant on public.shop_orders as restrictive for all to authenticated
  using (org_id = (select private.jwt_org_id()))
  with check (org_id = (select private.jwt_org_id()));

create policy shop_select_buyer on public.shop_orders for select to authenticated
  using (buyer_id = (select auth.uid()));
create policy shop_select_staff on public.shop_orders for select to authenticated
  using ((select private.can_handle_shop()));

create policy shop_insert_buyer on public.shop_orders for insert to authenticated
  with check (buyer_id = (select auth.uid()) and status = 'pending');

create policy shop_update_buyer on public.shop_orders for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'));
create policy shop_update_staff on public.shop_orders for update to authenticated
  using ((select private.can_handle_shop()))
  with check ((select private.can_handle_shop()));
