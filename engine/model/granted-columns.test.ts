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
// Remarks on a ticket: the role reads some of their columns only; a read of tickets embeds them (`tickets(*), remarks(*)`).
const remarks: TableModel = {
  table: 'remarks',
  columns: ['id', 'ticket_id', 'body', 'internal_note'].map(column),
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['insert'], columnSelect: { authenticated: ['id', 'ticket_id', 'body'] } },
  rowSecurity: true,
  rules: {},
  foreignKeys: [{ column: 'ticket_id', references: 'tickets', referencedColumn: 'id' }],
};
const tables = { tickets, remarks };
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

  it("narrows an embedded table(*) to the role's granted columns of the embedded table, whatever the parent's columns", () => {
    const named: ApiRequest = { kind: 'select', table: 'tickets', columns: ['id'], filters: [], embeds: [{ table: 'remarks', columns: '*', inner: true }] };
    expect(readingGrantedColumns(tables, undefined, user, named)).toEqual({ ...named, embeds: [{ table: 'remarks', columns: ['id', 'ticket_id', 'body'], inner: true }] });
    const whole: ApiRequest = { ...read, embeds: [{ table: 'remarks', columns: '*' }] };
    expect(readingGrantedColumns(tables, undefined, user, whole)).toEqual({ ...read, columns: ['id', 'title', 'owner'], embeds: [{ table: 'remarks', columns: ['id', 'ticket_id', 'body'] }] });
    // The child read embedding its parent (many-to-one) likewise.
    const up: ApiRequest = { kind: 'select', table: 'remarks', columns: ['id'], filters: [], embeds: [{ table: 'tickets', columns: '*' }] };
    expect(readingGrantedColumns(tables, undefined, user, up)).toEqual({ ...up, embeds: [{ table: 'tickets', columns: ['id', 'title', 'owner'] }] });
  });

  it('keeps an embed that names its columns, one the role may select whole, and one of no known relationship as they are', () => {
    const unchanged: [Caller, ApiRequest][] = [
      [user, { kind: 'select', table: 'tickets', columns: ['id'], filters: [], embeds: [{ table: 'remarks', columns: ['body'] }] }],
      [{ kind: 'anon' }, { kind: 'select', table: 'remarks', columns: ['id'], filters: [], embeds: [{ table: 'tickets', columns: '*' }] }],
      [user, { kind: 'select', table: 'tickets', columns: ['id'], filters: [], embeds: [{ table: 'others', columns: '*' }] }],
      [user, { kind: 'select', table: 'tickets', columns: '*', filters: [], wholeRow: true, embeds: [{ table: 'remarks', columns: '*' }] }],
    ];
    for (const [caller, request] of unchanged) expect(readingGrantedColumns(tables, undefined, caller, request)).toBe(request);
  });
});
