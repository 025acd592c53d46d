/**
 * The model and the reference migrations describe the same tables: every column the database
 * has, the model names (so `*` answers are compared in full), and every column the model
 * names exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '../../../engine/runner/environment.ts';
import { referenceEnvironment } from '../../../testing/reference.ts';
import { tableModels } from '../model/tables/index.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment();
});
afterAll(() => env?.close());

describe('reference schema and model', () => {
  it.each(Object.keys(tableModels))('%s has the same columns in both', (name) => {
    const key = name.includes('.') ? name : `public.${name}`;
    const columns = env.cache.tables.get(key)?.map((c) => c.name).sort();
    expect(columns, `${key} is missing from the reference database`).toBeDefined();
    expect(tableModels[name].columns.map((c) => c.name).sort()).toEqual(columns);
  });
});
