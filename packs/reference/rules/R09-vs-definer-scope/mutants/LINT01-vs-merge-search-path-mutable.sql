-- mutant: LINT01-vs-merge-search-path-mutable
-- rules: LINT01
-- bug: merge_vs_tickets, a security definer function, loses its fixed search_path: it runs as its owner but resolves names on the caller's search_path, so whoever can put an object earlier on it runs code with the owner's rights.
-- in 0200_vs.sql replace:
create or replace function public.merge_vs_tickets(p_duplicate text, p_primary text) returns void
language plpgsql security definer set search_path = ''
-- with:
create or replace function public.merge_vs_tickets(p_duplicate text, p_primary text) returns void
language plpgsql security definer
-- end
