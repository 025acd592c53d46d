/**
 * A duplicate key (23505) on the answer path, where the model let the write succeed: dropped,
 * counted, where the key is none the model keeps (an expression index the catalog cannot follow, a
 * partial one, another unique key); a finding where it is the model's own primary key.
 */
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../executor/response.ts';
import type { ColumnShape, TableShapes } from '../introspection/table-shapes.ts';
import { sqlError } from '../model/outcome.ts';
import { unrealizableAnswer, type FixturePlan } from './fixtures.ts';
import { KEY_THE_MODEL_LACKS, modelKeysOnTarget } from './key-the-model-lacks.ts';
import { remedyFor } from './realizable.ts';

const column = (name: string, extra: Partial<ColumnShape> = {}): ColumnShape => ({ name, type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...extra });
const shapes: TableShapes = new Map([
  // Read by the catalog: the primary key, a plain unique index; not read: members_lower_email_key on lower(email) where not deleted (partial).
  ['members', [column('id', { unique: true, primaryKey: true, primaryKeyName: 'members_pkey' }), column('email'), column('handle', { uniqueIndexes: [{ name: 'members_handle_key', fold: { lower: false, trim: false } }] })]],
  ['seats', [column('team', { uniqueTogether: [{ name: 'seats_pkey', columns: ['team', 'person'], primaryKey: true }] }), column('person')]],
  ['api.people', [column('uid', { unique: true, primaryKey: true, primaryKeyName: 'people_pkey' }), column('ref', { uniqueIndexes: [{ name: 'people_ref_key', fold: { lower: false, trim: false } }] })]],
]);
const plan = { shapes } as unknown as FixturePlan;
const tables = { members: { primaryKey: ['id'] }, seats: { primaryKey: ['team', 'person'] }, people: { primaryKey: ['id'] } };
const keys = modelKeysOnTarget({ tables: { people: { name: 'api.people', columns: { id: 'ref' } } } }, tables);
const duplicate = (name: string, details: string | null = null): ApiResponse => ({ status: 409, body: null, affected: null, error: { code: '23505', message: `duplicate key value violates unique constraint "${name}"`, details, hint: null } });
const allowed = { kind: 'allowed' as const, rows: null, affected: 1 };

describe('a duplicate key the model did not predict', () => {
  it('on a key the model does not keep, where it let the write succeed: dropped, named, with its remedy', () => {
    // Partial, on an expression: the catalog read none of that name; Postgres hides the key under row security.
    const reason = unrealizableAnswer(plan, duplicate('members_lower_email_key'), allowed, ['members'], undefined, keys);
    expect(reason).toBe(`members_lower_email_key refused a row the model writes: ${KEY_THE_MODEL_LACKS}`);
    expect(remedyFor(reason!)).toMatch(/^the target holds unique a key the model lets repeat/);
    // Read by the catalog, but not the model's key; and a trigger's table's key, with the detail shown.
    expect(unrealizableAnswer(plan, duplicate('members_handle_key', 'Key (handle)=(x) already exists.'), allowed, ['members'], undefined, keys)).toMatch(KEY_THE_MODEL_LACKS);
    expect(unrealizableAnswer(plan, duplicate('audit_log_pkey', 'Key (id)=(1) already exists.'), { kind: 'filtered', rows: [] } as never, ['members'], undefined, keys)).toMatch(KEY_THE_MODEL_LACKS);
  });

  it("on the model's own key (its primary key, through the mapping), or where the model refused the write: judged (a finding when they disagree)", () => {
    expect(unrealizableAnswer(plan, duplicate('members_pkey'), allowed, ['members'], undefined, keys)).toBeUndefined();
    expect(unrealizableAnswer(plan, duplicate('seats_pkey'), allowed, ['seats'], undefined, keys)).toBeUndefined();
    // The model's people.id is the target's api.people.ref: its unique index is the model's key, the target's own uid is not.
    expect(unrealizableAnswer(plan, duplicate('people_ref_key'), allowed, ['people'], undefined, keys)).toBeUndefined();
    expect(unrealizableAnswer(plan, duplicate('people_pkey'), allowed, ['people'], undefined, keys)).toMatch(KEY_THE_MODEL_LACKS);
    // The model refused it (row security's check comes before the unique indexes): the target let it through that far.
    expect(unrealizableAnswer(plan, duplicate('members_lower_email_key'), sqlError('42501', 'new row violates row-level security policy'), ['members'], undefined, keys)).toBeUndefined();
  });
});
