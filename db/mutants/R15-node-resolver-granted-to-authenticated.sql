-- mutant: R15-node-resolver-granted-to-authenticated
-- rules: R15
-- bug: the revoke named only public, so the default grant to authenticated survived on node_effective_is_public.
grant execute on function public.node_effective_is_public(uuid) to authenticated;
