-- Public-relations (PR) requests and the shop.

create table public.pr_tickets (
  id text primary key
    default ('PR-' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 8)))
    check (id ~ '^PR-[A-Z0-9]{4,}$'),
  submitter_id uuid references public.profiles (id) on delete cascade,
  submitter_label text not null check (char_length(submitter_label) between 1 and 80),
  contact_email extensions.citext check (contact_email ~ '^[^@\s]+@[^@\s]+$'),
  brief text not null check (char_length(brief) between 1 and 4000),
  file_url text,
  status text not null default 'received'
    check (status in ('received', 'accepted', 'scheduled', 'published', 'rejected')),
  staff_note text,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger pr_tickets_updated_at
  before update on public.pr_tickets
  for each row execute procedure extensions.moddatetime (updated_at);

create or replace function public.can_delete_pr_ticket()
returns boolean
language sql
stable
set search_path = ''
as $$
  select public.current_user_is_staff() and public.can_handle_pr();
$$;

alter table public.pr_tickets enable row level security;

create policy "Guests submit PR requests"
  on public.pr_tickets for insert to anon
  with check (submitter_id is null and status = 'received' and staff_note is null
              and deleted_at is null);

create policy "Members submit PR requests"
  on public.pr_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and status = 'received'
              and staff_note is null and deleted_at is null);

create policy "Members read their PR requests"
  on public.pr_tickets for select to authenticated
  using (deleted_at is null and submitter_id = (select auth.uid()));

create policy "PR handlers read PR requests"
  on public.pr_tickets for select to authenticated
  using (deleted_at is null and (select public.can_handle_pr()));

create policy "Members edit their PR requests"
  on public.pr_tickets for update to authenticated
  using (deleted_at is null and submitter_id = (select auth.uid()))
  with check (deleted_at is null and submitter_id = (select auth.uid()));

create policy "PR handlers edit PR requests"
  on public.pr_tickets for update to authenticated
  using (deleted_at is null and (select public.can_handle_pr()))
  with check (deleted_at is null and (select public.can_handle_pr()));

create policy "PR staff delete PR requests"
  on public.pr_tickets for delete to authenticated
  using ((select public.can_delete_pr_ticket()));

create or replace function public.guard_pr_ticket_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed text[] := array['brief', 'file_url', 'contact_email', 'updated_at'];
begin
  if (select auth.uid()) is null
     or public.can_handle_pr()
     or old.submitter_id is distinct from (select auth.uid()) then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'you can only edit the brief, file and contact of your request'
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger pr_tickets_guard
  before update on public.pr_tickets
  for each row execute procedure public.guard_pr_ticket_update();

grant insert on table public.pr_tickets to anon;
grant select, insert, update, delete on table public.pr_tickets to authenticated;

-- Guest tracking: case-insensitive exact match on the trimmed id (never a pattern).
-- The staff note stays with staff: the guest sees the request as filed and its status.
create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status text,
               created_at timestamptz, updated_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status, t.created_at, t.updated_at
    from public.pr_tickets t
   where upper(t.id) = upper(btrim(p_id))
     and t.deleted_at is null;
$$;

create or replace function public.soft_delete_pr_ticket(p_id text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if (select auth.uid()) is null or public.current_user_role() is null
     or not public.can_delete_pr_ticket() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets
     set deleted_at = now()
   where id = p_id and deleted_at is null;
  if not found then
    raise exception 'request not found' using errcode = 'P0002';
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- Shop
-- ---------------------------------------------------------------------------------------------
create table public.shop_orders (
  id bigint generated always as identity primary key,
  buyer_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  status text not null default 'pending'
    check (status in ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'cancelled')),
  subtotal numeric(10, 2) not null check (subtotal >= 0),
  fee numeric(10, 2) not null default 0 check (fee >= 0),
  total numeric(10, 2) not null,
  details jsonb not null default '{}'::jsonb check (jsonb_typeof(details) = 'object'),
  slip_paths text[] not null default '{}',
  admin_note text,
  timeline jsonb not null default '[]'::jsonb check (jsonb_typeof(timeline) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint shop_orders_total_matches check (total = subtotal + fee)
);

-- One open cart per buyer.
create unique index shop_orders_one_pending_per_buyer
  on public.shop_orders (buyer_id) where status = 'pending';

create trigger shop_orders_updated_at
  before update on public.shop_orders
  for each row execute procedure extensions.moddatetime (updated_at);

alter table public.shop_orders enable row level security;

create policy "Buyers read their orders"
  on public.shop_orders for select to authenticated
  using (buyer_id = (select auth.uid()));

create policy "Shop staff read orders"
  on public.shop_orders for select to authenticated
  using ((select public.can_handle_shop()));

create policy "Buyers place orders"
  on public.shop_orders for insert to authenticated
  with check (buyer_id = (select auth.uid()) and status = 'pending'
              and admin_note is null and timeline = '[]'::jsonb);

create policy "Buyers edit open orders"
  on public.shop_orders for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch', 'cancelled'));

create policy "Shop staff edit orders"
  on public.shop_orders for update to authenticated
  using ((select public.can_handle_shop()))
  with check ((select public.can_handle_shop()));

create policy "Admins delete orders"
  on public.shop_orders for delete to authenticated
  using ((select public.current_user_is_admin()));

create or replace function public.guard_shop_order_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  allowed text[] := array['details', 'slip_paths', 'status', 'updated_at'];
begin
  if (select auth.uid()) is null
     or public.can_handle_shop()
     or old.buyer_id is distinct from (select auth.uid()) then
    return new;
  end if;
  if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
    raise exception 'buyers can only change order details and payment slips'
      using errcode = '42501';
  end if;
  -- A buyer moves an order to review (slip attached) or cancels it; never to paid.
  if new.status is distinct from old.status and new.status not in ('review', 'cancelled') then
    raise exception 'buyers cannot set an order to %', new.status using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger shop_orders_guard
  before update on public.shop_orders
  for each row execute procedure public.guard_shop_order_update();

grant select, insert, update, delete on table public.shop_orders to authenticated;

-- Payment slips: private bucket, one folder per buyer (<uid>/<order id>/<file>).
insert into storage.buckets (id, name, public)
values ('payment-slips', 'payment-slips', false)
on conflict (id) do nothing;

create policy "Buyers upload slips to their folder"
  on storage.objects for insert to authenticated
  with check (bucket_id = 'payment-slips'
              and (storage.foldername(name))[1] = (select auth.uid())::text);

create policy "Buyers read their slips"
  on storage.objects for select to authenticated
  using (bucket_id = 'payment-slips'
         and ((storage.foldername(name))[1] = (select auth.uid())::text
              or (select public.can_handle_shop())));

create policy "Buyers remove their slips"
  on storage.objects for delete to authenticated
  using (bucket_id = 'payment-slips'
         and (storage.foldername(name))[1] = (select auth.uid())::text);
