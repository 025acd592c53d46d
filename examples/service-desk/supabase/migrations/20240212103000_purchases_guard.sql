-- Buyers change their receipts, delivery details and note, and move the order along; never the money.
create function internal.guard_purchase_update() returns trigger
language plpgsql security definer set search_path = public as $$
declare
  allowed_columns text[] := array['state', 'receipts', 'ship_name', 'ship_phone', 'ship_address', 'buyer_note', 'updated_at'];
begin
  if auth.uid() is null or internal.caller_runs_the_shop() or old.buyer is distinct from auth.uid() then
    return new;
  end if;
  if (to_jsonb(new) - allowed_columns) is distinct from (to_jsonb(old) - allowed_columns) then
    raise exception 'forbidden: buyers cannot change that' using errcode = '42501';
  end if;
  return new;
end $$;

create trigger guard_purchase_update before update on public.purchases
  for each row execute function internal.guard_purchase_update();
