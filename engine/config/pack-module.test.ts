/**
 * A pack's sweep (DataProperty.sweep) is the pack's own generator, as its cases are: one that throws
 * (`fc.constantFrom()` of an empty list) is a usage error naming the property, never policyfuzz's
 * internal error with a stack (cli: testing/real-app-fixtures.test.ts, "a pack's own mistakes").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.ts';
import type { DataProperty } from '../runner/data-property.ts';
import { loadPackModule, withCasesBlamingItsPack } from './pack-module.ts';

describe('withCasesBlamingItsPack', () => {
  it('guards the sweep as it guards the cases', () => {
    const property = { id: 'L01', cases: () => fc.constant({}), sweep: [() => fc.constantFrom<never>()] } as unknown as DataProperty;
    const guarded = withCasesBlamingItsPack(property, 'lists');
    expect(() => guarded.sweep?.[0]({} as never)).toThrow(UsageError);
    expect(() => guarded.sweep?.[0]({} as never)).toThrow(/^property L01 of pack lists: drawing a case threw: fc\.constantFrom expects at least one parameter/);
  });
});

describe('loadPackModule on a pack with its tables out of place', () => {
  const load = async (source: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-misplaced-tables-'));
    try {
      const file = path.join(dir, 'pack.mjs');
      writeFileSync(file, source);
      return await loadPackModule(file, '--pack').then(() => 'loaded', (e: Error) => e.message);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const rest = "name: 'p', properties: [], settingsSchema: { safeParse: (v) => ({ success: true, data: v }) }";

  it('tables beside name: names model.tables and where they go', async () => {
    expect(await load(`export default { ${rest}, tables: [], fixtureOrder: [] };\n`)).toMatch(/its default export lacks model\.tables \(model: \{ tables: \{ \[table\.table\]: table, … \}, fixtureOrder \}\)/);
  });

  it('model.tables as a list: names it, which otherwise keyed every table by its index', async () => {
    expect(await load(`export default { ${rest}, model: { tables: [], functions: {}, fixtureOrder: [] } };\n`)).toMatch(/lacks model\.tables as an object \(model: \{ tables: \{ \[table\.table\]: table, … \}, fixtureOrder \}\), not an array/);
  });
});
