-- Execute privileges (rule 15). Supabase grants EXECUTE to anon and authenticated on every new
-- function, so each private helper is revoked from every role by name, and PUBLIC too.

revoke execute on function public.effective_team_permissions_for_email(text) from public, anon, authenticated;
revoke execute on function public.node_effective_public(bigint) from public, anon, authenticated;
revoke execute on function public.handle_new_auth_user() from public, anon, authenticated;
revoke execute on function public.audit_row_change() from public, anon, authenticated;
revoke execute on function public.vs_tickets_assign_number() from public, anon, authenticated;
revoke execute on function public.vs_category_is_public(integer) from public, anon, authenticated;
revoke execute on function public.vs_is_on_board(bigint) from public, anon, authenticated;
revoke execute on function public.vs_visible_remarks(jsonb) from public, anon, authenticated;

-- Signed-in only.
revoke execute on function public.get_my_student_record() from public, anon;
revoke execute on function public.request_student_change(text, text) from public, anon;
revoke execute on function public.sync_my_team_permissions() from public, anon;
revoke execute on function public.get_my_vs_tickets() from public, anon;
revoke execute on function public.vs_add_remark(bigint, text) from public, anon;
revoke execute on function public.soft_delete_vs_ticket(bigint) from public, anon;
revoke execute on function public.soft_delete_pr_ticket(text) from public, anon;
revoke execute on function public.find_similar_vs_tickets(bigint) from public, anon;
revoke execute on function public.merge_vs_tickets(bigint, bigint) from public, anon;
revoke execute on function public.vs_transfer_dept(bigint, text, jsonb) from public, anon;
revoke execute on function public.vs_set_public(bigint, boolean, text) from public, anon;
revoke execute on function public.vs_post_public_comment(bigint, text) from public, anon;

-- passport: admins' function; the API roles may call it and be refused by its own check.
revoke execute on all functions in schema passport from public;
grant execute on function passport.admin_leaderboard() to anon, authenticated, service_role;
grant execute on function passport.is_admin() to authenticated;
