-- The handler view's filter, private.can_handle_vs(target_dept), reads the caller's user: the
-- server (service_role, no user) saw no ticket through it and could change none (policyfuzz:
-- R01, R03, R06, R07, R14 "filtered-not-visible" for service_role). The server reads every row.
create or replace view api.vs_tickets with (security_invoker = true) as
select id, submitter_id, submitter_label, target_dept, category_id, status, body, is_public,
       public_title, duplicate_of, is_duplicate, tags, remarks, created_at, updated_at, public_ref
from app.vs_tickets
where current_user = 'service_role' or private.can_handle_vs(target_dept);
