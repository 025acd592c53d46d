-- mutant: R07-guest-lookup-shows-deleted
-- rules: R07, R14
-- bug: the guest lookup forgets deleted_at is null (it is a definer function, so the SELECT rule's filter does not apply), and deleted tickets stay public.
create or replace function public.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, status text)
language sql stable security definer set search_path = '' as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.status from public.pr_tickets t
  where lower(btrim(t.id, E' \t\r\n')) = lower(btrim(p_id, E' \t\r\n'))
$$;
