/**
 * A survivor's reason when the properties naming its table were left out, failing on the
 * unmutated target. After TypeCell: its T05 (document_relations) failed on the app as it is (a real
 * finding), was left out, and every document_relations variant survived as "gap: no property names
 * public.document_relations" — a property did name it.
 */
import { describe, expect, it } from 'vitest';
import type { DataProperty } from '../../runner/data-property.ts';
import type { AutoMutant } from './derive.ts';
import { leftOutCovering, leftOutNaming, reachingObjects, survivedCovering } from './run-auto.ts';

const property = (id: string, tables: string[]) => ({ id, rule: 5, title: id, tables }) as unknown as DataProperty;
const mutant: AutoMutant = { name: 'always-true-relations-check', kind: 'always-true', target: 'public.document_relations', description: '', sql: '' };

describe('survivors of a table only a left-out property names', () => {
  it('name that property and why it did not run', () => {
    expect(leftOutNaming(mutant, [property('T05', ['document_relations'])], undefined)).toBe(
      'not run: T05, naming public.document_relations, already fails on the unmutated target (left out above); fix that first',
    );
  });
  it('stay a gap when no property names the table at all', () => {
    expect(leftOutNaming(mutant, [property('T01', ['documents'])], undefined)).toBeUndefined();
  });
});

/**
 * A variant of a table no property names (Shelf.nu: 67 tables with row security and no policy;
 * classroomio: 138 of 173 survivors) ran every property, seconds to minutes each: a request sees it
 * only through the SQL that reads the object, so only a property naming one of those can kill it.
 */
describe('the objects whose SQL reaches a variant', () => {
  const texts = [
    { owner: 'public.Tag', text: '(EXISTS ( SELECT 1 FROM "Tag" t WHERE (t."userId" = auth.uid())))' },
    { owner: 'public.notes', text: '(EXISTS ( SELECT 1 FROM members m WHERE (m.team_id = notes.team_id)))' },
    { owner: 'public.members', text: 'public.is_admin(auth.uid())' },
    { owner: 'public.audit_count', text: 'begin return (select count(*) from public."AuditLog"); end' },
    { owner: 'public.archive_view', text: ' SELECT o.id FROM orders_archive o' },
    { owner: 'public.orders', text: 'public.audit_count() > 0' },
    // A guard trigger: the table's writes call its function (the reference's allow-list guards).
    { owner: 'public.users', text: 'private.guard_users_owner_update()' },
  ];
  const reaching = (target: string) => reachingObjects(target, texts).filter((o) => o.includes('.')).sort();

  it('another table\'s policy, a function body, a view, transitively (quoted, qualified or not, any case)', () => {
    expect(reaching('public.members')).toEqual(['public.members', 'public.notes']);
    expect(reaching('public.is_admin(uid uuid)')).toEqual(['public.is_admin', 'public.members', 'public.notes']);
    expect(reaching('public.AuditLog')).toEqual(['public.AuditLog', 'public.audit_count', 'public.orders']);
    expect(reaching('public.orders_archive')).toEqual(['public.archive_view', 'public.orders_archive']);
    expect(reaching('private.guard_users_owner_update()')).toEqual(['private.guard_users_owner_update', 'public.users']);
  });

  it('only the object itself when nothing else names it, or names it only as part of a longer name', () => {
    expect(reaching('public.Tag')).toEqual(['public.Tag']);
    expect(reaching('public.ActivityEvent')).toEqual(['public.ActivityEvent']);
    expect(reaching('public.order')).toEqual(['public.order']);
  });
});

describe('a survivor names the properties run on it', () => {
  it("a drop-revoke no data property covers, run by the catalog check alone, names it (was `survived : …`)", () => {
    const revoke: AutoMutant = { name: 'drop-revoke-helper', kind: 'drop-revoke', target: 'private.helper()', description: '', sql: '' };
    expect(survivedCovering(revoke, [{ id: 'R15' }])).toBe('survived R15: an equivalent variant, or a gap in that property');
    // The catalog check and the data property of one rule: named once.
    expect(survivedCovering(revoke, [{ id: 'R15' }, property('R15', ['t']), property('R03', ['t'])])).toBe('survived R15, R03: an equivalent variant, or a gap in those properties');
  });

  it("names no left-out property when none of them names its target (Readest: RD02, naming book_shares, was said to name the inbox rpcs)", () => {
    const rpc: AutoMutant = { name: 'function-drop-conjunct-complete-inbox-item-1-3', kind: 'function-drop-conjunct', target: 'public.complete_inbox_item(p_id uuid, p_device text)', description: '', sql: '' };
    const shares = { ...property('RD02', ['book_shares']), functions: ['increment_book_share_download'] } as DataProperty;
    expect(leftOutCovering(rpc, [shares], undefined)).toEqual([]);
    expect(survivedCovering(rpc, [property('RD04', ['send_inbox'])], leftOutCovering(rpc, [shares], undefined))).toBe('survived RD04: an equivalent variant, or a gap in that property');
    // One that does name it is still named.
    const settles = { ...property('RD05', ['send_inbox']), functions: ['complete_inbox_item'] } as DataProperty;
    expect(leftOutCovering(rpc, [shares, settles], undefined).map((p) => p.id)).toEqual(['RD05']);
  });

  it('names the properties naming its target that were left out as failing, which did not judge it (after Supavec and the waiting list: a write variant survived the read property alone)', () => {
    const insert: AutoMutant = { name: 'widen-roles-files-insert', kind: 'widen-roles', target: 'public.files', description: '', sql: '' };
    expect(survivedCovering(insert, [property('V02', ['files'])], [property('V03', ['files'])])).toBe(
      'survived V02: an equivalent variant, or a gap in that property; V03, naming public.files too, was left out (already failing on the unmutated target) and did not judge it',
    );
  });
});
