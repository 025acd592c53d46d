/** Generated columns in the engine: computed on read, never written, refused in a body (428C9). */
import { describe, expect, it } from 'vitest';
import { predictTableRequest } from './engine.ts';
import { defaultSettings } from '../../packs/reference/model/settings.ts';
import type { TableModel } from './table-model.ts';

const model: TableModel = {
  table: 'things',
  columns: [
    { name: 'id', type: 'text', nullable: false },
    { name: 'ref', type: 'text', nullable: true, default: null },
    { name: 'has_ref', type: 'boolean', nullable: false, generated: (row) => (row.ref ?? null) !== null },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert', 'update'] },
  rowSecurity: false,
  rules: {},
};
const caller = { kind: 'user' as const, id: '11111111-1111-4111-8111-111111111111' };
const world = { things: [{ id: 'a', ref: null }, { id: 'b', ref: 'a' }] };

describe('generated columns', () => {
  it('reads and filters see the computed value', () => {
    const p = predictTableRequest(model, world, caller, { kind: 'select', table: 'things', columns: '*', filters: [{ column: 'has_ref', op: 'eq', value: true }] }, defaultSettings);
    expect(p.outcome).toEqual({ kind: 'allowed', rows: [{ id: 'b', ref: 'a', has_ref: true }], affected: 1 });
  });

  it('an insert or update naming the column is refused with 428C9; the stored row never holds it', () => {
    const ins = predictTableRequest(model, world, caller, { kind: 'insert', table: 'things', rows: [{ id: 'c', has_ref: false }], returning: 'minimal' }, defaultSettings);
    expect(ins.outcome).toMatchObject({ kind: 'error', code: '428C9' });
    const upd = predictTableRequest(model, world, caller, { kind: 'update', table: 'things', patch: { has_ref: true }, filters: [{ column: 'id', op: 'eq', value: 'a' }], returning: 'minimal' }, defaultSettings);
    expect(upd.outcome).toMatchObject({ kind: 'error', code: '428C9' });
    const ok = predictTableRequest(model, world, caller, { kind: 'insert', table: 'things', rows: [{ id: 'c', ref: 'b' }], returning: 'representation' }, defaultSettings);
    expect(ok.outcome).toEqual({ kind: 'allowed', rows: [{ id: 'c', ref: 'b', has_ref: true }], affected: 1 });
    expect(ok.world.things.at(-1)).toEqual({ id: 'c', ref: 'b' });
  });

  it('an unknown column is refused by PostgREST before the generated one (PGRST204)', () => {
    const p = predictTableRequest(model, world, caller, { kind: 'update', table: 'things', patch: { has_ref: true, nope: 1 }, filters: [], returning: 'minimal' }, defaultSettings);
    expect(p.outcome).toMatchObject({ kind: 'error', code: 'PGRST204' });
  });
});

describe('pg-safeupdate (Supabase): a PATCH or DELETE with no filter', () => {
  it('is refused with 21000 after PostgREST’s body check and before the rewriter’s 428C9', () => {
    const upd = predictTableRequest(model, world, caller, { kind: 'update', table: 'things', patch: { has_ref: true }, filters: [], returning: 'minimal' }, defaultSettings);
    expect(upd.outcome).toMatchObject({ kind: 'error', code: '21000' });
    expect(upd.world).toBe(world);
    const del = predictTableRequest(model, world, caller, { kind: 'delete', table: 'things', filters: [], returning: 'representation' }, defaultSettings);
    expect(del.outcome).toMatchObject({ kind: 'error', code: '21000' });
    const filtered = predictTableRequest(model, world, caller, { kind: 'delete', table: 'things', filters: [{ column: 'id', op: 'eq', value: 'a' }], returning: 'minimal' }, defaultSettings);
    expect(filtered.outcome.kind).not.toBe('error');
  });
});

describe('grants.service_role: a schema exposed without USAGE for service_role (pgflow)', () => {
  const service = { kind: 'service' as const };
  const read = { kind: 'select' as const, table: 'things', columns: '*' as const, filters: [] };
  it('service_role is refused (42501) what it is not granted, and holds everything where grants do not name it', () => {
    const anonOnly: TableModel = { ...model, grants: { anon: ['select'], authenticated: [], service_role: [] } };
    expect(predictTableRequest(anonOnly, world, service, read, defaultSettings).outcome).toMatchObject({ kind: 'rejected', code: '42501', by: 'grant' });
    const upd = predictTableRequest(anonOnly, world, service, { kind: 'update', table: 'things', patch: { ref: 'b' }, filters: [{ column: 'id', op: 'eq', value: 'a' }], returning: 'minimal' }, defaultSettings);
    expect(upd.outcome).toMatchObject({ kind: 'rejected', code: '42501' });
    expect(predictTableRequest(anonOnly, world, { kind: 'anon' }, read, defaultSettings).outcome).toMatchObject({ kind: 'allowed' });
    expect(predictTableRequest(model, world, service, read, defaultSettings).outcome).toMatchObject({ kind: 'allowed', affected: 2 });
  });
});
