-- Column guards for rows their owners may update. Each compares the whole row minus an
-- allow-list, so a column added later is guarded without touching the guard.
-- Server contexts (no auth.uid()) pass: migrations, definer functions run as owners, triggers.

create or replace function public.guard_changed_columns(p_old jsonb, p_new jsonb, p_allowed text[])
returns text[]
language sql
immutable
as $$
  select coalesce(array_agg(k order by k), '{}')
  from (
    select key as k from jsonb_each(p_new - p_allowed) n
    where (p_old - p_allowed) -> n.key is distinct from n.value
    union
    select key from jsonb_each(p_old - p_allowed) o
    where not ((p_new - p_allowed) ? o.key)
  ) changed;
$$;

create or replace function public.guard_users_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_changed text[];
begin
  if (select auth.uid()) is null or public.current_user_is_admin() then
    return new;
  end if;
  if old.id = (select auth.uid()) then
    v_changed := public.guard_changed_columns(
      to_jsonb(old), to_jsonb(new),
      array['display_name', 'avatar_url', 'updated_at']);
    if cardinality(v_changed) > 0 then
      raise exception 'You cannot change % on your own profile', array_to_string(v_changed, ', ')
        using errcode = '42501';
    end if;
  end if;
  return new;
end
$$;

create trigger guard_users_update
  before update on public.users
  for each row execute procedure public.guard_users_update();

create or replace function public.guard_vs_tickets_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_changed text[];
  v_old_count int;
  v_new_count int;
  v_entry jsonb;
begin
  if (select auth.uid()) is null or public.can_handle_vs(old.target_dept) then
    return new;
  end if;
  if old.submitter_id = (select auth.uid()) then
    v_changed := public.guard_changed_columns(
      to_jsonb(old), to_jsonb(new),
      array['title', 'body', 'remarks', 'updated_at', 'updated_by', 'is_duplicate']);
    if cardinality(v_changed) > 0 then
      raise exception 'Submitters cannot change %', array_to_string(v_changed, ', ')
        using errcode = '42501';
    end if;

    v_old_count := jsonb_array_length(old.remarks);
    v_new_count := jsonb_array_length(new.remarks);
    if v_new_count < v_old_count
       or (select jsonb_agg(e) from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i <= v_old_count)
          is distinct from (case when v_old_count = 0 then null else old.remarks end) then
      raise exception 'Remarks are append-only' using errcode = '42501';
    end if;
    if v_new_count > 30 then
      raise exception 'A ticket holds at most 30 remarks' using errcode = '42501';
    end if;
    for v_entry in select e from jsonb_array_elements(new.remarks) with ordinality x(e, i) where i > v_old_count loop
      if v_entry ->> 'vis' is distinct from 'ticket'
         or v_entry ->> 'by' is distinct from old.submitter_label
         or coalesce((v_entry ->> 'internal')::boolean, false) then
        raise exception 'A submitter remark must be visible on the ticket and signed by its submitter'
          using errcode = '42501';
      end if;
    end loop;
  end if;
  return new;
end
$$;

create trigger guard_vs_tickets_update
  before update on public.vs_tickets
  for each row execute procedure public.guard_vs_tickets_update();

create or replace function public.guard_shop_orders_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_changed text[];
begin
  if (select auth.uid()) is null or public.can_handle_shop() then
    return new;
  end if;
  if old.buyer_id = (select auth.uid()) then
    v_changed := public.guard_changed_columns(
      to_jsonb(old), to_jsonb(new),
      array['status', 'recipient_name', 'phone', 'address', 'note', 'slip_urls', 'updated_at', 'updated_by']);
    if cardinality(v_changed) > 0 then
      raise exception 'Buyers cannot change %', array_to_string(v_changed, ', ')
        using errcode = '42501';
    end if;
  end if;
  return new;
end
$$;

create trigger guard_shop_orders_update
  before update on public.shop_orders
  for each row execute procedure public.guard_shop_orders_update();

create or replace function public.guard_sign_requests_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_changed text[];
begin
  if (select auth.uid()) is null or public.current_user_is_admin() then
    return new;
  end if;
  if old.professor_id = (select auth.uid()) then
    v_changed := public.guard_changed_columns(to_jsonb(old), to_jsonb(new), array['status']);
    if cardinality(v_changed) > 0 then
      raise exception 'Professors can only answer a sign request' using errcode = '42501';
    end if;
  end if;
  return new;
end
$$;

create trigger guard_sign_requests_update
  before update on public.project_sign_requests
  for each row execute procedure public.guard_sign_requests_update();

create or replace function passport.guard_profiles_update()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  v_changed text[];
begin
  if (select auth.uid()) is null or public.current_user_is_admin() then
    return new;
  end if;
  if old.user_id = (select auth.uid()) then
    v_changed := public.guard_changed_columns(to_jsonb(old), to_jsonb(new),
      array['nickname', 'faculty', 'bio']);
    if cardinality(v_changed) > 0 then
      raise exception 'You cannot change % on your passport', array_to_string(v_changed, ', ')
        using errcode = '42501';
    end if;
  end if;
  return new;
end
$$;

create trigger guard_profiles_update
  before update on passport.profiles
  for each row execute procedure passport.guard_profiles_update();
