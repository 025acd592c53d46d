-- Fixes for what the first policyfuzz run found in this schema (docs/real-world.md, the
-- thirteenth stranger's section): each a rule of the spec the first version broke.

-- 1. Rule 9: a vp_admin handles their own department only, whatever permissions they also hold
--    (the 'vs' permission made a vp_admin a handler of every department).
create or replace function authz.can_handle_vs(p_dept text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce(
    case when authz.role() = 'vp_admin'
         then p_dept is not null and p_dept = authz.dept()
         else authz.is_admin()
              or authz.role() = any (array['staff', 'vs_staff'])
              or authz.has_permission('vs')
    end,
    false)
$$;

-- 2. Soft delete is for signed-in staff only (section 4.2): a 'pr' permission alone is not staff.
create or replace function public.soft_delete_pr_ticket(p_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if authz.uid() is null or authz.role() is null or not authz.is_staff() or not authz.can_handle_pr() then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  update public.pr_tickets t set deleted_at = pg_catalog.now()
   where t.id = p_id and t.deleted_at is null;
  return found;
end;
$$;

-- 3. Rule 12: a remark the submitter can see never names another ticket; id-bearing remarks are
--    marked internal. Checked for every entry a write adds, whoever writes it (handlers and the
--    definer functions included).
create or replace function authz.remark_names_another_ticket(p_remark jsonb, p_ticket bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
      from pg_catalog.regexp_matches(coalesce(p_remark ->> 'text', p_remark #>> '{}', ''), '\d{1,18}', 'g') as m(id)
      join public.vs_tickets t on t.id = m.id[1]::bigint
     where t.id is distinct from p_ticket)
$$;
revoke all on function authz.remark_names_another_ticket(jsonb, bigint) from public, anon, authenticated;

-- Definer: it reads every ticket's id, which the writer may not see.
create or replace function authz.guard_vs_remark_ids()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_from  integer := case when tg_op = 'UPDATE' then pg_catalog.jsonb_array_length(old.remarks) else 0 end;
  v_entry jsonb;
begin
  if authz.uid() is null or pg_catalog.jsonb_typeof(new.remarks) <> 'array' then
    return new;
  end if;
  for v_entry in select e from pg_catalog.jsonb_array_elements(new.remarks) with ordinality as x(e, i) where i > v_from loop
    if not (pg_catalog.jsonb_typeof(v_entry) = 'object'
            and ((v_entry ->> 'internal') = 'true' or (v_entry ->> 'vis') = 'internal' or (v_entry ->> 'vis') = 'staff'))
       and authz.remark_names_another_ticket(v_entry, new.id) then
      raise exception 'vs_tickets: a remark naming another ticket must be internal' using errcode = '42501';
    end if;
  end loop;
  return new;
end;
$$;

create trigger vs_tickets_guard_remark_ids before insert or update of remarks on public.vs_tickets
  for each row execute function authz.guard_vs_remark_ids();

-- 4. Rules 13 and 14: the public board showed each ticket's id, which is the guest lookup's
--    capability (get_vs_ticket_by_id answers the raw report). The board now names tickets by a
--    random public handle.
alter table public.vs_tickets add column public_ref uuid not null default extensions.gen_random_uuid();
create unique index vs_tickets_public_ref_key on public.vs_tickets (public_ref);
revoke update (public_ref) on public.vs_tickets from authenticated;

-- 5. Rules 8 and 12: a remark entry that is not an object cannot be shown to be public; the guest
--    lookup keeps objects that are not internal only.
create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns setof public.vs_tickets
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_id, t.submitter_label, t.target_dept, t.status, t.category, t.title, t.body,
         t.is_public, t.public_title, t.public_summary,
         null::bigint as duplicate_of,
         t.is_duplicate,
         '{}'::text[] as tags,
         coalesce((select pg_catalog.jsonb_agg(r order by i)
                     from pg_catalog.jsonb_array_elements(t.remarks) with ordinality as x(r, i)
                    where pg_catalog.jsonb_typeof(r) = 'object'
                      and (not (r ? 'internal') or r -> 'internal' = 'false'::jsonb)
                      and (r ->> 'vis') is distinct from 'internal'), '[]'::jsonb) as remarks,
         t.deleted_at, t.created_at, t.updated_at, t.public_ref
    from public.vs_tickets t
   where t.id = p_id
     and t.deleted_at is null
$$;


drop function public.get_public_vs_board();
drop function public.get_public_vs_problem(bigint);
drop function public.vs_post_public_comment(bigint, text);
drop function public.get_vs_linked_context(bigint);

create function public.get_public_vs_board()
returns table (public_ref uuid, public_title text, public_summary text, category integer, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.public_ref, t.public_title, t.public_summary, t.category, t.status, t.created_at
    from public.vs_tickets t
   where authz.vs_ticket_is_on_board(t.id)
   order by t.created_at desc
$$;

create function public.get_public_vs_problem(p_ref uuid)
returns table (public_ref uuid, public_title text, public_summary text, category integer, status text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.public_ref, t.public_title, t.public_summary, t.category, t.status, t.created_at
    from public.vs_tickets t
   where t.public_ref = p_ref and authz.vs_ticket_is_on_board(t.id)
$$;

create function public.vs_post_public_comment(p_ref uuid, p_body text)
returns setof public.vs_public_comments
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_ticket bigint;
  v_name   text;
begin
  if authz.uid() is null or authz.role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  select t.id into v_ticket from public.vs_tickets t where t.public_ref = p_ref;
  if v_ticket is null or not authz.vs_ticket_is_on_board(v_ticket) then
    raise exception 'ticket not found' using errcode = 'P0002';
  end if;
  select coalesce(nullif(u.display_name, ''), 'member') into v_name from public.users u where u.id = authz.uid();
  return query
    insert into public.vs_public_comments (ticket_id, author_id, author_name, body)
    values (v_ticket, authz.uid(), coalesce(v_name, 'member'), p_body)
    returning *;
end;
$$;

-- The submitter's view of the public problem their ticket was merged into: its handle and
-- headline when it is on the board, never the other ticket's id (rule 12).
create function public.get_vs_linked_context(p_id bigint)
returns table (ticket_id bigint, is_duplicate boolean, status text, public_ref uuid, public_title text)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.is_duplicate, t.status,
         case when authz.vs_ticket_is_on_board(t.duplicate_of) then p.public_ref end,
         case when authz.vs_ticket_is_on_board(t.duplicate_of) then p.public_title end
    from public.vs_tickets t
    left join public.vs_tickets p on p.id = t.duplicate_of
   where t.id = p_id
     and t.deleted_at is null
     and authz.uid() is not null
     and (t.submitter_id = authz.uid() or authz.can_handle_vs(t.target_dept))
$$;

revoke execute on function public.get_public_vs_board(), public.get_public_vs_problem(uuid),
  public.vs_post_public_comment(uuid, text), public.get_vs_linked_context(bigint) from public, anon, authenticated;
grant execute on function public.get_public_vs_board(), public.get_public_vs_problem(uuid) to anon, authenticated;
grant execute on function public.vs_post_public_comment(uuid, text), public.get_vs_linked_context(bigint) to authenticated;

-- 6. The server's tools (service_role) were left without grants on the passport schema, which
--    Supabase's default privileges do not cover.
grant select, insert, update, delete on all tables in schema passport to service_role;
alter default privileges in schema passport grant select, insert, update, delete on tables to service_role;
