/**
 * The claims of a signed-in caller that policies read through auth.jwt(), drawn for a pack's
 * generators: `aal` (aal1, or aal2 after MFA) and `app_metadata.role`. Without them every caller
 * has aal1 and a bare app_metadata, and a policy on either only ever meets its deny side. And,
 * asked for, the `user_metadata.role` a user may set for themselves.
 */
import fc from 'fast-check';
import type { Caller } from '../model/caller.ts';

/** Which claims a project's policies read. */
export interface ClaimsInUse {
  /** Policies read `aal`: draw aal1 or aal2. */
  aal?: boolean;
  /** Values `app_metadata.role` takes in the project: draw one of them or none. */
  appMetadataRoles?: readonly string[];
  /**
   * Draw the `user_metadata` a user sets for themselves (`auth.updateUser({ data })`) as an
   * attacker would: `role` one of appMetadataRoles, or none. No rule may trust it, so a policy
   * that does meets a caller it grants what the model refuses. Off: no draw, the callers as before.
   */
  userMetadata?: boolean;
}

/** The caller with claims drawn as `uses` says; anon and service callers carry none and come back as they are. */
export function withClaims(caller: Caller, uses: ClaimsInUse): fc.Arbitrary<Caller> {
  if (caller.kind !== 'user') return fc.constant(caller);
  const roles = uses.appMetadataRoles ?? [];
  const drawn = fc.record({
    aal: uses.aal ? fc.constantFrom('aal1' as const, 'aal2' as const) : fc.constant('aal1' as const),
    role: roles.length ? fc.option(fc.constantFrom(...roles), { nil: undefined }) : fc.constant(undefined),
  });
  const withDrawn = ({ aal, role }: { aal: 'aal1' | 'aal2'; role: string | undefined }): Caller => ({ ...caller, ...(aal === 'aal2' ? { aal } : {}), ...(role !== undefined ? { appMetadata: { ...caller.appMetadata, role } } : {}) });
  if (!uses.userMetadata || !roles.length) return drawn.map(withDrawn);
  // Drawn after the others, so a pack turning it on keeps every other claim it drew.
  return fc.tuple(drawn, fc.option(fc.constantFrom(...roles), { nil: undefined })).map(([claims, own]) => {
    const c = withDrawn(claims);
    return own === undefined || c.kind !== 'user' ? c : { ...c, userMetadata: { ...c.userMetadata, role: own } };
  });
}
