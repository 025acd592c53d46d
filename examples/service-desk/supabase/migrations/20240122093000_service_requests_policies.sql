create function internal.caller_works_the_desk() returns boolean
language sql stable security definer set search_path = public as $$
  select internal.caller_role() is not null
     and (internal.caller_role() in ('agent', 'lead') or internal.caller_holds('desk'))
$$;

alter table public.service_requests enable row level security;

create policy service_requests_select on public.service_requests for select to authenticated
  using (removed_at is null and (opened_by = auth.uid() or internal.caller_works_the_desk()));

create policy service_requests_insert on public.service_requests for insert to authenticated
  with check (
    removed_at is null and stage = 'new' and agent_note is null
    and (opened_by = auth.uid() or internal.caller_works_the_desk())
  );

create policy service_requests_update on public.service_requests for update to authenticated
  using (removed_at is null and (opened_by = auth.uid() or internal.caller_works_the_desk()))
  with check (removed_at is null and (opened_by = auth.uid() or internal.caller_works_the_desk()));
