/**
 * A survivor's reason when the properties naming its table were left out, failing on the
 * unmutated target. After TypeCell: its T05 (document_relations) failed on the app as it is (a real
 * finding), was left out, and every document_relations variant survived as "gap: no property names
 * public.document_relations" — a property did name it.
 */
import { describe, expect, it } from 'vitest';
import type { DataProperty } from '../../runner/data-property.ts';
import type { AutoMutant } from './derive.ts';
import { leftOutNaming } from './run-auto.ts';

const property = (id: string, tables: string[]) => ({ id, rule: 5, title: id, tables }) as unknown as DataProperty;
const mutant: AutoMutant = { name: 'always-true-relations-check', kind: 'always-true', target: 'public.document_relations', description: '', sql: '' };

describe('survivors of a table only a left-out property names', () => {
  it('name that property and why it did not run', () => {
    expect(leftOutNaming(mutant, [property('T05', ['document_relations'])], undefined)).toBe(
      'not run: T05, naming public.document_relations, already fails on the unmutated target (left out above)',
    );
  });
  it('stay a gap when no property names the table at all', () => {
    expect(leftOutNaming(mutant, [property('T01', ['documents'])], undefined)).toBeUndefined();
  });
});
