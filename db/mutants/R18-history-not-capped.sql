-- mutant: R18-history-not-capped
-- rules: R18
-- bug: the history list lost its limit, returning every change request instead of the newest 10.
create or replace function public.get_my_student_record() returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'record', (select jsonb_build_object('id', s.id, 'email', s.email, 'student_id', s.student_id, 'full_name', s.full_name, 'year', s.year, 'major', s.major)
                 from public.student_records s where s.id = public.my_person_id()),
    'requests', coalesce((select jsonb_agg(jsonb_build_object('id', c.id, 'field', c.field, 'requested_value', c.requested_value, 'status', c.status,
                                                              'admin_note', c.admin_note, 'applied_value', c.applied_value) order by c.created_at desc, c.id desc)
                            from public.student_change_requests c where c.student_record_id = public.my_person_id()), '[]'::jsonb))
$$;
