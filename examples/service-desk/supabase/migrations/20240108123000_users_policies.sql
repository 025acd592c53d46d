alter table public.users enable row level security;

create policy users_select on public.users for select to authenticated
  using (id = auth.uid() or internal.caller_is_agent());

create policy users_update on public.users for update to authenticated
  using (id = auth.uid() or internal.caller_is_admin())
  with check (id = auth.uid() or internal.caller_is_admin());
