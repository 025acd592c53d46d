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
  it('an unknown function is a finding, whatever its grants', () => {
    expect(compareFunctions([fn('later_helper', {})], new Map()).findings).toHaveLength(1);
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
