-- mutant: R18-history-oldest-first
-- rules: R18
-- bug: the limit is applied before ordering newest first, so the student gets the 10 oldest outcomes.
create or replace function public.get_my_student_record() returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'record', (select jsonb_build_object('id', s.id, 'email', s.email, 'student_id', s.student_id, 'full_name', s.full_name, 'year', s.year, 'major', s.major)
                 from public.student_records s where s.id = public.my_person_id()),
    'requests', coalesce((select jsonb_agg(jsonb_build_object('id', q.id, 'field', q.field, 'requested_value', q.requested_value, 'status', q.status,
                                                              'admin_note', q.admin_note, 'applied_value', q.applied_value) order by q.created_at desc, q.id desc)
                            from (select c.* from public.student_change_requests c where c.student_record_id = public.my_person_id()
                                   order by c.created_at, c.id limit 10) q), '[]'::jsonb))
$$;
