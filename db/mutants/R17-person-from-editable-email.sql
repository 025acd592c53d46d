-- mutant: R17-person-from-editable-email
-- rules: R17
-- bug: my_person_id() resolves the person from users.email, a column a staff owner may edit, so an edited e-mail becomes someone else's identity.
create or replace function public.my_person_id() returns uuid
language sql stable security definer set search_path = ''
as $$
  select s.id from public.student_records s join public.users u on lower(trim(s.email)) = lower(trim(u.email)) where u.id = auth.uid()
$$;
