-- mutant: R16-new-table-default-privileges
-- rules: R16
-- bug: a new table with row rules was added later without explicit grants; it runs on Supabase's defaults (anon and authenticated hold everything).
create table public.team_invitations (id uuid primary key, email text not null, node_id uuid references public.team_nodes (id));
alter table public.team_invitations enable row level security;
create policy team_invitations_staff on public.team_invitations for all to authenticated using (public.current_user_is_staff());
