-- mutant: R14-vs-set-public-case-insensitive
-- rules: R14
-- bug: vs_set_public compares lower(id) = lower(p_id), so a case-flipped id publishes or withdraws another spelling's ticket.
create or replace function public.vs_set_public(p_id text, p_public boolean, p_title text default null) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  t public.vs_tickets;
begin
  if not public.current_user_is_vs_handler() then
    raise exception 'NOT_AUTHORIZED' using errcode = 'P0001';
  end if;
  if p_public is null then raise exception 'publish: p_public is required' using errcode = 'P0001'; end if;
  select * into t from public.vs_tickets x where lower(x.id) = lower(p_id) and x.deleted_at is null and public.vs_in_scope(x.target_dept);
  if not found then raise exception 'publish: ticket not found' using errcode = 'P0001'; end if;
  perform set_config('app.vs_trusted', 'on', true);
  if p_public then
    if p_title is null or btrim(p_title) = '' then
      raise exception 'publish: a headline written by staff is required' using errcode = 'P0001';
    end if;
    if not private.vs_category_public(t.category) then
      raise exception 'publish: the category is not public' using errcode = 'P0001';
    end if;
    update public.vs_tickets x set is_public = true, public_title = p_title where x.id = t.id;
  else
    update public.vs_tickets x set is_public = false where x.id = t.id;
  end if;
  perform set_config('app.vs_trusted', '', true);
end
$$;
