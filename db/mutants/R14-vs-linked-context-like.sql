-- mutant: R14-vs-linked-context-like
-- rules: R14
-- bug: get_vs_linked_context finds the submitter's ticket with like.
create or replace function public.get_vs_linked_context(p_id text)
returns table (public_ref text, public_title text, status text)
language sql stable security definer set search_path = ''
as $$
  select p.public_ref, p.public_title, p.status
  from public.vs_tickets d
  join public.vs_tickets p on p.id = d.duplicate_of
  where d.id like p_id and d.deleted_at is null and private.vs_on_board(p)
$$;
