-- Shop orders, the team tree and its members, projects and their settings.

create type app.order_status as enum
  ('pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'cancelled');

-- An order is numbered per buyer: the key is (buyer_id, order_no).
create table app.shop_orders (
  buyer_id uuid not null references app.members (id) deferrable initially deferred,
  order_no integer not null,
  status app.order_status not null default 'pending',
  subtotal app.money not null default 0,
  fee app.money not null default 0,
  total app.money not null default 0,
  slip_url text,
  details jsonb not null default '{}' check (jsonb_typeof(details) = 'object'),
  admin_note text,
  timeline jsonb not null default '[]' check (jsonb_typeof(timeline) = 'array'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (buyer_id, order_no),
  -- one open (pending) order per buyer
  constraint shop_orders_one_pending exclude using gist (buyer_id with =) where (status = 'pending')
);

create function app.shop_orders_fill() returns trigger
language plpgsql as $$
begin
  if new.buyer_id is null then
    new.buyer_id := auth.uid();
  end if;
  if new.order_no is null then
    select coalesce(max(o.order_no), 0) + 1 into new.order_no
      from app.shop_orders o where o.buyer_id = new.buyer_id;
  end if;
  return new;
end;
$$;

create trigger shop_orders_fill before insert on app.shop_orders
  for each row execute function app.shop_orders_fill();

create trigger shop_orders_touch before update on app.shop_orders
  for each row execute function app.touch_updated_at();

-- Rule 4: the buyer keeps slips and details; money, notes and payment belong to the shop.
create function app.shop_orders_buyer_guard() returns trigger
language plpgsql as $$
begin
  if auth.uid() is null or old.buyer_id is distinct from auth.uid() or api.current_user_is_staff() then
    return new;
  end if;
  if new.total is distinct from old.total
     or new.subtotal is distinct from old.subtotal
     or new.fee is distinct from old.fee
     or new.admin_note is distinct from old.admin_note then
    raise exception 'shop_orders: buyers cannot change amounts or notes' using errcode = '42501';
  end if;
  if new.status is distinct from old.status and new.status = 'paid' then
    raise exception 'shop_orders: buyers cannot mark an order paid' using errcode = '42501';
  end if;
  if new.buyer_id is distinct from old.buyer_id or new.order_no is distinct from old.order_no then
    raise exception 'shop_orders: an order keeps its buyer' using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger shop_orders_buyer_guard before update on app.shop_orders
  for each row execute function app.shop_orders_buyer_guard();

alter table app.shop_orders enable row level security;

create policy shop_orders_read on app.shop_orders for select to authenticated
  using (buyer_id = auth.uid() or api.current_user_is_staff());
create policy shop_orders_place on app.shop_orders for insert to authenticated
  with check (buyer_id = auth.uid() and status = 'pending');
create policy shop_orders_buyer_edit on app.shop_orders for update to authenticated
  using (buyer_id = auth.uid() and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = auth.uid());
create policy shop_orders_staff_edit on app.shop_orders for update to authenticated
  using (api.current_user_is_staff()) with check (api.current_user_is_staff());

grant select, insert, update on app.shop_orders to authenticated;
grant all on app.shop_orders to service_role;

-- Team tree --------------------------------------------------------------------------------------

create type app.node_kind as enum ('org', 'division', 'team', 'role');

create table app.team_nodes (
  id app.slug primary key,
  parent_id app.slug references app.team_nodes (id) deferrable initially deferred,
  name text not null,
  kind app.node_kind not null,
  position integer not null default 0,
  is_public boolean not null default false,
  check (parent_id is distinct from id)
);

create table app.team_members (
  node_id app.slug not null references app.team_nodes (id) on delete cascade,
  kkumail app.email_address not null check (kkumail like '%@kkumail.com'),
  user_id uuid references app.members (id) deferrable initially deferred,
  name text not null,
  nickname text,
  position text,
  student_id text check (student_id ~ '^[0-9]{9}-[0-9]$'),
  year smallint check (year between 1 and 8),
  major text,
  permissions app.permission_list not null default '{}',
  vs_dept app.dept_code,
  project_seat text,
  term daterange not null default daterange(current_date, null, '[)'),
  primary key (node_id, kkumail),
  -- a person sits in one node at a time
  constraint team_members_one_seat exclude using gist (kkumail with =, term with &&)
);

alter table app.team_nodes enable row level security;
alter table app.team_members enable row level security;

create policy team_nodes_staff on app.team_nodes for all to authenticated
  using (api.current_user_is_staff()) with check (api.current_user_is_admin());
create policy team_members_staff on app.team_members for select to authenticated
  using (api.current_user_is_staff() or user_id = auth.uid());
create policy team_members_admin on app.team_members for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());

grant select, insert, update, delete on app.team_nodes, app.team_members to authenticated;
grant all on app.team_nodes, app.team_members to service_role;

-- Private resolvers: effective permissions of a person by e-mail, public-ness of a node.
create function app.effective_team_permissions_for_email(p_email text) returns text[]
language sql stable security definer set search_path = '' as $$
  select coalesce(array_agg(distinct p order by p), '{}')
    from app.team_members tm, unnest(tm.permissions::text[]) p
   where tm.kkumail = lower(btrim(p_email)) and tm.term @> current_date
$$;

create function app.node_effective_is_public(p_node text) returns boolean
language sql stable security definer set search_path = '' as $$
  with recursive up as (
    select n.id, n.parent_id, n.is_public, 0 as depth from app.team_nodes n where n.id = p_node
    union all
    select n.id, n.parent_id, n.is_public, up.depth + 1
      from app.team_nodes n join up on n.id = up.parent_id
     where up.depth < 64
  )
  select coalesce(bool_and(up.is_public), false) from up
$$;

revoke execute on function app.effective_team_permissions_for_email(text) from public, anon, authenticated;
revoke execute on function app.node_effective_is_public(text) from public, anon, authenticated;

-- Projects ----------------------------------------------------------------------------------------

create table app.projects (
  id app.slug primary key,
  title text not null,
  summary text,
  owner_id uuid not null references app.members (id) deferrable initially deferred,
  created_at timestamptz not null default now()
);

create function app.projects_fill() returns trigger
language plpgsql as $$
begin
  if new.owner_id is null then
    new.owner_id := auth.uid();
  end if;
  return new;
end;
$$;

create trigger projects_fill before insert on app.projects
  for each row execute function app.projects_fill();

create table app.project_documents (
  project_id app.slug not null references app.projects (id) on delete cascade,
  doc_no integer not null,
  title text not null,
  storage_path text,
  primary key (project_id, doc_no)
);

create table app.project_files (
  project_id app.slug not null,
  doc_no integer not null,
  file_no integer not null,
  uploaded_by uuid not null references app.members (id) deferrable initially deferred,
  storage_path text not null,
  is_signed boolean not null default false,
  created_at timestamptz not null default now(),
  primary key (project_id, doc_no, file_no),
  foreign key (project_id, doc_no) references app.project_documents (project_id, doc_no) on delete cascade
);

create type app.sign_state as enum ('requested', 'signed', 'declined');

create table app.project_sign_requests (
  project_id app.slug not null,
  doc_no integer not null,
  professor_id uuid not null references app.members (id) deferrable initially deferred,
  requested_by uuid not null references app.members (id) deferrable initially deferred,
  state app.sign_state not null default 'requested',
  created_at timestamptz not null default now(),
  primary key (project_id, doc_no, professor_id),
  foreign key (project_id, doc_no) references app.project_documents (project_id, doc_no) on delete cascade
);

create function app.project_children_fill() returns trigger
language plpgsql as $$
begin
  if tg_table_name = 'project_documents' and new.doc_no is null then
    select coalesce(max(d.doc_no), 0) + 1 into new.doc_no
      from app.project_documents d where d.project_id = new.project_id;
  elsif tg_table_name = 'project_files' then
    if new.file_no is null then
      select coalesce(max(f.file_no), 0) + 1 into new.file_no
        from app.project_files f where f.project_id = new.project_id and f.doc_no = new.doc_no;
    end if;
    if new.uploaded_by is null then
      new.uploaded_by := auth.uid();
    end if;
  elsif tg_table_name = 'project_sign_requests' and new.requested_by is null then
    new.requested_by := auth.uid();
  end if;
  return new;
end;
$$;

create trigger project_documents_fill before insert on app.project_documents
  for each row execute function app.project_children_fill();
create trigger project_files_fill before insert on app.project_files
  for each row execute function app.project_children_fill();
create trigger project_sign_requests_fill before insert on app.project_sign_requests
  for each row execute function app.project_children_fill();

alter table app.projects enable row level security;
alter table app.project_documents enable row level security;
alter table app.project_files enable row level security;
alter table app.project_sign_requests enable row level security;

create policy projects_read on app.projects for select to anon, authenticated using (true);
create policy projects_write on app.projects for all to authenticated
  using (api.current_user_is_project_actor()) with check (api.current_user_is_project_actor());
create policy project_documents_read on app.project_documents for select to anon, authenticated using (true);
create policy project_documents_write on app.project_documents for all to authenticated
  using (api.current_user_is_project_actor()) with check (api.current_user_is_project_actor());
create policy project_files_read on app.project_files for select to anon, authenticated using (true);
create policy project_files_actor on app.project_files for insert to authenticated
  with check (api.current_user_is_project_actor() and uploaded_by = auth.uid());
create policy project_files_professor on app.project_files for insert to authenticated
  with check (
    uploaded_by = auth.uid()
    and api.current_user_role() = 'sa_prof'
    and exists (
      select 1 from app.project_sign_requests r
       where r.project_id = project_files.project_id and r.doc_no = project_files.doc_no
         and r.professor_id = auth.uid()));
create policy project_sign_requests_read on app.project_sign_requests for select to authenticated
  using (requested_by = auth.uid() or professor_id = auth.uid());
create policy project_sign_requests_request on app.project_sign_requests for insert to authenticated
  with check (api.current_user_is_project_actor() and requested_by = auth.uid());
create policy project_sign_requests_answer on app.project_sign_requests for update to authenticated
  using (professor_id = auth.uid()) with check (professor_id = auth.uid());

grant select on app.projects, app.project_documents, app.project_files to anon;
grant select, insert, update, delete on app.projects, app.project_documents, app.project_files to authenticated;
grant select, insert, update on app.project_sign_requests to authenticated;
grant all on app.projects, app.project_documents, app.project_files, app.project_sign_requests to service_role;

-- A single settings row, staff only.
create table app.project_settings (
  singleton boolean primary key default true check (singleton),
  submissions_open boolean not null default true,
  max_files_per_document integer not null default 10,
  updated_at timestamptz not null default now()
);

insert into app.project_settings default values;

alter table app.project_settings enable row level security;
create policy project_settings_staff on app.project_settings for select to authenticated
  using (api.current_user_is_staff());
create policy project_settings_admin on app.project_settings for update to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());
grant select, update on app.project_settings to authenticated;
grant all on app.project_settings to service_role;
