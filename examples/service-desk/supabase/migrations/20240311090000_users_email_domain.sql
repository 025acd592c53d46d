-- Reporting groups people by e-mail domain.
alter table public.users
  add column email_domain text generated always as (lower(split_part(email, '@', 2))) stored;
