/**
 * A Supabase CLI project as policyfuzz finds it: `supabase/migrations` next to
 * `supabase/config.toml`, whose `[api]` table says which schemas PostgREST exposes (`schemas`)
 * and what follows the request's schema on the search path (`extra_search_path`). A run on such
 * a project's migrations uses the same two lists, so requests resolve names as they do there.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { UsageError } from '../errors.ts';
import { SUPABASE_EXTRA_SEARCH_PATH } from '../executor/schema-cache.ts';
import { accessTokenHookOf } from './access-token-hook.ts';

/** Where a Supabase project keeps its migrations: `fuzz` and `init` target it by default inside such a repository. */
export const SUPABASE_MIGRATIONS = path.join('supabase', 'migrations');

/** What PostgREST exposes, and how it sets the search path. */
export interface ApiSchemas {
  /** PostgREST's db-schemas: the first is a request's default schema. */
  exposedSchemas: string[];
  /** PostgREST's db-extra-search-path. */
  extraSearchPath: string[];
  /** The config.toml these came from (absent: policyfuzz's defaults). */
  source?: string;
  /** `[api] max_rows`: PostgREST's db-max-rows (the CLI's template writes 1000); absent: none. */
  maxRows?: number;
  /** `[auth.hook.custom_access_token]`'s database function (`schema.fn`), when enabled: access-token-hook.ts. */
  accessTokenHook?: string;
}

/** The Supabase CLI's defaults for keys `[api]` leaves out. */
const SUPABASE_API_DEFAULTS = { schemas: ['public', 'graphql_public'], extra_search_path: SUPABASE_EXTRA_SEARCH_PATH };
/**
 * `schemas = []`, as an older CLI's template wrote it ("public and storage are always included"):
 * that CLI exposed its own list after these (partner-gallery-example's config.toml).
 */
const OLDER_CLI_SCHEMAS = ['public', 'storage', 'graphql_public'];

function stringList(value: unknown, file: string, key: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.length > 0) || value.length === 0) {
    throw new UsageError(`${file}: [api] ${key} must be a list of schema names, like ["public", "graphql_public"]`);
  }
  return value as string[];
}

/** The `[api]` lists of a Supabase config.toml (and its access token hook); undefined when the file has neither. */
export function readApiSchemas(file: string): ApiSchemas | undefined {
  let toml: Record<string, unknown>;
  try {
    toml = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${file} is not valid TOML: ${(e as Error).message.split('\n')[0]}`);
  }
  const accessTokenHook = accessTokenHookOf(toml, file);
  const api = toml.api;
  const hasApi = !(api === undefined || typeof api !== 'object' || api === null || Array.isArray(api));
  if (!hasApi && !accessTokenHook) return undefined;
  const table = (hasApi ? api : {}) as Record<string, unknown>;
  const maxRows = table.max_rows;
  if (maxRows !== undefined && !(Number.isInteger(maxRows) && (maxRows as number) > 0)) throw new UsageError(`${file}: [api] max_rows must be a whole number of rows, like 1000`);
  return {
    ...(maxRows !== undefined ? { maxRows: maxRows as number } : {}),
    exposedSchemas: stringList(Array.isArray(table.schemas) && table.schemas.length === 0 ? OLDER_CLI_SCHEMAS : (table.schemas ?? SUPABASE_API_DEFAULTS.schemas), file, 'schemas'),
    extraSearchPath: stringList(table.extra_search_path ?? SUPABASE_API_DEFAULTS.extra_search_path, file, 'extra_search_path'),
    ...(accessTokenHook ? { accessTokenHook } : {}),
    source: file,
  };
}

/** The Supabase config.toml that goes with a migrations folder: `<folder>/../config.toml` (the Supabase CLI's layout). */
export function configTomlOf(migrationDir: string): string | undefined {
  const file = path.join(path.resolve(migrationDir), '..', 'config.toml');
  return existsSync(file) ? file : undefined;
}

/** The API schemas of the first of these folders that sits in a Supabase project with an `[api]` table; else undefined. */
export function apiSchemasOf(migrationDirs: readonly string[]): ApiSchemas | undefined {
  for (const dir of migrationDirs) {
    const file = configTomlOf(dir);
    const api = file ? readApiSchemas(file) : undefined;
    if (api) return api;
  }
  return undefined;
}
