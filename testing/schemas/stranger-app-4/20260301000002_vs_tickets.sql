-- VS tickets: serial integer keys, enum status, a public reference uuid, a generated
-- is_duplicate and search vector, a deferrable self reference, jsonb remarks with a shape CHECK,
-- a cross-column CHECK for publishing, and a NOT NULL subject/body the submitter writes.

create type public.vs_status as enum ('open', 'in_progress', 'waiting', 'resolved', 'closed');

create table public.vs_categories (
  id serial primary key,
  name text not null,
  is_confidential boolean not null default false,
  public_eligible boolean not null default false
);

create table public.vs_tickets (
  id serial primary key,
  public_ref uuid not null default extensions.uuid_generate_v4() unique,
  submitter_id uuid not null references public.profiles (id) on delete cascade,
  submitter_label text not null default 'student',
  subject text not null default '',
  body text not null default '',
  target_dept text not null,
  status public.vs_status not null default 'open',
  category integer references public.vs_categories (id) on delete set null,
  is_public boolean not null default false,
  public_title text,
  public_comments jsonb not null default '[]' check (jsonb_typeof(public_comments) = 'array'),
  duplicate_of integer references public.vs_tickets (id) deferrable initially deferred,
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  tags text[] not null default '{}',
  -- §8: the cap holds for every writer, the server context too (the guard skips it)
  remarks jsonb not null default '[]'
    check (jsonb_typeof(remarks) = 'array' and jsonb_array_length(remarks) <= 50),
  search tsvector generated always as
    (to_tsvector('simple', coalesce(subject, '') || ' ' || coalesce(body, ''))) stored,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- rule 13: a ticket is public only with a staff-written headline
  constraint vs_public_needs_title check (not is_public or nullif(trim(public_title), '') is not null),
  constraint vs_not_own_duplicate check (duplicate_of is distinct from id)
);

create index vs_tickets_dept on public.vs_tickets (target_dept) where deleted_at is null;
create index vs_tickets_search on public.vs_tickets using gin (search);

create trigger vs_touch before update on public.vs_tickets
  for each row execute function public.touch_updated_at();
create trigger vs_audit after insert or update or delete on public.vs_tickets
  for each row execute function public.write_audit();

create function public.vs_remarks_cap() returns integer
language sql immutable as $$ select 50 $$;
grant execute on function public.vs_remarks_cap() to anon, authenticated;

-- Rule 12: a ticket-visible remark never names a ticket by its id (any ticket, this one too).
create function public.vs_text_names_ticket(p_text text) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from public.vs_tickets o
                  where coalesce(p_text, '') ~ ('(^|[^0-9])' || o.id || '([^0-9]|$)'))
$$;
grant execute on function public.vs_text_names_ticket(text) to anon, authenticated;

-- Rules 1, 3, 6, 12: the owner guard plus the remark rules for every signed-in writer.
create function public.vs_tickets_guard() returns trigger
language plpgsql as $$
declare
  v_changed text[];
  v_new jsonb;
  v_handler boolean;
  v_entry jsonb;
begin
  if (select auth.uid()) is null then
    return new;
  end if;
  if new.deleted_at is distinct from old.deleted_at and not public.guard_bypassed() then
    raise exception 'vs_tickets: deleted_at changes through soft_delete_vs_ticket only'
      using errcode = '42501';
  end if;
  -- remarks: append-only and capped, for everyone
  if jsonb_array_length(new.remarks) < jsonb_array_length(old.remarks)
     or coalesce((select jsonb_agg(e order by i) from jsonb_array_elements(new.remarks)
                    with ordinality x(e, i) where i <= jsonb_array_length(old.remarks)), '[]')
        <> old.remarks then
    raise exception 'vs_tickets: remarks are append-only' using errcode = '42501';
  end if;
  if jsonb_array_length(new.remarks) > public.vs_remarks_cap() then
    raise exception 'vs_tickets: at most % remarks', public.vs_remarks_cap() using errcode = '42501';
  end if;
  v_new := coalesce((select jsonb_agg(e order by i) from jsonb_array_elements(new.remarks)
                      with ordinality x(e, i) where i > jsonb_array_length(old.remarks)), '[]');
  for v_entry in select * from jsonb_array_elements(v_new) loop
    if jsonb_typeof(v_entry) <> 'object' or not (v_entry ? 'vis') or not (v_entry ? 'by') then
      raise exception 'vs_tickets: a remark needs vis and by' using errcode = '42501';
    end if;
    -- Only a true "internal" hides an entry from the submitter (a JSON null is shown).
    if v_entry ->> 'vis' = 'ticket' and v_entry -> 'internal' is distinct from 'true'::jsonb
       and public.vs_text_names_ticket(v_entry::text) then
      raise exception 'vs_tickets: a ticket-visible remark names a ticket id; mark it internal'
        using errcode = '42501';
    end if;
  end loop;
  if public.guard_bypassed() then
    return new;
  end if;
  v_handler := public.can_handle_vs_dept(old.target_dept) or public.is_admin();
  if old.submitter_id = (select auth.uid()) and not v_handler then
    v_changed := public.changed_columns(to_jsonb(old), to_jsonb(new),
      array['remarks', 'updated_at', 'is_duplicate', 'search']);
    if cardinality(v_changed) > 0 then
      raise exception 'vs_tickets: a submitter may not change %', array_to_string(v_changed, ', ')
        using errcode = '42501';
    end if;
    for v_entry in select * from jsonb_array_elements(v_new) loop
      if v_entry ->> 'vis' is distinct from 'ticket'
         or v_entry ->> 'by' is distinct from old.submitter_label
         or coalesce(v_entry ->> 'internal', 'false') <> 'false' then
        raise exception 'vs_tickets: a submitter remark is vis ticket, by the submitter'
          using errcode = '42501';
      end if;
    end loop;
  end if;
  return new;
