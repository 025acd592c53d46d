-- mutant: R14-vs-find-similar-like
-- rules: R14
-- bug: find_similar_vs_tickets finds the source ticket with like, so a wildcard id lists the tickets similar to any ticket it matches.
create or replace function public.find_similar_vs_tickets(p_id text)
returns table (id text, target_dept text, status text, category text, duplicate_of text, is_duplicate boolean)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  return query
    select t.id, t.target_dept, t.status, t.category, t.duplicate_of, t.is_duplicate
    from public.vs_tickets s
    join public.vs_tickets t on t.category = s.category and t.id <> s.id
    where s.id like p_id and s.deleted_at is null and public.vs_in_scope(s.target_dept)
      and t.deleted_at is null and public.vs_in_scope(t.target_dept);
end
$$;
