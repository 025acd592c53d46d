-- Function privileges (rule 15). Supabase's defaults grant EXECUTE to anon and authenticated on
-- every new function; we take it away from every role by name and grant back what is meant.

revoke execute on all functions in schema public from public, anon, authenticated;
revoke execute on all functions in schema passport from public, anon, authenticated;
alter default privileges in schema public revoke execute on functions from public, anon, authenticated;
alter default privileges in schema passport revoke execute on functions from public, anon, authenticated;

-- Anyone, with or without a session
grant execute on function
  public.get_vs_ticket_by_id(bigint),
  public.get_pr_ticket_by_id(text),
  public.get_public_vs_board(),
  public.get_public_vs_problem(bigint),
  public.get_public_org_chart(),
  public.current_user_role(),
  public.current_user_dept(),
  public.current_user_is_staff(),
  public.current_user_has_permission(text),
  public.current_user_is_project_actor()
  to anon, authenticated;

-- Signed in; each re-checks the caller inside
grant execute on function
  public.soft_delete_pr_ticket(text),
  public.soft_delete_vs_ticket(bigint),
  public.find_similar_vs_tickets(bigint),
  public.merge_vs_tickets(bigint, bigint),
  public.vs_transfer_dept(bigint, text, jsonb),
  public.vs_set_public(bigint, boolean, text, text),
  public.vs_post_public_comment(bigint, text),
  public.get_vs_linked_context(bigint),
  public.sync_my_team_permissions(),
  public.get_my_student_record(),
  public.my_person_id(),
  public.admin_set_user_access(uuid, text, text, text[])
  to authenticated;

-- passport.admin_leaderboard answers NOT_AUTHORIZED itself to a caller with no session (rule 20).
grant execute on function passport.admin_leaderboard() to anon, authenticated;

grant execute on all functions in schema public to service_role;
grant execute on all functions in schema passport to service_role;
