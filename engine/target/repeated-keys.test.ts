/**
 * A world drawing one member twice on a node (a team seat keyed `primary key (node_id, user_id)`,
 * stranger-app-2), or one e-mail twice where the target holds it unique folded (`unique (lower(kkumail))`,
 * stranger-app-5): every such case was dropped. Now the later row is left out, and the case runs
 * (a re-creation, not a stranger's migrations).
 */
import { describe, expect, it } from 'vitest';
import type { ColumnShape, TableShapes } from '../introspection/table-shapes.ts';
import { sendableCase, type FixturePlan } from './fixtures.ts';
import { repeatedKeysLeftOut } from './repeated-keys.ts';
import { unrealizableReason } from './realizable.ts';

const col = (c: Partial<ColumnShape> & { name: string }): ColumnShape => ({ type: 'text', notNull: false, hasDefault: false, generated: false, unique: false, ...c });

const shapes: TableShapes = new Map([
  [
    'api.seats',
    [
      col({ name: 'node_id', type: 'uuid', notNull: true, uniqueTogether: [{ name: 'seats_pkey', columns: ['node_id', 'user_id'], primaryKey: true }] }),
      col({ name: 'user_id', type: 'uuid', notNull: true }),
      col({ name: 'kkumail', uniqueIndexes: [{ name: 'seats_kkumail_key', fold: { lower: true, trim: false } }] }),
    ],
  ],
  ['users', [col({ name: 'id', type: 'uuid', primaryKey: true, uniqueIndexes: [{ name: 'users_pkey', fold: { lower: false, trim: false } }] }), col({ name: 'email', uniqueIndexes: [{ name: 'users_email_key', fold: { lower: true, trim: false } }] })]],
]);
const mapping = { tables: { team_members: { name: 'api.seats', columns: { email: 'kkumail' } } } };
const modelTables = new Set(['api.seats', 'users']);
const seat = (node_id: string, user_id: string, email: string) => ({ node_id, user_id, email });

describe('world rows repeating a unique key of the target', () => {
  it('leaves out the later row repeating a key of several columns, or one folded, and keeps the rest', () => {
    const world = {
      team_members: [seat('n1', 'u1', 'ann@x.ac'), seat('n2', 'u1', 'bob@x.ac'), seat('n1', 'u1', 'cy@x.ac'), seat('n3', 'u2', 'ANN@x.ac'), seat('n3', 'u3', 'dee@x.ac')],
    };
    const before = unrealizableReason({ 'api.seats': world.team_members.map(({ email, ...r }) => ({ ...r, kkumail: email })) }, shapes, modelTables);
    expect(before).toBe('api.seats (node_id, user_id) values collide under unique index seats_pkey');
    const kept = repeatedKeysLeftOut(world, shapes, mapping);
    expect(kept.team_members).toEqual([seat('n1', 'u1', 'ann@x.ac'), seat('n2', 'u1', 'bob@x.ac'), seat('n3', 'u3', 'dee@x.ac')]);
    expect(unrealizableReason({ 'api.seats': kept.team_members.map(({ email, ...r }) => ({ ...r, kkumail: email })) }, shapes, modelTables)).toBeUndefined();
  });

  it('leaves a world whose keys are distinct as it is, and a person\'s rows as drawn (still dropped, named)', () => {
    const distinct = { team_members: [seat('n1', 'u1', 'ann@x.ac'), seat('n1', 'u2', 'bob@x.ac')] };
    expect(repeatedKeysLeftOut(distinct, shapes, mapping)).toBe(distinct);
    const people = { users: [{ id: 'u1', email: 'ann@x.ac' }, { id: 'u2', email: 'Ann@x.ac' }] };
    expect(repeatedKeysLeftOut(people, shapes, mapping)).toBe(people);
  });

  it('sendableCase sends (and the model predicts) the world so', () => {
    const plan = { shapes, mapping, users: 'direct', bypassTriggers: false } as unknown as FixturePlan;
    const steps = [{ caller: { kind: 'anon' as const }, request: { kind: 'select' as const, table: 'team_members', columns: '*' as const, filters: [] } }];
    const { testCase } = sendableCase(plan, { world: { team_members: [seat('n1', 'u1', 'ann@x.ac'), seat('n1', 'u1', 'bob@x.ac')] }, steps });
    expect(testCase?.world.team_members).toEqual([seat('n1', 'u1', 'ann@x.ac')]);
  });
});
