-- mutant: R17-conflicts-readable-by-staff
-- rules: R17
-- bug: the admin check was written with the staff helper, so every handler reads everyone's identity conflicts.
drop policy identity_conflicts_read on public.identity_conflicts;
create policy identity_conflicts_read on public.identity_conflicts for select to authenticated
  using (public.current_user_is_staff() or person_id = public.my_person_id());
