/**
 * The claims of a signed-in caller that policies read through auth.jwt(), drawn for a pack's
 * generators: `aal` (aal1, or aal2 after MFA) and `app_metadata.role`. Without them every caller
 * has aal1 and a bare app_metadata, and a policy on either only ever meets its deny side.
 */
import fc from 'fast-check';
import type { Caller } from '../model/caller.ts';

/** Which claims a project's policies read. */
export interface ClaimsInUse {
  /** Policies read `aal`: draw aal1 or aal2. */
  aal?: boolean;
  /** Values `app_metadata.role` takes in the project: draw one of them or none. */
  appMetadataRoles?: readonly string[];
}

/** The caller with claims drawn as `uses` says; anon and service callers carry none and come back as they are. */
export function withClaims(caller: Caller, uses: ClaimsInUse): fc.Arbitrary<Caller> {
  if (caller.kind !== 'user') return fc.constant(caller);
  const roles = uses.appMetadataRoles ?? [];
  return fc
    .record({
      aal: uses.aal ? fc.constantFrom('aal1' as const, 'aal2' as const) : fc.constant('aal1' as const),
      role: roles.length ? fc.option(fc.constantFrom(...roles), { nil: undefined }) : fc.constant(undefined),
    })
    .map(({ aal, role }): Caller => ({ ...caller, ...(aal === 'aal2' ? { aal } : {}), ...(role !== undefined ? { appMetadata: { ...caller.appMetadata, role } } : {}) }));
}
