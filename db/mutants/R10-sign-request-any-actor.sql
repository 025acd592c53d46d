-- mutant: R10-sign-request-any-actor
-- rules: R10
-- bug: the sign-request insert policy checks only that the caller is a project actor, not that the request names them as its actor.
drop policy project_sign_requests_actor_insert on public.project_sign_requests;
create policy project_sign_requests_actor_insert on public.project_sign_requests for insert to authenticated
  with check (public.current_user_is_project_actor());
