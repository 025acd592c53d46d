/**
 * A project that keeps each user's role, department, tenant or permissions in
 * `auth.users.raw_app_meta_data` (a trigger on its users table writes them there; Supabase Auth
 * copies that object into every token's `app_metadata` claim) and whose policies or functions read
 * `auth.jwt() -> 'app_metadata'`. Its tokens are then what the database holds, not what a case
 * draws: `init` proposes `"tokens": { "appMetadata": "auth.users" }` (config-file.ts), naming the
 * functions that write the metadata (stranger-app-10's private.sync_user_claims()).
 */
import type pg from 'pg';
import { MANAGED_SCHEMAS } from '../db/supabase/managed-schemas.ts';

/** An UPDATE of auth.users assigning raw_app_meta_data (`set raw_app_meta_data = … || jsonb_build_object(…)`). */
const WRITES_APP_METADATA = /update\s+(?:"?auth"?\s*\.\s*)"?users"?\b[\s\S]*?\bset\b[\s\S]*?\braw_app_meta_data\s*=/i;
/** `-> 'app_metadata'` or `->> 'app_metadata'`, as written or as pg_get_expr prints it (`'app_metadata'::text`). */
const READS_APP_METADATA = /->>?\s*'app_metadata'/i;

export interface AppMetadataMirror {
  /** `schema.function`, each that writes auth.users.raw_app_meta_data. */
  writers: string[];
}

/** The mirror when the project writes raw_app_meta_data and reads the claim; undefined otherwise. */
export function appMetadataMirrorOf(functions: readonly { name: string; source: string }[], policyTexts: readonly string[]): AppMetadataMirror | undefined {
  const writers = functions.filter((f) => WRITES_APP_METADATA.test(f.source)).map((f) => f.name);
  if (!writers.length) return undefined;
  const reads = policyTexts.some((t) => READS_APP_METADATA.test(t)) || functions.some((f) => READS_APP_METADATA.test(f.source));
  return reads ? { writers } : undefined;
}

export async function readAppMetadataMirror(client: pg.Client): Promise<AppMetadataMirror | undefined> {
  const managed = [...MANAGED_SCHEMAS];
  const functions = await client.query<{ name: string; source: string }>(
    `select format('%s.%s', n.nspname, p.proname) as name, coalesce(p.prosrc, '') as source
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname <> all($1::text[]) and n.nspname not in ('pg_catalog', 'information_schema') order by 1`,
    [managed],
  );
  const policies = await client.query<{ expr: string }>(
    `select concat_ws(' ', pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid)) as expr from pg_policy p`,
  );
  return appMetadataMirrorOf(functions.rows, policies.rows.map((r) => r.expr));
}

export function appMetadataMirrorNote(mirror: AppMetadataMirror): string {
  return `tokens.appMetadata: auth.users (${mirror.writers.join(', ')} ${mirror.writers.length === 1 ? 'writes' : 'write'} auth.users.raw_app_meta_data and the project reads auth.jwt() -> 'app_metadata': each signed-in token carries the caller's raw_app_meta_data as it stands before the request, as Supabase Auth issues it)`;
}
