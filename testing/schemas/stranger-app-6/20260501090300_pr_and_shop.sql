-- PR tickets (text ids `PR-…`) and shop orders (bigint identity, enum status).

create table private.pr_tickets (
  id text primary key
    default ('PR-' || upper(substr(encode(extensions.gen_random_bytes(6), 'hex'), 1, 8)))
    check (id = btrim(id) and id <> ''),
  submitter_id uuid references private.users (id) on delete restrict,
  submitter_label text,
  brief text not null default '',
  file_url text check (file_url is null or file_url ~ '^https://'),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table private.pr_tickets enable row level security;
-- ids compare case-insensitively, so two ids differing in case only cannot both exist
create unique index pr_tickets_id_ci_key on private.pr_tickets (lower(id));

create function private.pr_tickets_guard() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  bad text[];
begin
  if auth.uid() is null then
    return new;
  end if;
  if new.deleted_at is distinct from old.deleted_at
     and current_setting('app.soft_deleting', true) is distinct from 'pr:' || old.id then
    raise exception 'pr_tickets: deleted_at is set through soft_delete_pr_ticket'
      using errcode = 'insufficient_privilege';
  end if;
  if api.current_user_is_pr_handler() then
    return new;
  end if;
  bad := private.changed_columns(to_jsonb(old), to_jsonb(new), array['brief', 'file_url', 'submitter_label']);
  if cardinality(bad) > 0 then
    raise exception 'pr_tickets: you may not change %', array_to_string(bad, ', ')
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end $$;

create trigger pr_tickets_guard before update on private.pr_tickets
  for each row execute function private.pr_tickets_guard();
create trigger pr_tickets_touch before update on private.pr_tickets
  for each row execute function private.touch_updated_at();

create policy pr_read on private.pr_tickets for select to authenticated
  using (submitter_id = (select auth.uid()) or api.current_user_is_pr_handler());
create policy pr_live on private.pr_tickets as restrictive for select to authenticated
  using (deleted_at is null);
create policy pr_insert on private.pr_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and api.current_user_role() is not null
              and deleted_at is null);
create policy pr_update on private.pr_tickets for update to authenticated
  using (submitter_id = (select auth.uid()) or api.current_user_is_pr_handler())
  with check (submitter_id = (select auth.uid()) or api.current_user_is_pr_handler());
create policy pr_delete on private.pr_tickets for delete to authenticated
  using (api.current_user_is_pr_handler());

create view api.pr_tickets with (security_invoker = true) as
  select id, submitter_id, submitter_label, brief, file_url, deleted_at, created_at, updated_at
  from private.pr_tickets;

-- Guest lookup: case-insensitive equality on the trimmed id; no pattern operator (rule 14).
create function api.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.created_at
  from private.pr_tickets t
  where lower(t.id) = lower(btrim(p_id, E' \t\r\n')) and t.deleted_at is null
$$;

create function api.soft_delete_pr_ticket(p_id text) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if auth.uid() is null or api.current_user_role() is null or not api.current_user_is_staff() then
    perform private.not_authorized();
  end if;
  -- the DELETE policy's predicate
  if not api.current_user_is_pr_handler()
     or not exists (select 1 from private.pr_tickets t where t.id = p_id and t.deleted_at is null) then
    raise exception 'NOT_FOUND' using errcode = 'no_data_found';
  end if;
  perform set_config('app.soft_deleting', 'pr:' || p_id, true);
  update private.pr_tickets set deleted_at = now() where id = p_id;
  perform set_config('app.soft_deleting', '', true);
end $$;

-- ---------------------------------------------------------------------------
create table private.shop_orders (
  id bigint generated always as identity primary key,
  buyer_id uuid not null references private.users (id) on delete restrict,
  status private.order_status not null default 'pending',
  subtotal numeric(12, 2) not null default 0 check (subtotal >= 0),
  fee numeric(12, 2) not null default 0 check (fee >= 0),
  total numeric(12, 2) not null default 0 check (total >= 0),
  payment_slips text[] not null default '{}',
  recipient_name text,
  shipping_address text,
  phone text check (phone is null or phone ~ '^\+?[0-9 -]{6,20}$'),
  admin_note text,
  timeline jsonb not null default '[]' check (jsonb_typeof(timeline) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table private.shop_orders enable row level security;

create function private.shop_orders_guard() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  bad text[];
begin
  if auth.uid() is null or api.current_user_is_shop_handler() then
    return new;
  end if;
  bad := private.changed_columns(to_jsonb(old), to_jsonb(new),
           array['payment_slips', 'recipient_name', 'shipping_address', 'phone', 'status']);
  if cardinality(bad) > 0 then
    raise exception 'shop_orders: you may not change %', array_to_string(bad, ', ')
      using errcode = 'insufficient_privilege';
  end if;
  if new.status is distinct from old.status and new.status not in ('pending', 'review', 'slip_mismatch') then
    raise exception 'shop_orders: a buyer may not set status %', new.status
      using errcode = 'insufficient_privilege';
  end if;
  return new;
end $$;

create trigger shop_orders_guard before update on private.shop_orders
  for each row execute function private.shop_orders_guard();
create trigger shop_orders_touch before update on private.shop_orders
  for each row execute function private.touch_updated_at();
create trigger shop_orders_audit after update of status, total on private.shop_orders
  for each row execute function private.audit_change();

create policy shop_read on private.shop_orders for select to authenticated
  using (buyer_id = (select auth.uid()) or api.current_user_is_shop_handler());
create policy shop_insert on private.shop_orders for insert to authenticated
  with check (buyer_id = (select auth.uid()) and status = 'pending' and admin_note is null
              and timeline = '[]' and api.current_user_role() is not null);
create policy shop_update_buyer on private.shop_orders for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'));
create policy shop_update_handler on private.shop_orders for update to authenticated
  using (api.current_user_is_shop_handler()) with check (api.current_user_is_shop_handler());

create view api.shop_orders with (security_invoker = true) as
  select id, buyer_id, status, subtotal, fee, total, payment_slips, recipient_name,
         shipping_address, phone, admin_note, timeline, created_at, updated_at
  from private.shop_orders;
