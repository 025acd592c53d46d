-- mutant: R11-org-chart-leaks-email
-- rules: R11
-- bug: the member objects are built with to_jsonb(m) minus a deny-list that forgot the e-mail column.
create or replace function public.get_public_org_chart() returns jsonb
language sql stable security definer set search_path = ''
as $$
  with visible as (select n.id, n.parent_id, n.name, n.kind, n.position from public.team_nodes n where public.node_effective_is_public(n.id))
  select jsonb_build_object(
    'nodes', coalesce((select jsonb_agg(jsonb_build_object('id', v.id, 'parent_id', v.parent_id, 'name', v.name, 'kind', v.kind, 'position', v.position) order by v.position, v.id) from visible v), '[]'::jsonb),
    'members', coalesce((select jsonb_agg(to_jsonb(m) - 'id' - 'student_id' - 'year' - 'major' - 'permissions' - 'vs_dept' - 'project_seat' - 'user_id' order by m.node_id, m.id)
      from public.team_members m join visible v on v.id = m.node_id), '[]'::jsonb))
$$;
