-- VS tickets: text ids `VS-<n>` with a format CHECK, a lookup table of categories, remarks as a
-- jsonb array, a public headline required by CHECK when a ticket is public (rule 13).

create table public.vs_categories (
  id text primary key check (id ~ '^[a-z][a-z0-9_]*$'),
  label text not null default '',
  is_confidential boolean not null default false,
  public_eligible boolean not null default false,
  check (not (is_confidential and public_eligible))
);

create sequence public.vs_ticket_no start 1001;

create table public.vs_tickets (
  id text primary key default ('VS-' || nextval('public.vs_ticket_no'))
    check (id ~ '^VS-[0-9]+$'),
  submitter_id uuid not null default auth.uid() references public.users (id),
  submitter_label text not null default '',
  title text not null default '',
  body text not null default '',
  target_dept text not null check (target_dept ~ '^[A-Z]{2,6}$'),
  status text not null default 'open'
    check (status in ('open', 'in_progress', 'resolved', 'closed')),
  category text references public.vs_categories (id) on delete set null,
  is_public boolean not null default false,
  public_title text,
  duplicate_of text references public.vs_tickets (id),
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  tags text[] not null default '{}',
  remarks jsonb not null default '[]' check (jsonb_typeof(remarks) = 'array'),
  public_comments jsonb not null default '[]' check (jsonb_typeof(public_comments) = 'array'),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (duplicate_of is distinct from id),
  check (not is_public or coalesce(btrim(public_title), '') <> '')
);
create index vs_tickets_dept_idx on public.vs_tickets (target_dept) where deleted_at is null;

create trigger vs_tickets_updated_at before update on public.vs_tickets
  for each row execute function extensions.moddatetime(updated_at);

grant select on public.vs_categories to anon, authenticated;
grant insert, update, delete on public.vs_categories to authenticated;
grant select, insert, update on public.vs_tickets to authenticated;
grant all on public.vs_categories, public.vs_tickets to service_role;
revoke all on public.vs_tickets from anon;

alter table public.vs_categories enable row level security;
alter table public.vs_tickets enable row level security;

create policy vs_categories_read on public.vs_categories for select to anon, authenticated using (true);
create policy vs_categories_write on public.vs_categories for all to authenticated
  using (public.current_user_is_staff()) with check (public.current_user_is_staff());

create policy vs_tickets_select on public.vs_tickets for select to authenticated
  using (deleted_at is null
         and (submitter_id = (select auth.uid()) or private.can_handle_vs(target_dept)));
create policy vs_tickets_insert on public.vs_tickets for insert to authenticated
  with check (submitter_id = (select auth.uid()) and deleted_at is null
              and not is_public and public_title is null and duplicate_of is null
              and tags = '{}' and status = 'open' and public_comments = '[]');
create policy vs_tickets_update on public.vs_tickets for update to authenticated
  using (deleted_at is null
         and (submitter_id = (select auth.uid()) or private.can_handle_vs(target_dept)))
  with check (deleted_at is null
              and (submitter_id = (select auth.uid()) or private.can_handle_vs(target_dept)));
-- The DELETE rule soft_delete_vs_ticket re-checks; no DELETE grant, so no hard delete via the API.
create policy vs_tickets_delete on public.vs_tickets for delete to authenticated
  using (public.current_user_is_staff() and private.can_handle_vs(target_dept));

-- A VS handler of some department (the caller may handle something): checked before any ticket
-- is looked up, so an unauthorized caller learns nothing of which ids exist (rule 14).
create function private.is_vs_handler() returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(public.current_user_role() in ('dev', 'staff', 'vs_staff', 'vp_admin'), false)
      or (public.current_user_role() is not null and public.current_user_has_permission('vs'))
$$;

create function private.vs_remark_cap() returns integer language sql immutable as $$ select 50 $$;

-- Guard (rules 1, 3, 12): the submitter's whole row minus an allow-list; remarks append-only and
-- capped for everyone; a submitter's entries are vis=ticket under their label; an entry naming
-- another ticket's id must be internal.
create function private.guard_vs_tickets() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  allowed constant text[] := array['title', 'body', 'remarks', 'updated_at', 'is_duplicate'];
  old_n integer := jsonb_array_length(old.remarks);
  e jsonb;
begin
  if auth.uid() is null or private.trusted_write() then
    return new;
  end if;
  if new.deleted_at is distinct from old.deleted_at then
    raise exception 'vs_tickets: deleted_at changes only through soft_delete_vs_ticket'
      using errcode = '42501';
  end if;
  if jsonb_array_length(new.remarks) < old_n
     or (old_n > 0 and (select jsonb_agg(x.v order by x.i)
                        from jsonb_array_elements(new.remarks) with ordinality x(v, i)
                        where x.i <= old_n) is distinct from old.remarks) then
    raise exception 'vs_tickets: remarks are append-only' using errcode = '42501';
  end if;
  if jsonb_array_length(new.remarks) > private.vs_remark_cap() then
    raise exception 'vs_tickets: at most % remarks', private.vs_remark_cap() using errcode = '42501';
  end if;
  for e in select x.v from jsonb_array_elements(new.remarks) with ordinality x(v, i) where x.i > old_n loop
    if jsonb_typeof(e) <> 'object' or jsonb_typeof(e -> 'vis') is distinct from 'string' then
      raise exception 'vs_tickets: a remark needs a vis' using errcode = '42501';
    end if;
    -- Fixed after policyfuzz R12: only the text was read, so an id in `by` reached the submitter.
    if coalesce(e ->> 'internal', 'false') <> 'true' and (e - 'internal')::text ~ 'VS-[0-9]+' then
      raise exception 'vs_tickets: a remark naming a ticket id must be internal' using errcode = '42501';
    end if;
  end loop;
  if old.submitter_id = auth.uid() and not private.can_handle_vs(old.target_dept) then
    if (to_jsonb(new) - allowed) is distinct from (to_jsonb(old) - allowed) then
      raise exception 'vs_tickets: a submitter may change only %', allowed using errcode = '42501';
    end if;
    for e in select x.v from jsonb_array_elements(new.remarks) with ordinality x(v, i) where x.i > old_n loop
      if e ->> 'vis' is distinct from 'ticket' or e ->> 'by' is distinct from old.submitter_label
         or e -> 'internal' = 'true'::jsonb then
        raise exception 'vs_tickets: a submitter remark is vis=ticket by %', old.submitter_label
          using errcode = '42501';
      end if;
    end loop;
  end if;
  return new;
end $$;
create trigger vs_tickets_guard before update on public.vs_tickets
  for each row execute function private.guard_vs_tickets();

-- A category that does not resolve is confidential and not eligible (rule 8).
create function private.vs_publishable(p_category text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce((select not c.is_confidential and c.public_eligible
                   from public.vs_categories c where c.id = p_category), false)
$$;

create function private.vs_public_handle(p_id text) returns text
language sql immutable set search_path = ''
as $$ select 'pub-' || substr(md5(p_id), 1, 12) $$;

revoke execute on all functions in schema private from public, anon, authenticated;
grant execute on function private.is_admin(), private.can_handle_vs(text), private.can_handle_pr(),
  private.can_manage_shop(), private.can_manage_students(), private.is_vs_handler() to anon, authenticated;
