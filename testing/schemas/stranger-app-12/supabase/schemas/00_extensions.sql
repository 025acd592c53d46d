-- Extensions live in their own schema, as Supabase recommends.
create schema if not exists extensions;
create extension if not exists btree_gist with schema extensions;
create extension if not exists citext with schema extensions;
