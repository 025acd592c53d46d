import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../model/index.ts';
import { compareTables } from '../../../../engine/checker/catalog.ts';
import { runCatalogProperty } from '../../../../engine/runner/catalog-property.ts';
import type { Environment } from '../../../../engine/runner/environment.ts';
import { referenceEnvironment } from '../../../../testing/reference.ts';
import { expectHoldsWithCoverage } from '../../../../testing/property-holds.ts';
import { tableModels } from '../../model/tables/index.ts';
import { defaultSettings } from '../../model/settings.ts';
import { R16, R16_CATALOG } from './property.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('R16 on the reference database', () => {
  it('data: holds, and its requests reach both the granted and the refused side', async () => {
    await expectHoldsWithCoverage(env, R16);
  });

  it('catalog: every table and view holds exactly the model’s grants', async () => {
    const result = await runCatalogProperty(env, R16_CATALOG, { seed: 2, settings: referenceOracle.settings });
    expect(result.failure?.message).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(result.counts.allowed).toBeGreaterThan(0);
    expect(result.counts.rejected).toBeGreaterThan(0);
  });
});

describe('compareTables', () => {
  it('a table unknown to the model, and a table without row security the model has rules for, are findings', () => {
    const none = { anon: [], authenticated: [] };
    const r = compareTables(
      [
        { name: 'later_table', kind: 'table', rowSecurity: true, securityInvoker: false, privileges: { anon: ['select'], authenticated: ['select'] } },
        { name: 'identity_conflicts', kind: 'table', rowSecurity: false, securityInvoker: false, privileges: { ...none, authenticated: ['select'] } },
      ],
      tableModels,
      defaultSettings,
    );
    expect(r.findings).toHaveLength(2);
  });
  it('a view the model reads with row rules must run with the invoker’s rights', () => {
    const r = compareTables([{ name: 'passport.user_tiers', kind: 'view', rowSecurity: false, securityInvoker: false, privileges: { anon: [], authenticated: ['select'] } }], tableModels, defaultSettings);
    expect(r.findings).toHaveLength(1);
  });
});
