/**
 * The role and JWT claims PostgREST sets for a caller. A Supabase anon key is itself a JWT
 * (role anon), so every caller carries one unless `withoutToken` asks for a bare request;
 * PostgREST injects the role into the claims either way.
 */
import type { Caller } from '../model/caller.ts';

export interface Credentials {
  role: 'anon' | 'authenticated' | 'service_role';
  claims: Record<string, unknown>;
  hasToken: boolean;
}

export function credentialsFor(caller: Caller, options: { withoutToken?: boolean } = {}): Credentials {
  switch (caller.kind) {
    case 'anon':
      return { role: 'anon', claims: options.withoutToken ? { role: 'anon' } : { role: 'anon', iss: 'supabase' }, hasToken: !options.withoutToken };
    case 'service':
      return { role: 'service_role', claims: { role: 'service_role', iss: 'supabase' }, hasToken: true };
    case 'user':
      return {
        role: 'authenticated',
        claims: { sub: caller.id, role: 'authenticated', aud: 'authenticated', ...(caller.email ? { email: caller.email } : {}) },
        hasToken: true,
      };
  }
}
