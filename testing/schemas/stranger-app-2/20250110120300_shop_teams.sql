-- Shop orders, the team tree and its members.

create table public.shop_orders (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid not null references public.profiles (id) on delete cascade,
  status text not null default 'pending'
    check (status in ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled')),
  subtotal integer not null default 0 check (subtotal >= 0),
  fee integer not null default 0 check (fee >= 0),
  total integer not null default 0 check (total >= 0),
  slip_url text,
  shipping_address text,
  contact_phone text,
  admin_note text,
  timeline jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create function public.is_shop_handler() returns boolean
language sql stable security definer set search_path = public as $$
  select coalesce(public.current_user_role() = 'admin', false)
      or public.current_user_has_permission('house')
$$;

create function public.shop_orders_fill_buyer() returns trigger
language plpgsql as $$
begin
  if auth.uid() is not null and not public.is_shop_handler() then
    new.buyer_id := auth.uid();
  end if;
  return new;
end $$;

-- Rule 4: a buyer edits only while the order is open for them, and never marks it paid.
create function public.shop_orders_buyer_window() returns trigger
language plpgsql as $$
begin
  if auth.uid() is null or old.buyer_id is distinct from auth.uid() or public.is_shop_handler() then
    return new;
  end if;
  if old.status not in ('pending', 'review', 'slip_mismatch') then
    raise exception 'order is locked' using errcode = 'P0001';
  end if;
  if new.status is distinct from old.status and (new.status is null or new.status not in ('pending', 'review', 'slip_mismatch')) then
    raise exception 'buyer may not set status %', new.status using errcode = 'P0001';
  end if;
  return new;
end $$;

create function public.guard_exempt_shop(p_old jsonb) returns boolean
language sql stable as $$ select public.is_shop_handler() $$;

create trigger shop_orders_buyer before insert on public.shop_orders
  for each row execute function public.shop_orders_fill_buyer();
create trigger shop_orders_touch before update on public.shop_orders
  for each row execute function public.touch_updated_at();
create trigger shop_orders_window before update on public.shop_orders
  for each row execute function public.shop_orders_buyer_window();
create trigger shop_orders_owner_guard before update on public.shop_orders
  for each row execute function public.guard_owner_columns(
    'buyer_id', 'guard_exempt_shop', 'slip_url', 'shipping_address', 'contact_phone', 'status');

alter table public.shop_orders enable row level security;
create policy shop_orders_read on public.shop_orders for select to authenticated
  using (buyer_id = (select auth.uid()) or public.is_shop_handler());
create policy shop_orders_insert on public.shop_orders for insert to authenticated
  with check (buyer_id = (select auth.uid()) or public.is_shop_handler());
create policy shop_orders_update on public.shop_orders for update to authenticated
  using (buyer_id = (select auth.uid()) or public.is_shop_handler())
  with check (buyer_id = (select auth.uid()) or public.is_shop_handler());
create policy shop_orders_delete on public.shop_orders for delete to authenticated
  using (public.is_shop_handler());
grant select, insert, update, delete on public.shop_orders to authenticated;
grant all on public.shop_orders to service_role;

create table public.team_nodes (
  id uuid primary key default gen_random_uuid(),
  parent_id uuid references public.team_nodes (id) on delete cascade,
  name text not null,
  kind text not null default 'team' check (kind in ('org', 'division', 'team', 'role')),
  position integer not null default 0,
  is_public boolean not null default false
);

-- One row per person per node: a composite key, no surrogate id.
create table public.team_members (
  node_id uuid not null references public.team_nodes (id) on delete cascade,
  user_id uuid not null references public.profiles (id) on delete cascade,
  name text not null default '',
  nickname text,
  position text,
  kkumail text,
  student_id text,
  year integer,
  major text,
  permissions text[] not null default '{}',
  vs_dept text references public.departments (code),
  project_seat text,
  primary key (node_id, user_id)
);

alter table public.team_nodes enable row level security;
alter table public.team_members enable row level security;
create policy team_nodes_staff on public.team_nodes for all to authenticated
  using (public.current_user_is_staff()) with check (public.current_user_is_staff());
create policy team_members_staff on public.team_members for all to authenticated
  using (public.current_user_is_staff()) with check (public.current_user_is_staff());
grant select, insert, update, delete on public.team_nodes, public.team_members to authenticated;
grant all on public.team_nodes, public.team_members to service_role;

-- A node is shown only when it and every ancestor are public.
create function public.node_effective_public(p_node uuid) returns boolean
language sql stable security definer set search_path = public as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public, 1 as depth from public.team_nodes n where n.id = p_node
    union all
    select n.id, n.parent_id, n.is_public, up.depth + 1
      from public.team_nodes n join up on n.id = up.parent_id
     where up.depth < 64
  )
  select coalesce(bool_and(is_public), false) from up
$$;

create function public.effective_team_permissions_for_email(p_email text) returns text[]
language sql stable security definer set search_path = public as $$
  select coalesce(array_agg(distinct p order by p), '{}')
    from public.team_members m cross join unnest(m.permissions) p
   where lower(m.kkumail) = lower(p_email)
$$;

create function public.get_public_org_chart() returns jsonb
language sql stable security definer set search_path = public as $$
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object('id', n.id, 'parent_id', n.parent_id, 'name', n.name,
                                                           'kind', n.kind, 'position', n.position)
                                        order by n.position, n.id)
                         from public.team_nodes n where public.node_effective_public(n.id)), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name,
                                                             'nickname', m.nickname, 'position', m.position)
                                          order by m.node_id, m.name)
                           from public.team_members m where public.node_effective_public(m.node_id)), '[]'::jsonb))
$$;

-- The caller's own team permissions (by their sign-in e-mail, never a column they edit)
-- become their managed permissions.
create function public.sync_my_team_permissions() returns jsonb
language plpgsql security definer set search_path = public as $$
declare
  me text := (select lower(btrim(u.email)) from auth.users u where u.id = auth.uid());
  perms text[];
  dept text;
begin
  if auth.uid() is null or me is null then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  select coalesce(array_agg(distinct p order by p), '{}') into perms
    from public.team_members m cross join unnest(m.permissions) p
   where lower(btrim(m.kkumail)) = me;
  select min(m.vs_dept) into dept from public.team_members m where lower(btrim(m.kkumail)) = me;
  perform set_config('app.trusted_write', 'on', true);
  update public.profiles set managed_permissions = perms where id = auth.uid();
  perform set_config('app.trusted_write', 'off', true);
  return jsonb_build_object('permissions', to_jsonb(perms), 'vs_dept', dept);
end $$;

revoke execute on function public.node_effective_public(uuid), public.effective_team_permissions_for_email(text)
  from public, anon, authenticated;
revoke execute on function public.is_shop_handler(), public.shop_orders_fill_buyer(),
  public.shop_orders_buyer_window(), public.sync_my_team_permissions() from public, anon;
grant execute on function public.is_shop_handler(), public.sync_my_team_permissions() to authenticated;
grant execute on function public.get_public_org_chart() to anon, authenticated;
