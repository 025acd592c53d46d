import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../model/index.ts';
import { compareFunctions } from '../../../../engine/checker/catalog.ts';
import { runCatalogProperty } from '../../../../engine/runner/catalog-property.ts';
import type { Environment } from '../../../../engine/runner/environment.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { expectHoldsWithCoverage } from '../../../../testing/property-holds.ts';
import { R15, R15_CATALOG } from './property.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R15 on the reference database', () => {
  it('data: holds, and its calls reach both the granted and the refused side', async () => {
    await expectHoldsWithCoverage(env, R15);
  });

  it('catalog: every function in public, passport and private is executable exactly as the model says', async () => {
    const result = await runCatalogProperty(env, R15_CATALOG, { seed: 2, settings: referenceOracle.settings });
    expect(result.failure?.message).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(result.counts.allowed).toBeGreaterThan(0);
    expect(result.counts.rejected).toBeGreaterThan(0);
  });
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
