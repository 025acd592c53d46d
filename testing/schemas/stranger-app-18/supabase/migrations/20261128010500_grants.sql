-- Grants. Tables get explicit grants for the roles that use them; row rules decide the rest.

grant select, update on table public.users to authenticated;
grant select, insert, update, delete on table public.users to service_role;

grant select on table public.vs_categories to anon;
grant select, insert, update, delete on table public.vs_categories to authenticated, service_role;

grant select, insert, update, delete on table public.vs_tickets to authenticated, service_role;
grant select on table public.my_vs_tickets to authenticated;
grant select on table public.vs_public_comments to authenticated;
grant select, insert, update, delete on table public.vs_public_comments to service_role;

grant insert on table public.pr_tickets to anon;
grant select, insert, update, delete on table public.pr_tickets to authenticated, service_role;

grant select, insert, update on table public.shop_orders to authenticated;
grant select, insert, update, delete on table public.shop_orders to service_role;

grant select, insert, update, delete on table public.team_nodes to authenticated, service_role;
grant select, insert, update, delete on table public.team_members to authenticated, service_role;
revoke all on table public.team_members from anon;
revoke all on table public.team_nodes from anon;

grant select on table public.projects, public.project_documents, public.project_files to anon;
grant select, insert, update on table public.projects, public.project_members,
  public.project_documents, public.project_files, public.project_sign_requests to authenticated;
grant select, insert, update, delete on table public.projects, public.project_members,
  public.project_documents, public.project_files, public.project_sign_requests to service_role;

revoke all on table public.project_settings from anon;
grant select, insert, update, delete on table public.project_settings to authenticated, service_role;

grant select on table public.people to authenticated;
grant select, update on table public.identity_conflicts to authenticated;
grant select on table public.student_records to authenticated;
grant select, insert, update, delete on table public.student_change_requests to authenticated;
grant select, insert, update, delete on table public.people, public.identity_conflicts,
  public.student_records, public.student_change_requests to service_role;

grant select, update on table passport.profiles to authenticated;
grant select on table passport.activities to authenticated;
grant select on table passport.tiers to anon, authenticated;
grant select on table passport.user_tiers to authenticated;
grant select, insert, update, delete on all tables in schema passport to service_role;
grant execute on function passport.admin_leaderboard() to authenticated;

-- the resolvers about other people stay server-side
revoke execute on function public.effective_team_permissions_for_email(extensions.citext) from public;
revoke execute on function public.effective_team_dept_for_email(extensions.citext) from public;
revoke execute on function public.node_effective_permissions(uuid) from public;
revoke execute on function public.vs_tickets_number() from public, anon, authenticated;
revoke execute on function public.shop_orders_number() from public, anon, authenticated;

-- signed-in only
revoke execute on function public.soft_delete_pr_ticket(text) from public, anon;
revoke execute on function public.soft_delete_vs_ticket(bigint) from public, anon;
revoke execute on function public.merge_vs_tickets(bigint, bigint) from public, anon;
revoke execute on function public.find_similar_vs_tickets(bigint) from public, anon;
revoke execute on function public.vs_transfer_dept(bigint, text, jsonb) from public, anon;
revoke execute on function public.vs_set_public(bigint, boolean, text) from public, anon;
revoke execute on function public.get_my_student_record() from public, anon;
revoke execute on function public.sync_my_team_permissions() from public, anon;
