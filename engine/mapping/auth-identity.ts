/**
 * init's reading of a users table keyed by its own id (a legacy app ported onto Supabase:
 * `users (id bigint primary key, auth_user_id uuid unique references auth.users)`, stranger-app-11):
 * the model keys `users` by the auth identity, so the column that references auth.users is where
 * the fixtures write it (`mapping.tables.users.authIdentity`), and the key keeps the target's form.
 */
/** What this reads of a table's columns (propose.ts' TargetColumnFacts has them; not imported: propose.ts imports this). */
interface KeyAndReferences {
  name: string;
  primaryKey?: boolean;
  references?: { table: string; column: string };
}

/** The column of `t` holding the auth identity where `t`'s key is not it: a uuid referencing auth.users beside a key of its own. */
export function authIdentityColumnOf(t: { columns: readonly KeyAndReferences[] }): string | undefined {
  const key = t.columns.filter((c) => c.primaryKey);
  if (key.length !== 1 || key[0].references?.table === 'auth.users') return undefined;
  const linking = t.columns.filter((c) => c !== key[0] && c.references?.table === 'auth.users' && c.references.column === 'id');
  return linking.length === 1 ? linking[0].name : undefined;
}
