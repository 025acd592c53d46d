/** Schemas Supabase itself manages (and this harness's compatibility layer stands in for): their objects are not the project's. */
export const MANAGED_SCHEMAS = ['auth', 'storage', 'extensions', 'graphql', 'graphql_public', 'realtime', 'net', 'cron', 'vault', 'pgsodium', 'pgsodium_masks', 'supabase_functions', 'supabase_migrations', 'information_schema', 'pg_catalog', 'pg_toast'];
