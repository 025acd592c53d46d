/**
 * ON DELETE on a target read from its catalog (a starter kit's DELETE of a parent: about 10% of
 * nextbase's B02 cases were dropped as "needs a parent row the case lacks"): the model predicts
 * the cascade, the nulls and the refusal from the target's foreign keys, so such a case is
 * checked, and a wrong prediction of them is a disagreement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predict } from '../model/predict.ts';
import type { TableModel } from '../model/table-model.ts';
import type { Oracle } from '../pack.ts';
import { checkCase } from '../runner/check-case.ts';
import type { DataCase } from '../runner/data-case.ts';
import type { Environment } from '../runner/environment.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { foreignKeyActionsOn, withForeignKeyActions } from './foreign-key-actions.ts';
import { NotRealizable } from './realizable.ts';
import { constantDefaultOf } from '../introspection/table-shapes.ts';

const SQL = `
create table public.fk_parents (id int primary key, title text);
create table public.fk_children (id int primary key, parent_id int not null references public.fk_parents (id) on delete cascade);
create table public.fk_notes (id int primary key, parent_id int references public.fk_parents (id) on delete set null);
create table public.fk_pins (id int primary key, parent_id int references public.fk_parents (id) on delete restrict);
alter table public.fk_parents enable row level security;
alter table public.fk_children enable row level security;
alter table public.fk_notes enable row level security;
alter table public.fk_pins enable row level security;
create policy fk_parents_all on public.fk_parents for all to authenticated using (true);
-- Readable only: the caller may not delete children or null notes, which the cascade does as the owner.
create policy fk_children_read on public.fk_children for select to authenticated using (true);
create policy fk_notes_read on public.fk_notes for select to authenticated using (true);
create policy fk_pins_read on public.fk_pins for select to authenticated using (true);
revoke all on public.fk_parents, public.fk_children, public.fk_notes, public.fk_pins from anon, authenticated;
grant select, delete on public.fk_parents to authenticated;
grant select on public.fk_children, public.fk_notes, public.fk_pins to authenticated;

-- Column defaults a pack's world rows leave out (the database fills them): see 'column defaults' below.
create type public.fk_draft_kind as enum ('memo', 'letter');
create table public.fk_drafts (
  id int primary key, title text not null,
  status character varying(10) not null default 'draft', is_public boolean not null default false, kind public.fk_draft_kind not null default 'memo',
  meta jsonb not null default '{}', tags text[] not null default '{}', rank int not null default -1,
  created_at timestamptz not null default now()
);
alter table public.fk_drafts enable row level security;
create policy fk_drafts_read on public.fk_drafts for select to authenticated using (not is_public and status = 'draft');
revoke all on public.fk_drafts from anon, authenticated;
grant select on public.fk_drafts to authenticated;
`;

const readable = (table: string, columns: [string, boolean][], privileges: ('select' | 'delete')[] = ['select']): TableModel => ({
  table,
  columns: columns.map(([name, nullable]) => ({ name, type: name === 'title' ? 'text' : 'integer', nullable })),
  primaryKey: ['id'],
  grants: { anon: [], authenticated: privileges },
  rowSecurity: true,
  rules: { select: () => true, ...(privileges.includes('delete') ? { deleteUsing: () => true } : {}) },
});
const tables = {
  fk_parents: readable('fk_parents', [['id', false], ['title', true]], ['select', 'delete']),
  fk_children: readable('fk_children', [['id', false], ['parent_id', false]]),
  fk_notes: readable('fk_notes', [['id', false], ['parent_id', true]]),
  fk_pins: readable('fk_pins', [['id', false], ['parent_id', true]]),
};
const plain: Oracle = { model: { tables, functions: {}, fixtureOrder: Object.keys(tables) }, settings: {} };
const alice = { kind: 'user' as const, id: 'a11ce000-0000-4000-8000-000000000001' };
const world = {
  fk_parents: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }, { id: 3, title: 'c' }],
  fk_children: [{ id: 10, parent_id: 1 }, { id: 11, parent_id: 1 }, { id: 20, parent_id: 2 }],
  fk_notes: [{ id: 30, parent_id: 1 }, { id: 31, parent_id: 2 }],
  fk_pins: [{ id: 40, parent_id: 3 }],
};
const read = (table: string) => ({ caller: alice, request: { kind: 'select' as const, table, columns: '*' as const, filters: [] } });
const deleteParent = (id: number): DataCase => ({
  world,
  steps: [{ caller: alice, request: { kind: 'delete', table: 'fk_parents', filters: [{ column: 'id', op: 'eq', value: id }], returning: 'minimal' } }, read('fk_parents'), read('fk_children'), read('fk_notes')],
});

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment({ workers: 1, extra: [{ name: '9991_fk_actions.sql', path: '9991_fk_actions.sql', sql: SQL }], fixtures: { users: 'direct', bypassTriggers: false } });
});
afterAll(() => env?.close());

const check = async (testCase: DataCase, oracle: Oracle) => {
  try {
    return await checkCase(env.workers[0].tx, testCase, oracle);
  } finally {
    await env.workers[0].tx.end();
  }
};

describe('ON DELETE from the target catalog', () => {
  it('reads each foreign key with its action, in model names', () => {
    expect(foreignKeyActionsOn(env.workers[0].tx.fixturePlan, plain.model)).toEqual([
      { table: 'fk_children', column: 'parent_id', references: 'fk_parents', referencedColumn: 'id', onDelete: 'cascade' },
      { table: 'fk_notes', column: 'parent_id', references: 'fk_parents', referencedColumn: 'id', onDelete: 'set null' },
      { table: 'fk_pins', column: 'parent_id', references: 'fk_parents', referencedColumn: 'id', onDelete: 'restrict' },
    ]);
  });

  it('without them a DELETE of a referenced parent leaves orphans the target cannot hold: the case was dropped', async () => {
    await expect(check(deleteParent(1), plain)).rejects.toThrow(NotRealizable);
  });

  it('with them the case is checked: children cascaded (whatever their own row rules), notes set null, a restricting key refuses (23503)', async () => {
    const oracle = withForeignKeyActions(plain, env.workers[0].tx.fixturePlan);
    const verdict = await check(deleteParent(1), oracle);
    expect(verdict.mismatch?.reason).toBeUndefined();
    expect(verdict.history.map((h) => h.observed)).toMatchObject([
      { kind: 'allowed', affected: 1 },
      { rows: [{ id: 2 }, { id: 3 }] },
      { rows: [{ id: 20, parent_id: 2 }] },
      { rows: expect.arrayContaining([{ id: 30, parent_id: null }, { id: 31, parent_id: 2 }]) },
    ]);
    const pinned = await check(deleteParent(3), oracle);
    expect(pinned.mismatch?.reason).toBeUndefined();
    expect(pinned.history[0].predicted).toMatchObject({ kind: 'error', code: '23503' });
  });

  it('a wrong prediction of them is a disagreement (notes predicted cascaded where the target sets null)', async () => {
    const right = withForeignKeyActions(plain, env.workers[0].tx.fixturePlan);
    const wrong: Oracle = { ...right, foreignKeyActions: right.foreignKeyActions!.map((a) => (a.onDelete === 'set null' ? { ...a, onDelete: 'cascade' } : a)) };
    expect(predict(wrong, world, alice, deleteParent(1).steps[0].request).world.fk_notes).toEqual([{ id: 31, parent_id: 2 }]);
    const verdict = await check(deleteParent(1), wrong);
    expect(verdict.mismatch).toMatchObject({ step: 3 });
  });
});

/**
 * A world row that leaves out columns the database fills with a constant default (a false alarm
 * on a user pack: the model read `is_public` as absent where the row holds false).
 */
