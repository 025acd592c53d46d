-- mutant: R08-shop-guard-null-role-exempt
-- rules: R08, R04
-- bug: the buyer guard applies when "role not in (handler roles)"; for a null role that is null, not true, so a buyer with no role (or no users row) changes the amounts.
-- in 0310_shop_orders.sql replace:
     and not public.current_user_is_shop_handler() then
-- with:
     and public.current_user_role() not in ('staff', 'admin', 'dev') and not public.current_user_has_permission('house') then
-- end
