-- Found by policyfuzz (R03, R07, R12, R14): get_vs_ticket_by_id, which anyone holding an id may
-- call, dropped only the entries flagged internal, so an entry whose visibility it cannot resolve
-- (a bare string, a number, a null, an object without vis) and a staff-visible one (vis 'staff')
-- were shown too. Rule 8: what cannot be resolved is denied; rule 12: the submitter sees the
-- ticket-visible, non-internal remarks only, as my_vs_tickets already does.
create or replace function public.get_vs_ticket_by_id(p_id bigint)
returns table (id bigint, subject text, status public.vs_status, target_dept text,
               category_id bigint, is_duplicate boolean, duplicate_of bigint, tags text[],
               remarks jsonb, created_at timestamptz)
language sql stable
security definer
set search_path = ''
as $$
  select t.id, t.subject, t.status, t.target_dept, t.category_id, t.is_duplicate,
         null::bigint, '{}'::text[],
         coalesce((select jsonb_agg(e order by i)
                     from jsonb_array_elements(t.remarks) with ordinality as r(e, i)
                    where jsonb_typeof(e) = 'object'
                      and e ->> 'vis' = 'ticket'
                      and (e -> 'internal') is distinct from 'true'::jsonb), '[]'::jsonb),
         t.created_at
    from public.vs_tickets t
   where t.id = p_id
     and t.deleted_at is null
$$;

-- Found by policyfuzz (R11): any signed-in member read every node flagged public through the
-- table, a public node under a private parent too, which get_public_org_chart hides with its
-- subtree. Rule 11: the tree is shown publicly through get_public_org_chart only; the table is
-- for staff.
drop policy team_nodes_read on public.team_nodes;
create policy team_nodes_read on public.team_nodes for select to authenticated
  using ((select public.current_user_is_staff()));

-- Found by policyfuzz (R19, R20): the server (service_role: edge functions, the admin console)
-- was refused the whole passport schema ("permission denied for schema passport"): usage went to
-- anon and authenticated only, and a schema other than public gets none of Supabase's default
-- grants to service_role.
grant usage on schema passport to service_role;
grant select, insert, update, delete on all tables in schema passport to service_role;
grant execute on function passport.admin_leaderboard() to service_role;
