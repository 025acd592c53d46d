import type { Json } from './json.ts';
import type { ProjectRole } from './project-role.ts';
/**
 * Who sends a request. The model reasons about these; the harness turns them into the role and
 * JWT claims PostgREST would set.
 * - anon: the public client key only (a JWT whose role is anon);
 * - user: signed in; `id` is the token subject, whether or not a `users` row exists for it.
 *   `isAnonymous`: a Supabase anonymous sign-in (role authenticated, is_anonymous true in the
 *   token and in auth.users); what the rules let it do is the pack's choice (a setting);
 *   `aal`: the session's authenticator assurance level (`aal2` after MFA; absent: `aal1`);
 *   `appMetadata`: what the token's `app_metadata` carries besides provider/providers (e.g. a
 *   `role` an admin gave the user), the claims real policies read through auth.jwt();
 *   `hookClaims`: top-level claims a custom access-token hook adds to the token (a
 *   `user_permissions` list a policy reads as `auth.jwt() ->> 'user_permissions'`);
 *   `userMetadata`: the token's `user_metadata`, auth.users.raw_user_meta_data, which the user
 *   sets for themselves (`auth.updateUser({ data })`, sign-up `options.data`): no rule may trust it;
 *   `role`: the project's own Postgres role the request runs as (the token's `role` claim, as a
 *   custom access token hook sets it: `app_admin`, granted to authenticator), whose grants the
 *   table models name (Grants); absent: authenticated;
 * - service: a server-side elevated token (service_role: bypasses row rules, null auth.uid()).
 * Any of them may carry `headers`: what the client adds to every request (supabase-js
 * `global.headers`), such as a project's own API key a policy reads as
 * `current_setting('request.headers', true)::json ->> 'lumkey'`; names lower-case, as PostgREST gives them.
 */
export type Caller = (
  | { kind: 'anon' }
  | { kind: 'user'; id: string; email?: string; phone?: string; isAnonymous?: boolean; aal?: Aal; appMetadata?: Record<string, Json>; hookClaims?: Record<string, Json>; userMetadata?: Record<string, Json>; role?: string }
  | { kind: 'service' }
) & { headers?: Record<string, string> };

export type Aal = 'aal1' | 'aal2';

/** The token's `aal` claim as a policy reads it (auth.jwt()->>'aal'): null without a user token. */
export function callerAal(caller: Caller): Aal | null {
  return caller.kind === 'user' ? (caller.aal ?? 'aal1') : null;
}

/** One key of the token's app_metadata as a policy reads it (auth.jwt()->'app_metadata'->>key): null when absent. */
export function appMetadataOf(caller: Caller, key: string): Json {
  return caller.kind === 'user' ? (caller.appMetadata?.[key] ?? null) : null;
}

/** A request header as a policy reads it (`current_setting('request.headers', true)::json ->> name`): null when the client sends none. */
export function requestHeaderOf(caller: Caller, name: string): string | null {
  const wanted = name.toLowerCase();
  return Object.entries(caller.headers ?? {}).find(([k]) => k.toLowerCase() === wanted)?.[1] ?? null;
}

export function describeCaller(caller: Caller): string {
  const headers = Object.entries(caller.headers ?? {}).map(([k, v]) => `header ${k}=${JSON.stringify(v)}`);
  return headers.length ? `${describeCallerToken(caller)} [${headers.join(', ')}]` : describeCallerToken(caller);
}

function describeCallerToken(caller: Caller): string {
  switch (caller.kind) {
    case 'anon':
      return 'anon';
    case 'service':
      return 'service_role';
    case 'user': {
      const claims = [...(caller.role ? [`role=${caller.role}`] : []), ...(caller.aal && caller.aal !== 'aal1' ? [caller.aal] : []), ...Object.entries(caller.appMetadata ?? {}).map(([k, v]) => `app_metadata.${k}=${JSON.stringify(v)}`), ...Object.entries(caller.hookClaims ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`), ...Object.entries(caller.userMetadata ?? {}).map(([k, v]) => `user_metadata.${k}=${JSON.stringify(v)}`)];
      return `${caller.isAnonymous ? 'anonymous sign-in user' : 'user'} ${caller.id}${claims.length ? ` (${claims.join(', ')})` : ''}`;
    }
  }
}

/** auth.uid() as the rules see it. */
export function callerUid(caller: Caller): string | null {
  return caller.kind === 'user' ? caller.id : null;
}

/** The database role PostgREST switches to for this caller: its token's `role` claim (a project role, Caller.role, or authenticated). */
export function apiRoleOf(caller: Caller): 'anon' | 'authenticated' | 'service_role' | ProjectRole {
  return caller.kind === 'anon' ? 'anon' : caller.kind === 'user' ? (caller.role ?? 'authenticated') : 'service_role';
}
