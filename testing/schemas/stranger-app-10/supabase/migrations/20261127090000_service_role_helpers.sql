-- Found by policyfuzz (R05): the server's own writes (service_role: edge functions, the admin
-- console) failed with "permission denied for function jwt_org_id". The helpers' revoke took
-- PUBLIC's EXECUTE away and only anon/authenticated got it back, so every column default and
-- policy calling a private helper refused service_role.
grant usage on schema private to service_role;
grant execute on all functions in schema private to service_role;
alter default privileges in schema private grant execute on functions to service_role;
