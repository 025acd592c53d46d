-- Finance wanted the balance stored, so reports can index it.
alter table public.purchases
  add column balance integer generated always as (subtotal + fee - discount) stored;

-- A BEFORE trigger sees the generated balance not yet computed: the guard leaves it out.
create or replace function internal.guard_purchase_update() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  allowed_columns text[] := array['state', 'receipts', 'ship_name', 'ship_phone', 'ship_address', 'buyer_note', 'updated_at', 'balance'];
begin
  if auth.uid() is null or internal.caller_runs_the_shop() or old.buyer is distinct from auth.uid() then
    return new;
  end if;
  if (to_jsonb(new) - allowed_columns) is distinct from (to_jsonb(old) - allowed_columns) then
    raise exception 'forbidden: buyers cannot change that' using errcode = '42501';
  end if;
  return new;
end $$;
