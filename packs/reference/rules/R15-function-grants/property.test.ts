import { describe, expect, it } from 'vitest';
import { compareFunctions } from '../../../../engine/checker/catalog.ts';
import { describeBothHalvesHold } from '../../../../testing/property-holds.ts';
import { R15, R15_CATALOG } from './property.ts';

describeBothHalvesHold(R15, R15_CATALOG, {
  data: 'holds, and its calls reach both the granted and the refused side',
  catalog: 'every function in public, passport and private is executable exactly as the model says',
});

describe('compareFunctions', () => {
  const fn = (name: string, executable: Partial<Record<'anon' | 'authenticated' | 'service_role' | 'public', boolean>>) => ({
    name,
    signature: `public.${name}()`,
    executable: { anon: false, authenticated: false, service_role: false, public: false, ...executable },
  });
  it('an unknown function a client may call is a finding', () => {
    for (const grants of [{ anon: true }, { authenticated: true }, { public: true }]) expect(compareFunctions([fn('later_helper', grants)], new Map()).findings).toHaveLength(1);
  });
  // Re-created after stranger-app-5: its private helpers (revoked from every API role), its guard
  // trigger functions (created after the revoke, PUBLIC keeps EXECUTE) and its own-named policy
  // helpers (current_user_can_handle_vs, which policies call as the caller) were 16 findings.
  it('an unknown function no client may call (private, or a trigger function) is none; a policy helper is accepted and named', () => {
    expect(compareFunctions([fn('private_helper', { service_role: true })], new Map())).toEqual({ granted: 0, withheld: 1, findings: [] });
    expect(compareFunctions([{ ...fn('guard_update', { anon: true, authenticated: true, public: true }), trigger: true }], new Map())).toEqual({ granted: 0, withheld: 1, findings: [] });
    const helper = { ...fn('current_user_can_handle_vs', { anon: true, authenticated: true }), policyHelper: true };
    expect(compareFunctions([helper], new Map())).toEqual({ granted: 1, withheld: 0, findings: [], accepted: ['public.current_user_can_handle_vs()'] });
  });
  it('a PUBLIC grant is a finding even when the roles agree', () => {
    const r = compareFunctions([fn('f', { anon: true, authenticated: true, public: true })], new Map([['f', ['anon', 'authenticated'] as const]]));
    expect(r.findings.some((f) => f.includes('PUBLIC'))).toBe(true);
  });
  it('agreement counts granted and withheld grants', () => {
    const r = compareFunctions([fn('f', { service_role: true })], new Map([['f', ['service_role'] as const]]));
    expect(r).toEqual({ granted: 1, withheld: 3, findings: [] });
  });
});