end $$;

create trigger vs_tickets_guard before update on public.vs_tickets
  for each row execute function public.vs_tickets_guard();

alter table public.vs_tickets enable row level security;
alter table public.vs_categories enable row level security;

create policy vs_categories_read on public.vs_categories for select to anon, authenticated
  using (true);
create policy vs_categories_write on public.vs_categories for all to authenticated
  using (public.is_admin()) with check (public.is_admin());

create policy vs_read on public.vs_tickets for select to authenticated
  using (deleted_at is null
         and (submitter_id = (select auth.uid()) or public.can_handle_vs_dept(target_dept)));

-- a submitter files a fresh ticket; nothing published, tagged or merged at filing
-- A handler files a ticket of their department as they could update it (rule 1 exempts them),
-- but no visible remark naming a ticket (rule 12); anyone else files it plain, no remarks either
-- (rule 3: a submitter's entries are ticket remarks by their label; found by policyfuzz, R03).
create policy vs_insert on public.vs_tickets for insert to authenticated
  with check (
    submitter_id = (select auth.uid())
    and deleted_at is null
    and ((public.can_handle_vs_dept(target_dept)
          and not exists (select 1 from jsonb_array_elements(case when jsonb_typeof(remarks) = 'array' then remarks else '[]' end) e
                           where e ->> 'vis' = 'ticket' and e -> 'internal' is distinct from 'true'::jsonb
                             and public.vs_text_names_ticket(e::text)))
         or (not is_public and public_title is null and tags = '{}' and duplicate_of is null
             and status = 'open' and public_comments = '[]' and remarks = '[]')));

create policy vs_update on public.vs_tickets for update to authenticated
  using (deleted_at is null
         and (submitter_id = (select auth.uid()) or public.can_handle_vs_dept(target_dept)))
  with check (submitter_id = (select auth.uid()) or public.can_handle_vs_dept(target_dept));

create policy vs_delete on public.vs_tickets for delete to authenticated
  using (public.current_user_is_staff() and public.can_handle_vs_dept(target_dept));

-- Restrictive: nobody without a role writes tickets (rule 7, fail closed).
create policy vs_role_required on public.vs_tickets as restrictive for all to authenticated
  using (public.current_user_role() is not null)
  with check (public.current_user_role() is not null);

grant select on public.vs_categories to anon, authenticated;
grant insert, update, delete on public.vs_categories to authenticated;
grant select, insert, update, delete on public.vs_tickets to authenticated;
grant usage on sequence public.vs_tickets_id_seq, public.vs_categories_id_seq to authenticated;
grant all on public.vs_tickets, public.vs_categories to service_role;

-- Submitter-facing read (rule 12): an explicit allow-list, invoker's rights.
create view public.my_vs_tickets with (security_invoker = true) as
  select id, public_ref, subject, body, target_dept, status, category, is_public, public_title,
         is_duplicate,
         coalesce((select jsonb_agg(e) from jsonb_array_elements(remarks) e
                    where e ->> 'vis' = 'ticket' and coalesce(e ->> 'internal', 'false') = 'false'),
                  '[]') as remarks,
         created_at, updated_at
  from public.vs_tickets
  where submitter_id = (select auth.uid());
grant select on public.my_vs_tickets to authenticated;
