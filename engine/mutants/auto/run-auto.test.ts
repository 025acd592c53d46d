/**
 * A survivor's reason when the properties naming its table were left out, failing on the
 * unmutated target. After TypeCell: its T05 (document_relations) failed on the app as it is (a real
 * finding), was left out, and every document_relations variant survived as "gap: no property names
 * public.document_relations" — a property did name it.
 */
import { describe, expect, it } from 'vitest';
import type { DataProperty } from '../../runner/data-property.ts';
import type { AutoMutant } from './derive.ts';
import { leftOutNaming, readElsewhere } from './run-auto.ts';

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

/**
 * A variant of a table no property names (Shelf.nu: 67 tables with row security and no policy, 272
 * migrations) ran every property, about 2.5 min each: it can change an answer only when something
 * else reads the table (another table's policy, a view, a function), so only then is it run.
 */
describe('whether anything besides requests to a table reads it', () => {
  const texts = [
    { owner: 'public.Tag', text: '(EXISTS ( SELECT 1 FROM "Tag" t WHERE (t."userId" = auth.uid())))' },
    { owner: 'public.notes', text: '(EXISTS ( SELECT 1 FROM members m WHERE (m.team_id = notes.team_id)))' },
    { text: 'begin return (select count(*) from public."AuditLog"); end' },
    { text: ' SELECT o.id FROM orders_archive o' },
  ];

  it('a table another policy, a function or a view names is read elsewhere (quoted, qualified or not, any case)', () => {
    expect(readElsewhere('public.members', texts)).toBe(true);
    expect(readElsewhere('public.AuditLog', texts)).toBe(true);
    expect(readElsewhere('public.orders_archive', texts)).toBe(true);
  });

  it('a table only its own policies name, or whose name is only part of another, is not', () => {
    expect(readElsewhere('public.Tag', texts)).toBe(false);
    expect(readElsewhere('public.orders', texts)).toBe(false);
    expect(readElsewhere('public.ActivityEvent', texts)).toBe(false);
  });

  it('a function variant is always run', () => {
    expect(readElsewhere('public.toggle_vote(p bigint)', [])).toBe(true);
  });
});
