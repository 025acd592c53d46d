-- Fixes from the first policyfuzz run, each checked against the data-layer rules.

-- Rule 4: a buyer edits an order only while it is pending, review or slip_mismatch (not any
-- status but paid: shipped, completed and cancelled orders were editable).
drop policy "buyers edit unpaid orders" on public.shop_orders;
create policy "buyers edit waiting orders" on public.shop_orders
  for update to authenticated
  using (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'))
  with check (buyer_id = (select auth.uid()) and status in ('pending', 'review', 'slip_mismatch'));

-- Rule 11: a node whose parent is not public hides its whole subtree, not only its children.
create or replace function public.get_public_org_chart()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  with recursive visible as (
    select n.id, n.parent_id, n.name, n.kind, n.position
    from public.team_nodes n
    where n.parent_id is null and n.is_public
    union all
    select n.id, n.parent_id, n.name, n.kind, n.position
    from public.team_nodes n
    join visible v on n.parent_id = v.id
    where n.is_public
  )
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object(
        'id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind, 'position', v.position)
        order by v.parent_id nulls first, v.position) from visible v), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object(
        'node_id', m.node_id, 'name', m.name, 'nickname', m.nickname, 'position', m.position)
        order by m.node_id, m.name)
        from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb))
$$;

-- Rule 14: a PR lookup is an exact match (case-insensitive, trimmed), never a pattern; and the
-- guest lookup shows the request, not who filed it or which org it belongs to.
drop function public.get_pr_ticket_by_id(text);
create function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, due_on date, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.due_on, t.created_at
  from public.pr_tickets t
  where upper(t.id) = upper(btrim(p_id)) and t.deleted_at is null
$$;
grant execute on function public.get_pr_ticket_by_id(text) to anon, authenticated;

-- Rule 15: Supabase grants EXECUTE to anon and authenticated on every new function; revoking
-- from public alone left these resolvers callable by anyone.
revoke execute on function public.effective_team_permissions_for_email(extensions.citext) from public, anon, authenticated;
revoke execute on function public.node_effective_permissions(bigint) from public, anon, authenticated;

-- Rule 12: a remark visible on a ticket never names another ticket (duplicate cross-references stay internal).
create or replace function app.visible_remark_names_other_ticket(p_entry jsonb, p_own bigint)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select not coalesce((p_entry ->> 'internal')::boolean, false)
     and exists (select 1 from public.vs_tickets t
                 where t.id is distinct from p_own and p_entry ->> 'text' ~ ('(^|[^0-9])' || t.id || '([^0-9]|$)'))
$$;

create or replace function public.vs_transfer_dept(p_id bigint, p_dept text, p_remarks jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  dept text;
begin
  if public.current_user_role() is null then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if p_dept is null or btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
  if p_remarks is not null and jsonb_typeof(p_remarks) <> 'array' then
    raise exception 'p_remarks must be an array' using errcode = '22023';
  end if;
  select t.target_dept into dept from public.vs_tickets t
  where t.id = p_id and t.deleted_at is null and t.org_id = app.jwt_org_id();
  if not found or not app.can_handle_vs(dept) then
    raise exception 'NOT_AUTHORIZED' using errcode = '42501';
  end if;
  if exists (select 1 from jsonb_array_elements(coalesce(p_remarks, '[]'::jsonb)) e
             where app.visible_remark_names_other_ticket(e, p_id)) then
    raise exception 'a remark naming another ticket must be internal' using errcode = '42501';
  end if;
  update public.vs_tickets
  set target_dept = btrim(p_dept), remarks = remarks || coalesce(p_remarks, '[]'::jsonb)
  where id = p_id;
end;
$$;

-- Rules 1, 3 and 12: the submitter guard compares the whole row minus what a submitter may change
-- (duplicate_of slipped through the list of named columns); remarks are append-only for every
-- API caller, and a remark visible on the ticket never names another ticket.
create or replace function app.guard_vs_ticket()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  remark_cap constant int := 50;
  submitter_fields constant text[] := array['subject', 'body', 'remarks', 'updated_at', 'is_duplicate'];
  old_count int := jsonb_array_length(old.remarks);
  entry jsonb;
begin
  if not app.is_api_caller() then
    return new;
  end if;

  if jsonb_array_length(new.remarks) < old_count
     or (select jsonb_agg(e order by i) from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i <= old_count)
        is distinct from (case when old_count = 0 then null else old.remarks end) then
    raise exception 'remarks can only be appended' using errcode = '42501';
  end if;
  if jsonb_array_length(new.remarks) > remark_cap then
    raise exception 'a ticket holds at most % remarks', remark_cap using errcode = '54000';
  end if;

  for entry in select e from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i > old_count loop
    if app.visible_remark_names_other_ticket(entry, new.id) then
      raise exception 'a remark naming another ticket must be internal' using errcode = '42501';
    end if;
  end loop;

  if app.can_handle_vs(old.target_dept) then
    return new;
  end if;

  if (to_jsonb(new) - submitter_fields) is distinct from (to_jsonb(old) - submitter_fields) then
    raise exception 'you cannot change the handling fields of your ticket' using errcode = '42501';
  end if;
  for entry in select e from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i > old_count loop
    if entry ->> 'vis' is distinct from 'ticket'
       or entry ->> 'by' is distinct from old.submitter_label
       or coalesce((entry ->> 'internal')::boolean, false) then
      raise exception 'your remarks are visible on the ticket and signed with your label' using errcode = '42501';
    end if;
  end loop;
  return new;
end;
$$;

-- Server tools (the service role) work in the passport schema too: Supabase's default privileges
-- cover public only.
grant all on all tables in schema passport to service_role;
grant execute on all functions in schema passport to service_role;
