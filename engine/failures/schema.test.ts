/** A saved failure's case is read back whatever request form and caller claims the case used. */
import { describe, expect, it } from 'vitest';
import { DataCaseSchema } from './schema.ts';

describe('the saved case schema', () => {
  it('reads back every request form and caller claim the harness sends', () => {
    const testCase = {
      world: { t: [{ id: 1 }] },
      steps: [
        { caller: { kind: 'user', id: 'u', aal: 'aal2', appMetadata: { role: 'admin' }, isAnonymous: false }, request: { kind: 'insert', table: 't', rows: [{ id: 1 }], returning: 'headers-only', columns: ['id'], upsert: { resolution: 'merge-duplicates', onConflict: ['id'] }, single: true } },
        { caller: { kind: 'anon' }, request: { kind: 'update', table: 't', patch: {}, filters: [], returning: 'minimal', columns: ['id'], single: true, maxAffected: 1 } },
        { caller: { kind: 'service' }, request: { kind: 'delete', table: 't', filters: [{ column: 'id', op: 'eq', value: 1 }], returning: 'representation', maxAffected: 2 } },
        { caller: { kind: 'service' }, request: { kind: 'rpc', fn: 'f', args: { a: 1 }, get: true } },
        { caller: { kind: 'anon' }, request: { kind: 'select', table: 't', columns: ['id'], filters: [], embeds: [{ table: 'c', columns: '*', inner: true }] } },
      ],
    };
    expect(DataCaseSchema.parse(testCase)).toEqual(testCase);
    expect(DataCaseSchema.safeParse({ ...testCase, steps: [{ ...testCase.steps[0], request: { ...testCase.steps[0].request, upsert: { resolution: 'overwrite' } } }] }).success).toBe(false);
  });
});
