-- mutant: R14-vs-tracking-ilike
-- rules: R14
-- bug: get_vs_ticket_by_id matches with ilike: % and _ in the id turn the capability into a search.
create or replace function public.get_vs_ticket_by_id(p_id text)
returns table (id text, submitter_label text, target_dept text, status text, category text, is_public boolean,
  public_title text, duplicate_of text, is_duplicate boolean, tags text[], remarks jsonb, report text,
  updated_at timestamptz)
language sql stable security definer set search_path = ''
as $$
  select t.id, t.submitter_label, t.target_dept, t.status, t.category, t.is_public, t.public_title,
    null::text, t.is_duplicate, '{}'::text[], private.vs_submitter_remarks(t.remarks), t.report, t.updated_at
  from public.vs_tickets t
  where t.id ilike p_id and t.deleted_at is null
$$;
