-- Helpers live in their own schema. Callers may use it (policies call into it).
CREATE SCHEMA IF NOT EXISTS app;
GRANT USAGE ON SCHEMA app TO anon, authenticated, service_role;
