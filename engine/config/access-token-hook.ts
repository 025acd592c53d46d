/**
 * Supabase Auth's custom access token hook as a project's config.toml enables it:
 *
 *   [auth.hook.custom_access_token]
 *   enabled = true
 *   uri = "pg-functions://postgres/public/custom_access_token_hook"
 *
 * Auth then calls that database function each time it issues a token and signs the claims it
 * answers, so policies may read a role, a department or permissions from `auth.jwt()` instead of
 * a table (Supabase's RBAC guide: `auth.jwt() ->> 'user_role'`). A run on such a project has each
 * signed-in caller's token made the same way (executor/case-transaction.ts): without it every
 * token lacks the claims and every staff rule meets only its deny side.
 */
import { UsageError } from '../errors.ts';

/** `schema.function` of the hook when enabled with a `pg-functions://` uri; undefined otherwise (an HTTP hook runs outside the database). */
export function accessTokenHookOf(toml: Record<string, unknown>, file: string): string | undefined {
  const auth = toml.auth as Record<string, unknown> | undefined;
  const hooks = auth && typeof auth === 'object' ? (auth.hook as Record<string, unknown> | undefined) : undefined;
  const hook = hooks && typeof hooks === 'object' ? (hooks.custom_access_token as Record<string, unknown> | undefined) : undefined;
  if (!hook || typeof hook !== 'object' || hook.enabled !== true) return undefined;
  const uri = hook.uri;
  if (typeof uri !== 'string') throw new UsageError(`${file}: [auth.hook.custom_access_token] uri must name the hook, like "pg-functions://postgres/public/custom_access_token_hook"`);
  if (!uri.startsWith('pg-functions://')) return undefined;
  // pg-functions://<database>/<schema>/<function>, as Supabase Auth reads it.
  const parts = uri.slice('pg-functions://'.length).split('/');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z_][A-Za-z0-9_$]*$/.test(p))) {
    throw new UsageError(`${file}: [auth.hook.custom_access_token] uri "${uri}" is not pg-functions://<database>/<schema>/<function>, like "pg-functions://postgres/public/custom_access_token_hook"`);
  }
  return `${parts[1]}.${parts[2]}`;
}
