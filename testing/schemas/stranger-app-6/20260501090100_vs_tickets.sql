-- VS tickets: text ids with a prefix, enum status, generated is_duplicate, jsonb remarks.

create table private.vs_categories (
  id text primary key check (id ~ '^cat_[a-z0-9_]{1,40}$'),
  name text not null default '',
  is_confidential boolean not null default true,     -- unknown is confidential (rule 8)
  public_eligible boolean not null default false
);
alter table private.vs_categories enable row level security;

create table private.vs_tickets (
  id text primary key default ('vs_' || encode(extensions.gen_random_bytes(8), 'hex')),
  submitter_id uuid references private.users (id) on delete restrict,
  submitter_label text not null default 'submitter',
  target_dept private.dept_code not null,
  status private.vs_status not null default 'open',
  category text references private.vs_categories (id) on delete restrict,
  subject text not null default '',
  description text not null default '',                -- the student's raw report, never published
  is_public boolean not null default false,
  public_title text,
  public_summary text,
  public_comments jsonb not null default '[]' check (jsonb_typeof(public_comments) = 'array'),
  duplicate_of text references private.vs_tickets (id) on delete restrict,
  is_duplicate boolean generated always as (duplicate_of is not null) stored,
  tags text[] not null default '{}',
  remarks jsonb not null default '[]' check (jsonb_typeof(remarks) = 'array'),
  timeline jsonb not null default '[]' check (jsonb_typeof(timeline) = 'array'),
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint vs_not_own_duplicate check (duplicate_of is null or duplicate_of <> id),
  constraint vs_public_needs_title check (not is_public or coalesce(btrim(public_title), '') <> '')
);
alter table private.vs_tickets enable row level security;
create index vs_tickets_dept_idx on private.vs_tickets (target_dept) where deleted_at is null;

-- Remarks cap (spec: capped, value not given).
create function private.vs_remarks_cap() returns int language sql immutable as $$ select 40 $$;

-- Is the ticket's category known, public-eligible and not confidential (rules 8, 13)?
create function private.vs_category_publishable(p_category text) returns boolean
language sql stable security definer set search_path = '' as $$
  select coalesce((
    select not c.is_confidential and c.public_eligible
    from private.vs_categories c where c.id = p_category
  ), false)
$$;

-- Does a text mention any ticket id (rule 12: id-bearing remarks are internal)?
create function private.mentions_ticket_id(p_text text) returns boolean
language sql immutable set search_path = '' as $$
  select coalesce(p_text ~* 'vs_[0-9a-f]{16}', false)
$$;

-- Rules 1 and 3: a submitter may change only remarks (appending) and their own report fields.
-- Remarks are append-only for every signed-in caller, capped; server contexts are not guarded.
create function private.vs_tickets_guard() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  bad text[];
  added jsonb;
  entry jsonb;
  handler boolean;
