-- mutant: R10-sign-request-any-actor
-- rules: R10
-- bug: the sign-request insert policy checks only that the caller is a project actor, not that the request names them as its actor.
-- in 0400_projects.sql replace:
  with check (actor_id = auth.uid() and public.current_user_is_project_actor());
-- with:
  with check (public.current_user_is_project_actor());
-- end
