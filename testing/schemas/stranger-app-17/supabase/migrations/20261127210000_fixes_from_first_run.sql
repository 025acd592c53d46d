-- Fixes from the first policyfuzz run.

-- One fill trigger per table: the shared one read NEW.requested_by on project_documents rows
-- ("record new has no field requested_by") whenever doc_no was given.
drop trigger project_documents_fill on app.project_documents;
drop trigger project_files_fill on app.project_files;
drop trigger project_sign_requests_fill on app.project_sign_requests;
drop function app.project_children_fill();

create function app.project_documents_fill() returns trigger
language plpgsql as $$
begin
  if new.doc_no is null then
    select coalesce(max(d.doc_no), 0) + 1 into new.doc_no
      from app.project_documents d where d.project_id = new.project_id;
  end if;
  return new;
end;
$$;

create function app.project_files_fill() returns trigger
language plpgsql as $$
begin
  if new.file_no is null then
    select coalesce(max(f.file_no), 0) + 1 into new.file_no
      from app.project_files f where f.project_id = new.project_id and f.doc_no = new.doc_no;
  end if;
  if new.uploaded_by is null then
    new.uploaded_by := auth.uid();
  end if;
  return new;
end;
$$;

create function app.project_sign_requests_fill() returns trigger
language plpgsql as $$
begin
  if new.requested_by is null then
    new.requested_by := auth.uid();
  end if;
  return new;
end;
$$;

create trigger project_documents_fill before insert on app.project_documents
  for each row execute function app.project_documents_fill();
create trigger project_files_fill before insert on app.project_files
  for each row execute function app.project_files_fill();
create trigger project_sign_requests_fill before insert on app.project_sign_requests
  for each row execute function app.project_sign_requests_fill();

-- Rule 14: a PR ticket id is matched exactly (case-insensitive, trimmed), never as a pattern.
create or replace function api.get_pr_ticket_by_id(p_id text)
returns table (id text, submitter_label text, brief text, file_url text, created_at timestamptz)
language sql stable security definer set search_path = '' as $$
  select t.id, t.submitter_label, t.brief, t.file_url, t.created_at
    from app.pr_tickets t
   where upper(t.id) = upper(btrim(p_id)) and t.deleted_at is null
$$;

-- Rule 3: tags are the handlers'; a submitter keeps only the title, the body and appended remarks.
create or replace function app.vs_tickets_submitter_guard() returns trigger
language plpgsql as $$
declare
  candidate app.vs_tickets;
  entry jsonb;
begin
  if auth.uid() is null or old.submitter_id is distinct from auth.uid()
     or api.can_handle_vs(old.target_dept) then
    return new;
  end if;
  candidate := new;
  candidate.title := old.title;
  candidate.body := old.body;
  candidate.remarks := old.remarks;
  candidate.is_duplicate := old.is_duplicate;
  candidate.updated_at := old.updated_at;
  if candidate is distinct from old then
    raise exception 'vs_tickets: submitters may only edit the title and body of their ticket'
      using errcode = '42501';
  end if;
  if new.remarks is distinct from old.remarks then
    if jsonb_array_length(new.remarks) < jsonb_array_length(old.remarks) then
      raise exception 'vs_tickets: remarks are append-only' using errcode = '42501';
    end if;
    for i in 0 .. jsonb_array_length(old.remarks) - 1 loop
      if new.remarks -> i is distinct from old.remarks -> i then
        raise exception 'vs_tickets: remarks are append-only' using errcode = '42501';
      end if;
    end loop;
    for i in jsonb_array_length(old.remarks) .. jsonb_array_length(new.remarks) - 1 loop
      entry := new.remarks -> i;
      if entry ->> 'vis' is distinct from 'ticket' or entry ->> 'by' is distinct from 'submitter'
         or coalesce((entry ->> 'internal')::boolean, false) then
        raise exception 'vs_tickets: a submitter remark must be visible on the ticket and signed submitter'
          using errcode = '42501';
      end if;
    end loop;
  end if;
  return new;
end;
$$;

-- Rule 13: a submitter files a plain ticket; publishing, headlines, tags and duplicates are staff's.
drop policy vs_tickets_submit on app.vs_tickets;
create policy vs_tickets_submit on app.vs_tickets for insert to authenticated
  with check (
    submitter_id = auth.uid() and deleted_at is null
    and (api.can_handle_vs(target_dept)
         or (not is_public and public_title is null and public_summary is null and duplicate_of is null
             and tags = '{}' and status = 'open')));

-- Rule 4: the timeline is the shop's too.
create or replace function app.shop_orders_buyer_guard() returns trigger
language plpgsql as $$
begin
  if auth.uid() is null or old.buyer_id is distinct from auth.uid() or api.current_user_is_staff() then
    return new;
  end if;
  if new.total is distinct from old.total
     or new.subtotal is distinct from old.subtotal
     or new.fee is distinct from old.fee
     or new.admin_note is distinct from old.admin_note
     or new.timeline is distinct from old.timeline then
    raise exception 'shop_orders: buyers cannot change amounts, notes or the timeline' using errcode = '42501';
  end if;
  if new.status is distinct from old.status and new.status = 'paid' then
    raise exception 'shop_orders: buyers cannot mark an order paid' using errcode = '42501';
  end if;
  if new.buyer_id is distinct from old.buyer_id or new.order_no is distinct from old.order_no then
    raise exception 'shop_orders: an order keeps its buyer' using errcode = '42501';
  end if;
  return new;
end;
$$;

-- Rule 19: the tiers view reads profiles with the caller's rights.
alter view api.user_tiers set (security_invoker = true);
revoke all on api.user_tiers from anon;

-- Rule 15: api's default privileges grant anon and authenticated execute by name, not through public.
revoke execute on function api.effective_team_vs_dept_for_email(text) from public, anon, authenticated;
