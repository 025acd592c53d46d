-- mutant: R11-org-chart-own-flag-only
-- rules: R11
-- bug: the org chart checks only each node's own is_public, so a public node under a hidden parent leaks.
create or replace function public.get_public_org_chart() returns jsonb
language sql stable security definer set search_path = ''
as $$
  with visible as (select n.id, n.parent_id, n.name, n.kind, n.position from public.team_nodes n where n.is_public)
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object('id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind, 'position', v.position) order by v.position, v.id) from visible v), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name, 'nickname', m.nickname, 'position', m.position) order by m.node_id, m.id)
      from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb))
$$;
