-- Helpers the policies call live outside the API's schemas: PostgREST never exposes them.
create schema if not exists internal;
grant usage on schema internal to anon, authenticated, service_role;

create function internal.set_updated_at() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end $$;
