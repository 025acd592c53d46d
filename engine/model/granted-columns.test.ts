import { describe, expect, it } from 'vitest';
import { readingGrantedColumns } from './granted-columns.ts';
import type { TableModel } from './table-model.ts';
import type { ApiRequest } from './request.ts';
import type { Caller } from './caller.ts';

const column = (name: string) => ({ name, type: 'text' as const, nullable: true });
const tickets: TableModel = {
  table: 'tickets',
  columns: ['id', 'title', 'remarks', 'owner'].map(column),
  primaryKey: ['id'],
  grants: { anon: ['select'], authenticated: ['insert', 'update'], columnSelect: { authenticated: ['owner', 'id', 'title'] } },
  rowSecurity: true,
  rules: {},
};
const tables = { tickets };
const user: Caller = { kind: 'user', id: '00000000-0000-4000-8000-000000000001' };
const read: ApiRequest = { kind: 'select', table: 'tickets', columns: '*', filters: [] };

describe('readingGrantedColumns', () => {
  it("narrows a whole-row read to the role's granted columns, in the table's order", () => {
    expect(readingGrantedColumns(tables, undefined, user, read)).toEqual({ ...read, columns: ['id', 'title', 'owner'] });
  });

  it('leaves out the columns the target lacks', () => {
    expect(readingGrantedColumns(tables, undefined, user, read, (_t, c) => c === 'title')).toEqual({ ...read, columns: ['id', 'owner'] });
  });

  it("keeps R16's whole-row probe, a named select, a role with table-level SELECT, service_role and other tables as they are", () => {
    const unchanged: [Caller, ApiRequest][] = [
      [user, { ...read, wholeRow: true }],
      [user, { ...read, columns: ['id', 'remarks'] }],
      [{ kind: 'anon' }, read],
      [{ kind: 'service' }, read],
      [user, { ...read, table: 'others' }],
    ];
    for (const [caller, request] of unchanged) expect(readingGrantedColumns(tables, undefined, caller, request)).toBe(request);
  });

  it("narrows a write's RETURNING under return=representation, never a minimal one", () => {
    const insert: ApiRequest = { kind: 'insert', table: 'tickets', rows: [{ id: 'a' }], returning: 'representation' };
    expect(readingGrantedColumns(tables, undefined, user, insert)).toEqual({ ...insert, columns: ['id', 'title', 'owner'] });
    const minimal: ApiRequest = { ...insert, returning: 'minimal' };
    expect(readingGrantedColumns(tables, undefined, user, minimal)).toBe(minimal);
  });
});
