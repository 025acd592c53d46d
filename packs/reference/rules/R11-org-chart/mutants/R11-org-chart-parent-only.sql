-- mutant: R11-org-chart-parent-only
-- rules: R11
-- bug: the resolver looks one level up (node and parent) instead of the whole ancestry, so a grandchild of a hidden node leaks.
-- in 0410_team.sql replace:
  with recursive chain (id, parent_id, is_public, depth) as (
    select n.id, n.parent_id, n.is_public, 0 from public.team_nodes n where n.id = p_node_id
    union all
    select p.id, p.parent_id, p.is_public, c.depth + 1
      from public.team_nodes p join chain c on p.id = c.parent_id
     where c.depth < 1000
  )
  select coalesce(bool_and(is_public), false) from chain
-- with:
  select coalesce((select n.is_public and coalesce(p.is_public, true)
                     from public.team_nodes n left join public.team_nodes p on p.id = n.parent_id
                    where n.id = p_node_id), false)
-- end
