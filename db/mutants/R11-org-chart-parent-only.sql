-- mutant: R11-org-chart-parent-only
-- rules: R11
-- bug: the resolver looks one level up (node and parent) instead of the whole ancestry, so a grandchild of a hidden node leaks.
create or replace function public.node_effective_is_public(p_node_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce((select n.is_public and coalesce(p.is_public, true)
                     from public.team_nodes n left join public.team_nodes p on p.id = n.parent_id
                    where n.id = p_node_id), false)
$$;
