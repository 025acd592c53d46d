-- mutant: R11-org-chart-leaks-email
-- rules: R11
-- bug: the member objects are built with to_jsonb(m) minus a deny-list that forgot the e-mail column.
-- in 0410_team.sql replace:
      select jsonb_agg(jsonb_build_object('node_id', m.node_id, 'name', m.name, 'nickname', m.nickname, 'position', m.position)
-- with:
      select jsonb_agg(to_jsonb(m) - 'id' - 'student_id' - 'year' - 'major' - 'permissions' - 'vs_dept' - 'project_seat' - 'user_id'
-- end
