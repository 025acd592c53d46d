-- Found by policyfuzz (R04, R05, R07: service_role refused by the grants): the first migration's
-- `grant all on all tables in schema app to service_role` only covered the tables that existed
-- then. Server tools use service_role on every table.
grant all on all tables in schema app to service_role;
grant all on all tables in schema passport to service_role;
grant usage on all sequences in schema audit to service_role;