describe('column defaults', () => {
  const drafts: TableModel = {
    table: 'fk_drafts',
    columns: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'title', type: 'text', nullable: false },
      { name: 'status', type: 'text', nullable: false },
      { name: 'is_public', type: 'boolean', nullable: false },
      { name: 'kind', type: 'text', nullable: false },
      { name: 'meta', type: 'jsonb', nullable: false },
      { name: 'tags', type: 'text[]', nullable: false },
      { name: 'rank', type: 'integer', nullable: false },
      { name: 'created_at', type: 'timestamptz', nullable: false, serverAssigned: true },
    ],
    primaryKey: ['id'],
    grants: { anon: [], authenticated: ['select'] },
    rowSecurity: true,
    rules: { select: (r) => r.is_public === false && r.status === 'draft' },
  };
  const oracle: Oracle = { model: { tables: { fk_drafts: drafts }, functions: {}, fixtureOrder: ['fk_drafts'] }, settings: {} };

  it('are read from the catalog when constant (as PostgREST answers them), not when the server computes them', () => {
    const defaults = Object.fromEntries((env.workers[0].tx.fixturePlan.shapes!.get('fk_drafts') ?? []).map((c) => [c.name, c.constantDefault]));
    expect(defaults).toEqual({ id: undefined, title: undefined, status: 'draft', is_public: false, kind: 'memo', meta: {}, tags: [], rank: -1, created_at: undefined });
    expect(constantDefaultOf("'[1, 2]'::jsonb", 'jsonb')).toEqual([1, 2]);
    // An enum array's labels (stranger-app-14's `roles app_role[] default '{user}'`): its elements; quoted elements stay unread.
    expect(constantDefaultOf("'{user}'::public.app_role[]", 'public.app_role[]')).toEqual(['user']);
    expect(constantDefaultOf("'{vs,pr}'::app_permission[]", 'app_permission[]')).toEqual(['vs', 'pr']);
    expect(constantDefaultOf(`'{"a b"}'::app_permission[]`, 'app_permission[]')).toBeUndefined();
    expect(constantDefaultOf('1.5', 'numeric')).toBe(1.5);
    expect(constantDefaultOf("'2026-01-01'::date", 'date')).toBeUndefined();
    expect(constantDefaultOf('gen_random_uuid()', 'uuid')).toBeUndefined();
    expect(constantDefaultOf("nextval('t_id_seq'::regclass)", 'bigint')).toBeUndefined();
    expect(constantDefaultOf("'{a,b}'::text[]", 'text[]')).toBeUndefined();
  });

  it('fill the world row the model predicts from: a read of a row that leaves them out agrees (the model saw them absent: a false alarm)', async () => {
    const testCase: DataCase = { world: { fk_drafts: [{ id: 1, title: 't' }] }, steps: [read('fk_drafts')] };
    const verdict = await check(testCase, oracle);
    expect(verdict.mismatch?.reason).toBeUndefined();
    expect(verdict.history[0].observed).toMatchObject({ rows: [{ id: 1, title: 't', status: 'draft', is_public: false, kind: 'memo', meta: {}, tags: [], rank: -1 }] });
    // A row that gives a column keeps its own value.
    const given = await check({ world: { fk_drafts: [{ id: 1, title: 't', is_public: true }] }, steps: [read('fk_drafts')] }, oracle);
    expect(given.mismatch?.reason).toBeUndefined();
    expect(given.history[0].observed).toMatchObject({ rows: [] });
  });
});
