alter table public.purchases enable row level security;

create policy purchases_select on public.purchases for select to authenticated
  using (buyer = auth.uid() or internal.caller_runs_the_shop());

create policy purchases_insert on public.purchases for insert to authenticated
  with check (
    (buyer = auth.uid() and state = 'cart' and staff_note is null and events = '[]'::jsonb)
    or internal.caller_runs_the_shop()
  );

create policy purchases_update on public.purchases for update to authenticated
  using ((buyer = auth.uid() and state in ('cart', 'submitted', 'receipt_bad')) or internal.caller_runs_the_shop())
  with check ((buyer = auth.uid() and state in ('cart', 'submitted', 'receipt_bad')) or internal.caller_runs_the_shop());
