/**
 * A model table keyed by the auth identity (the model's `users.id` is the `auth.users` id) that
 * the target keys with its own id and links to auth.users by another column (`tables.<t>.authIdentity`:
 * a legacy app ported onto Supabase, `users (id bigint, auth_user_id uuid unique references
 * auth.users)`, stranger-app-11). The target's key is the model's id as the mapping writes it (a
 * number under `bigintIds`); the identity column holds the model's id itself, so the caller who
 * signs in as it is found by the target's `auth_user_id = auth.uid()`.
 */
import type { Row } from '../model/json.ts';
import type { TargetMapping } from '../mapping/mapping.ts';

/** The target column holding `table`'s auth identity, where the mapping names one. */
export function authIdentityColumn(m: TargetMapping | undefined, table: string): string | undefined {
  return m?.tables?.[table]?.authIdentity;
}

/** Target rows of `table` (translated from `modelRows`, in order) with the identity column set to each model row's own id. */
export function withAuthIdentity(m: TargetMapping, table: string, modelRows: readonly Row[], targetRows: Row[]): Row[] {
  const column = authIdentityColumn(m, table);
  if (!column) return targetRows;
  return targetRows.map((row, i) => ({ ...row, [column]: modelRows[i]?.id ?? null }));
}
