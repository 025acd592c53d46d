-- mutant: R10-settings-readable-by-anon
-- rules: R10, R16
-- bug: project_settings kept Supabase's default grant to anon and got a blanket read policy, so the public key reads staff settings.
-- in 0400_projects.sql replace:
grant select on table public.project_settings to authenticated;
-- with:
grant select on table public.project_settings to anon, authenticated;
-- end
-- in 0400_projects.sql replace:
create policy project_settings_staff_read on public.project_settings for select to authenticated
  using (public.current_user_is_staff());
-- with:
create policy project_settings_read on public.project_settings for select to anon, authenticated using (true);
-- end
