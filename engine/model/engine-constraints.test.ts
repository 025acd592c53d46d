/**
 * Constraint order on writes, as Postgres applies it (checked against the reference database by
 * R01/R04): every NOT NULL before any CHECK, then the primary key's unique index — also when an
 * UPDATE changes the key.
 */
import { describe, expect, it } from 'vitest';
import { predictTableRequest } from './engine.ts';
import { defaultSettings } from '../../packs/reference/model/settings.ts';
import type { TableModel } from './table-model.ts';

const things: TableModel = {
  table: 'things',
  columns: [
    { name: 'id', type: 'text', nullable: false },
    { name: 'a_checked', type: 'integer', nullable: false, default: 0, check: (v) => typeof v === 'number' && v >= 0 },
    { name: 'z_required', type: 'text', nullable: false, default: 'x' },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: [] },
  rowSecurity: true,
  rules: {},
};
const world = { things: [{ id: 'one', a_checked: 1, z_required: 'x' }, { id: 'two', a_checked: 2, z_required: 'y' }] };
const service = { kind: 'service' as const };
const patch = (body: Record<string, unknown>) =>
  predictTableRequest(things, world, service, { kind: 'update', table: 'things', patch: body as never, filters: [{ column: 'id', op: 'eq', value: 'one' }], returning: 'minimal' }, defaultSettings);

describe('engine: constraint order', () => {
  it('a NOT NULL violation wins over a CHECK violation in an earlier column', () => {
    expect(patch({ a_checked: -1, z_required: null }).outcome).toMatchObject({ kind: 'error', code: '23502' });
  });

  it('an UPDATE that gives a row another row’s primary key is a unique violation', () => {
    expect(patch({ id: 'two' }).outcome).toMatchObject({ kind: 'error', code: '23505' });
    expect(patch({ id: 'three' }).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
  });

  it('a CHECK violation comes before the unique index', () => {
    expect(patch({ id: 'two', a_checked: -1 }).outcome).toMatchObject({ kind: 'error', code: '23514' });
  });
});

describe('engine: an UPDATE policy without WITH CHECK', () => {
  // `create policy p on docs for update to authenticated using (owner = auth.uid())`, no WITH CHECK:
  // PostgreSQL checks the new row with the USING too (re-created after onlook's projects policy).
  const docs: TableModel = {
    table: 'docs',
    columns: [{ name: 'id', type: 'text', nullable: false }, { name: 'owner', type: 'uuid', nullable: false }, { name: 'title', type: 'text', nullable: true }],
    primaryKey: ['id'],
    grants: { anon: [], authenticated: ['select', 'update'] },
    rowSecurity: true,
    rules: { select: () => true, updateUsing: (row, ctx) => row.owner === ctx.uid },
  };
  const me = '11111111-1111-4111-8111-111111111111';
  const other = '22222222-2222-4222-8222-222222222222';
  const update = (body: Record<string, unknown>) =>
    predictTableRequest(docs, { docs: [{ id: 'd', owner: me, title: 'a' }] }, { kind: 'user', id: me }, { kind: 'update', table: 'docs', patch: body as never, filters: [{ column: 'id', op: 'eq', value: 'd' }], returning: 'minimal' }, defaultSettings);

  it('checks the new row with the USING: the owner edits, and cannot hand the row over', () => {
    expect(update({ title: 'b' }).outcome).toMatchObject({ kind: 'allowed', affected: 1 });
    expect(update({ owner: other }).outcome).toMatchObject({ kind: 'rejected', by: 'policy' });
  });
});