begin
  if auth.uid() is null then
    return new;
  end if;
  -- only soft_delete_vs_ticket marks its ticket (a transaction-local mark no request can set)
  if tg_op = 'UPDATE' and new.deleted_at is distinct from old.deleted_at
     and current_setting('app.soft_deleting', true) is distinct from 'vs:' || old.id then
    raise exception 'vs_tickets: deleted_at is set through soft_delete_vs_ticket'
      using errcode = 'insufficient_privilege';
  end if;

  if jsonb_array_length(new.remarks) > private.vs_remarks_cap() then
    raise exception 'vs_tickets: at most % remarks', private.vs_remarks_cap()
      using errcode = 'check_violation';
  end if;

  if tg_op = 'INSERT' then
    return new;
  end if;

  -- append-only: the old remarks must be an unchanged prefix of the new ones
  if jsonb_array_length(new.remarks) < jsonb_array_length(old.remarks)
     or (select coalesce(jsonb_agg(e order by i), '[]'::jsonb)
         from jsonb_array_elements(new.remarks) with ordinality as t(e, i)
         where i <= jsonb_array_length(old.remarks)) <> old.remarks then
    raise exception 'vs_tickets: remarks are append-only' using errcode = 'insufficient_privilege';
  end if;

  handler := api.current_user_can_handle_vs(old.target_dept);
  if handler or old.submitter_id is distinct from auth.uid() then
    -- handlers: id-bearing visible remarks are not allowed (rule 12)
    for entry in select e from jsonb_array_elements(new.remarks) with ordinality as t(e, i)
                 where i > jsonb_array_length(old.remarks) loop
      if jsonb_typeof(entry) <> 'object' then
        raise exception 'vs_tickets: a remark is an object' using errcode = 'check_violation';
      end if;
      if coalesce(entry ->> 'internal', 'false') <> 'true'
         and private.mentions_ticket_id(entry ->> 'text') then
        raise exception 'vs_tickets: a remark naming a ticket id must be internal'
          using errcode = 'check_violation';
      end if;
    end loop;
    return new;
  end if;

  -- the submitter
  bad := private.changed_columns(to_jsonb(old), to_jsonb(new),
                                 array['remarks', 'subject', 'description']);
  if cardinality(bad) > 0 then
    raise exception 'vs_tickets: a submitter may not change %', array_to_string(bad, ', ')
      using errcode = 'insufficient_privilege';
  end if;
  for added in select e from jsonb_array_elements(new.remarks) with ordinality as t(e, i)
               where i > jsonb_array_length(old.remarks) loop
    if jsonb_typeof(added) <> 'object'
       or added ->> 'vis' is distinct from 'ticket'
       or added ->> 'by' is distinct from old.submitter_label
       or coalesce(added ->> 'internal', 'false') <> 'false' then
      raise exception 'vs_tickets: a submitter remark has vis ticket and is by the submitter'
        using errcode = 'insufficient_privilege';
    end if;
  end loop;
  return new;
end $$;

create trigger vs_tickets_guard before insert or update on private.vs_tickets
  for each row execute function private.vs_tickets_guard();
create trigger vs_tickets_touch before update on private.vs_tickets
  for each row execute function private.touch_updated_at();
create trigger vs_tickets_audit after update of status, target_dept, duplicate_of, is_public, deleted_at
  on private.vs_tickets for each row execute function private.audit_change();

-- Categories: readable by everyone (board labels).
create policy vs_categories_read on private.vs_categories for select to anon, authenticated
  using (true);
create policy vs_categories_write on private.vs_categories for all to authenticated
  using (api.current_user_is_admin()) with check (api.current_user_is_admin());

-- Tickets: the submitter, or a handler in scope. Deleted tickets never through the table.
create policy vs_tickets_read on private.vs_tickets for select to authenticated
  using (submitter_id = (select auth.uid()) or api.current_user_can_handle_vs(target_dept));
create policy vs_tickets_live on private.vs_tickets as restrictive for select to authenticated
  using (deleted_at is null);
create policy vs_tickets_file on private.vs_tickets for insert to authenticated
  with check (
    submitter_id = (select auth.uid())
    and api.current_user_role() is not null
    and status = 'open' and not is_public and public_title is null and duplicate_of is null
    and tags = '{}' and remarks = '[]' and public_comments = '[]' and deleted_at is null
  );
create policy vs_tickets_update on private.vs_tickets for update to authenticated
  using (submitter_id = (select auth.uid()) or api.current_user_can_handle_vs(target_dept))
  with check (submitter_id = (select auth.uid()) or api.current_user_can_handle_vs(target_dept));
create policy vs_tickets_delete on private.vs_tickets for delete to authenticated
  using (api.current_user_can_handle_vs(target_dept));
-- Whoever is signed in must hold a role to write (rule 8: a null role is denied).
create policy vs_tickets_role_required on private.vs_tickets as restrictive for update to authenticated
  using (api.current_user_role() is not null);

create view api.vs_categories with (security_invoker = true) as
  select id, name, is_confidential, public_eligible from private.vs_categories;

create view api.vs_tickets with (security_invoker = true) as
  select id, submitter_id, submitter_label, target_dept, status, category, subject, description,
         is_public, public_title, public_summary, public_comments, duplicate_of, is_duplicate,
         tags, remarks, timeline, deleted_at, created_at, updated_at
  from private.vs_tickets;
