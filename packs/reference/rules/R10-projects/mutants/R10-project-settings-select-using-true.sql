-- mutant: R10-project-settings-select-using-true
-- rules: R10
-- bug: project_settings' SELECT policy is using (true): every signed-in user reads the staff-only settings.
-- in 0400_projects.sql replace:
create policy project_settings_staff_read on public.project_settings for select to authenticated
  using (public.current_user_is_staff());
-- with:
create policy project_settings_staff_read on public.project_settings for select to authenticated
  using (true);
-- end
