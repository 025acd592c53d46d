/**
 * Who sends a request. The model reasons about these; the harness turns them into the role and
 * JWT claims PostgREST would set.
 * - anon: the public client key only (a JWT whose role is anon);
 * - user: signed in; `id` is the token subject, whether or not a `users` row exists for it.
 *   `isAnonymous`: a Supabase anonymous sign-in (role authenticated, is_anonymous true in the
 *   token and in auth.users); what the rules let it do is the pack's choice (a setting);
 * - service: a server-side elevated token (service_role: bypasses row rules, null auth.uid()).
 */
export type Caller = { kind: 'anon' } | { kind: 'user'; id: string; email?: string; phone?: string; isAnonymous?: boolean } | { kind: 'service' };

export function describeCaller(caller: Caller): string {
  switch (caller.kind) {
    case 'anon':
      return 'anon';
    case 'service':
      return 'service_role';
    case 'user':
      return `${caller.isAnonymous ? 'anonymous sign-in user' : 'user'} ${caller.id}`;
  }
}

/** auth.uid() as the rules see it. */
export function callerUid(caller: Caller): string | null {
  return caller.kind === 'user' ? caller.id : null;
}

/** The database role PostgREST switches to for this caller. */
export function apiRoleOf(caller: Caller): 'anon' | 'authenticated' | 'service_role' {
  return caller.kind === 'anon' ? 'anon' : caller.kind === 'user' ? 'authenticated' : 'service_role';
}
