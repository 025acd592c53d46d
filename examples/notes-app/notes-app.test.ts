/**
 * The notes app, tested as its owners would: through policyfuzz's public entry points only
 * (`policyfuzz`, `policyfuzz/vitest`). Its rules hold on its migrations, and each broken
 * variant of its policies is caught by the rule it breaks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadMigrationFolder, openEnvironment, oracleOf, runDataProperty, type Environment } from 'policyfuzz';
import { describePack } from 'policyfuzz/vitest';
import pack from './policyfuzz.pack.ts';

describePack(pack, { databaseUrl: inject('databaseUrl'), runs: 150, seed: 4 });

describe('notes-app: every broken variant is caught by its rule', () => {
  const mutantsDir = pack.mutants!;
  for (const file of readdirSync(mutantsDir).filter((f) => f.endsWith('.sql'))) {
    const sql = readFileSync(path.join(mutantsDir, file), 'utf8');
    const rule = /^--\s*rules:\s*(\S+)/m.exec(sql)![1];
    let env: Environment;
    beforeAll(async () => {
      env = await openEnvironment({ databaseUrl: inject('databaseUrl'), migrations: loadMigrationFolder(pack.migrations!), extra: [{ name: file, path: path.join(mutantsDir, file), sql }], workers: 1 });
    });
    afterAll(() => env?.close());

    it(`${file} fails ${rule}`, async () => {
      const property = pack.properties.find((p) => p.id === rule)!;
      const result = await runDataProperty(env, property, { seed: 4, runs: 150, oracle: oracleOf(pack) });
      expect(result.status).toBe('failed');
      expect(result.failure?.message).toMatch(/step 1/);
    });
  }
});
