-- Campus desk, part 6: privileges. We do not rely on Supabase's default grants: everything is
-- revoked, then granted per table, per role and, where a role may touch only some columns, per column.

revoke all on all tables in schema public from anon, authenticated;
revoke all on all tables in schema passport from anon, authenticated;
revoke all on all sequences in schema public from anon, authenticated;
revoke all on all functions in schema public from public, anon, authenticated;
revoke all on all functions in schema passport from public, anon, authenticated;
revoke all on all functions in schema private from public, anon, authenticated;

grant usage on schema public, passport, private to anon, authenticated;

-- People
grant select on public.departments to anon, authenticated;
grant select on public.users to authenticated;
grant update (display_name, email, department, role, permissions, managed_permissions) on public.users to authenticated;

-- VS tickets: deleted_at is set only by soft_delete_vs_ticket (rule 7).
grant select on public.vs_categories to anon, authenticated;
grant insert, update, delete on public.vs_categories to authenticated;
grant select on public.vs_tickets to authenticated;
grant insert (submitter_id, submitter_label, target_dept, category, title, report,
              is_public, public_title, duplicate_of, tags, remarks, status)
  on public.vs_tickets to authenticated;
grant update (submitter_label, target_dept, category, status, title, report, is_public, public_title,
              duplicate_of, tags, remarks)
  on public.vs_tickets to authenticated;
grant select on public.my_vs_tickets to authenticated;

-- PR tickets: guests file them; deleted_at only through soft_delete_pr_ticket.
grant usage on sequence public.pr_ticket_seq to anon, authenticated;
grant insert (submitter_id, submitter_label, brief, file_url, status) on public.pr_tickets to anon, authenticated;
grant select on public.pr_tickets to authenticated;
grant update (submitter_label, brief, file_url, status) on public.pr_tickets to authenticated;

-- Shop
grant select on public.shop_orders to authenticated;
grant insert (id, buyer_id, status, subtotal, fee, total, recipient_name, phone, address, note, payment_slips, admin_note, timeline)
  on public.shop_orders to authenticated;
grant update (status, subtotal, fee, total, recipient_name, phone, address, note, payment_slips, admin_note, timeline)
  on public.shop_orders to authenticated;

-- Team: anon may ask and reads nothing (rule 11); the public chart is a function.
grant select on public.team_nodes to authenticated;
grant insert, update, delete on public.team_nodes to authenticated;
grant select on public.team_members to anon, authenticated;
grant insert, update, delete on public.team_members to authenticated;

-- Projects
grant select on public.projects, public.project_documents, public.project_files to anon, authenticated;
grant insert on public.projects, public.project_documents, public.project_files to authenticated;
grant update (title) on public.projects to authenticated;
grant select, insert on public.project_sign_requests to authenticated;
grant select, insert, update, delete on public.project_settings to authenticated;

-- Students and identity
grant select, insert, update, delete on public.student_records to authenticated;
grant select, insert, update, delete on public.student_change_requests to authenticated;
grant select, insert, update, delete on public.identity_conflicts to authenticated;

-- Passport
grant select on passport.tiers to anon, authenticated;
grant select, insert, delete on passport.profiles to authenticated;
grant update (display_name, faculty) on passport.profiles to authenticated;
grant select on passport.user_tiers to authenticated;

-- Functions. A revoke names each role: the defaults grant anon and authenticated on new functions.
grant execute on function
  public.current_user_role(), public.current_user_dept(), public.current_user_is_staff(),
  public.current_user_has_permission(text), public.current_user_is_project_actor(), public.my_person_id(),
  public.get_vs_ticket_by_id(bigint), public.get_pr_ticket_by_id(text),
  public.get_public_vs_board(), public.get_public_vs_problem(uuid), public.get_vs_linked_context(bigint),
  public.get_public_org_chart()
  to anon, authenticated;
grant execute on function
  public.soft_delete_pr_ticket(text), public.soft_delete_vs_ticket(bigint),
  public.find_similar_vs_tickets(bigint), public.merge_vs_tickets(bigint, bigint),
  public.vs_transfer_dept(bigint, text, jsonb), public.vs_set_public(bigint, boolean, text),
  public.vs_post_public_comment(uuid, text), public.get_my_student_record(), public.sync_my_team_permissions(),
  passport.admin_leaderboard()
  to authenticated;
-- The caller-only helpers row rules call run as the caller, so the API roles execute them.
-- The resolvers about other people (effective_team_*_for_email, node_effective_is_public) stay revoked.
grant execute on function
  private.current_role(), private.current_dept(), private.current_username(), private.has_permission(text),
  private.is_staff(), private.is_admin(), private.can_handle_vs(text), private.is_vs_handler(),
  private.is_pr_handler(), private.is_shop_handler(), private.is_project_actor(),
  private.is_addressed_professor(uuid), private.may_delete_vs_ticket(text), private.my_person_id()
  to anon, authenticated;
