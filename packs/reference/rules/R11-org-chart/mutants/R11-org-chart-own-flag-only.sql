-- mutant: R11-org-chart-own-flag-only
-- rules: R11
-- bug: the org chart checks only each node's own is_public, so a public node under a hidden parent leaks.
-- in 0410_team.sql replace:
     where public.node_effective_is_public(n.id)
-- with:
     where n.is_public
-- end
