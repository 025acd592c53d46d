-- mutant: R14-guest-lookup-case-sensitive
-- rules: R14
-- bug: the guest lookup trims but compares case-sensitively, so a ticket id typed in another case is not found.
create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status text)
language sql stable security definer set search_path = '' as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status from public.pr_tickets t
  where t.deleted_at is null and btrim(t.id, E' \t\r\n') = btrim(p_id, E' \t\r\n')
$$;
