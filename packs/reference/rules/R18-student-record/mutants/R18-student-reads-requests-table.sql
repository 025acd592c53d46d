-- mutant: R18-student-reads-requests-table
-- rules: R18
-- bug: a convenience policy lets students read their own change requests from the table, verdict, note and applied_value included.
create policy student_change_requests_own_read on public.student_change_requests for select to authenticated
  using (student_record_id = public.my_person_id());
