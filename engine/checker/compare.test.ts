import { describe, expect, it } from 'vitest';
import { anyOf, filtered, outcomeClass, raised, rejectedByPolicy, sqlError, allowed } from '../model/outcome.ts';
import { compareOutcomes, embedOrderMask, orderMask, timestampMask } from './compare.ts';
import { maskedColumns } from '../runner/check-case.ts';
import type { Oracle } from '../pack.ts';
import type { TableModel } from '../model/table-model.ts';
import { REFERENCE_PLAN, type FixturePlan } from '../target/fixtures.ts';

describe('comparing a prediction with the database', () => {
  it('a multi-row write may stop at any failing row: each of its failures agrees', () => {
    const expected = anyOf([raised('P0001'), rejectedByPolicy(), raised('P0001')]);
    expect(expected).toMatchObject({ kind: 'raised', code: 'P0001', orElse: [{ kind: 'rejected', by: 'policy' }] });
    expect(compareOutcomes(expected, sqlError('P0001'))).toBeUndefined();
    expect(compareOutcomes(expected, { kind: 'rejected', code: '42501', by: 'policy' })).toBeUndefined();
    expect(compareOutcomes(expected, { kind: 'rejected', code: '42501', by: 'grant' })?.reason).toMatch(/error P0001|42501/);
    expect(compareOutcomes(expected, allowed(null, 2))).toBeDefined();
  });

  it("a function refusing in its answer (custom claims' get_claims: {\"error\": \"access denied\"}, 200) is filtered with PostgREST's count: agrees with the answer, and is the deny side", () => {
    const denied = filtered([{ error: 'access denied' }], 1);
    expect(outcomeClass(denied)).toBe('filtered');
    expect(compareOutcomes(denied, allowed([{ error: 'access denied' }], 1))).toBeUndefined();
    expect(compareOutcomes(denied, allowed([{ provider: 'email' }], 1))?.reason).toBe('returned columns differ: database (provider), model (error)');
  });

  it('"some error" is never a denial', () => {
    expect(compareOutcomes(rejectedByPolicy(), sqlError('22P02'))?.reason).toBe('database answered error 22P02, model expected 42501 (policy)');
  });

  it('rows agree as a multiset, server-assigned columns present but not compared', () => {
    const rows = [{ id: 1, updated_at: 'a' }, { id: 2, updated_at: 'b' }];
    expect(compareOutcomes(allowed(rows, 2), allowed([{ id: 2, updated_at: 'x' }, { id: 1, updated_at: 'y' }], 2), ['updated_at'])).toBeUndefined();
    expect(compareOutcomes(allowed(rows, 2), allowed([{ id: 2, updated_at: 'x' }], 2), ['updated_at'])?.reason).toBe('returned rows differ');
  });

  it('a timestamp written as SQL text agrees with the API\'s form of it (Helper\'s realtime.messages.inserted_at, a key); another instant, or a zone against none, does not', () => {
    const world = [{ id: 'a', inserted_at: '2025-01-01 00:00:00' }, { id: 'b', inserted_at: '2025-01-02 10:30:00.500Z' }];
    const ts = [timestampMask('inserted_at')];
    expect(compareOutcomes(allowed(world, 2), allowed([{ id: 'b', inserted_at: '2025-01-02T10:30:00.5+00:00' }, { id: 'a', inserted_at: '2025-01-01T00:00:00' }], 2), ts)).toBeUndefined();
    expect(compareOutcomes(allowed(world, 2), allowed([{ id: 'a', inserted_at: '2025-01-01T00:00:01' }, { id: 'b', inserted_at: '2025-01-02T10:30:00.5+00:00' }], 2), ts)?.reason).toBe('returned rows differ');
    expect(compareOutcomes(allowed([world[0]], 1), allowed([{ id: 'a', inserted_at: '2025-01-01T00:00:00+00:00' }], 1), ts)?.reason).toBe('returned rows differ');
  });

  it('only a timestamp column is compared in one written form: a text column holding timestamp-like text is compared exactly (maskedColumns marks the timestamptz ones)', () => {
    const table: TableModel = { table: 'events', columns: [{ name: 'id', type: 'text', nullable: false }, { name: 'at', type: 'timestamptz', nullable: false }, { name: 'label', type: 'text', nullable: false }], primaryKey: ['id'], grants: { anon: ['select'], authenticated: [] }, rowSecurity: false, rules: {} };
    const oracle: Oracle = { model: { tables: { events: table }, functions: {}, fixtureOrder: ['events'] }, settings: {}, codePointText: false };
    const masked = maskedColumns(oracle, { caller: { kind: 'anon' }, request: { kind: 'select', table: 'events', columns: '*', filters: [] } });
    const row = (at: string, label: string) => allowed([{ id: 'a', at, label }], 1);
    expect(compareOutcomes(row('2025-01-01 00:00:00Z', 'x'), row('2025-01-01T00:00:00+00:00', 'x'), masked)).toBeUndefined();
    expect(compareOutcomes(row('2025-01-01 00:00:00Z', '2025-01-01 00:00:00'), row('2025-01-01T00:00:00+00:00', '2025-01-01T00:00:00'), masked)?.reason).toBe('returned rows differ');
    // Under db-max-rows (rowFits) the same.
    const capped = (label: string) => ({ ...allowed([{ id: 'a', at: '2025-01-01 00:00:00Z', label }, { id: 'b', at: '2025-01-01 00:00:00Z', label }], 1), upTo: 1 }) as ReturnType<typeof allowed>;
    expect(compareOutcomes(capped('x'), row('2025-01-01T00:00:00+00:00', 'x'), masked)).toBeUndefined();
    expect(compareOutcomes(capped('2025-01-01 00:00:00'), row('2025-01-01T00:00:00+00:00', '2025-01-01T00:00:00'), masked)).toBeDefined();
  });

  it('an ordered embed (`remarks.@order=…`) agrees in its order, rows tied on the order columns in any order; out of order disagrees', () => {
    const expected = allowed([{ id: 1, remarks: [{ id: 'a', rank: 2 }, { id: 'b', rank: 1 }, { id: 'c', rank: 1 }] }], 1);
    const mask = ['remarks.', embedOrderMask('remarks', ['rank'])];
    expect(compareOutcomes(expected, allowed([{ id: 1, remarks: [{ id: 'a', rank: 2 }, { id: 'c', rank: 1 }, { id: 'b', rank: 1 }] }], 1), mask)).toBeUndefined();
    expect(compareOutcomes(expected, allowed([{ id: 1, remarks: [{ id: 'b', rank: 1 }, { id: 'a', rank: 2 }, { id: 'c', rank: 1 }] }], 1), mask)?.reason).toBe('returned rows differ');
    // Under db-max-rows: the first n in order, any of the rows tied at the cut.
    const capped = { ...expected, upTo: 2 };
    expect(compareOutcomes(capped, allowed([{ id: 1, remarks: [{ id: 'a', rank: 2 }, { id: 'c', rank: 1 }] }], 1), mask)).toBeUndefined();
    expect(compareOutcomes(capped, allowed([{ id: 1, remarks: [{ id: 'b', rank: 1 }, { id: 'c', rank: 1 }] }], 1), mask)).toBeDefined();
  });

  it('a top-level order= (orderMask): the rows in the model’s order of its columns, ties in any order; under db-max-rows the first n', () => {
    const expected = allowed([{ id: 'a', rank: 2 }, { id: 'b', rank: 1 }, { id: 'c', rank: 1 }], 3);
    const mask = [orderMask(['rank'])];
    expect(compareOutcomes(expected, allowed([{ id: 'a', rank: 2 }, { id: 'c', rank: 1 }, { id: 'b', rank: 1 }], 3), mask)).toBeUndefined();
    expect(compareOutcomes(expected, allowed([{ id: 'b', rank: 1 }, { id: 'a', rank: 2 }, { id: 'c', rank: 1 }], 3), mask)?.reason).toBe('returned rows are not in the order= the model expects');
    // Without the mask the rows are a multiset.
    expect(compareOutcomes(expected, allowed([{ id: 'b', rank: 1 }, { id: 'a', rank: 2 }, { id: 'c', rank: 1 }], 3))).toBeUndefined();
    const capped = { ...expected, affected: 2, upTo: 2 } as typeof expected;
    expect(compareOutcomes(capped, allowed([{ id: 'a', rank: 2 }, { id: 'c', rank: 1 }], 2), mask)).toBeUndefined();
    expect(compareOutcomes(capped, allowed([{ id: 'b', rank: 1 }, { id: 'c', rank: 1 }], 2), mask)).toBeDefined();
  });

  it('an embed ordered by text: in code point order where the target’s collation is C (a target fact), else any order a collation gives', () => {
    const table = (name: string, columns: TableModel['columns']): TableModel => ({ table: name, columns, primaryKey: ['id'], grants: { anon: ['select'], authenticated: [] }, rowSecurity: false, rules: {} });
    const tables = { boards: table('boards', [{ name: 'id', type: 'integer', nullable: false }]), notes: table('notes', [{ name: 'id', type: 'integer', nullable: false }, { name: 'title', type: 'text', nullable: false }, { name: 'board_id', type: 'integer', nullable: false }]) };
    const oracle = (codePointText: boolean): Oracle => ({ model: { tables, functions: {}, fixtureOrder: ['boards', 'notes'] }, settings: {}, codePointText });
    const step = (order: { column: string; direction?: 'desc' }[]) => ({ caller: { kind: 'anon' as const }, request: { kind: 'select' as const, table: 'boards', columns: '*' as const, filters: [], embeds: [{ table: 'notes', columns: '*' as const, order }] } });
    const notes = (...titles: string[]) => allowed([{ id: 1, notes: titles.map((title) => ({ id: title.charCodeAt(0), title, board_id: 1 })) }], 1);
    const byTitle = step([{ column: 'title' }]);
    // The model sorts by code point (C); en_US puts lower case first: B, a, b is a, b, B there.
    const [model, enUs] = [notes('B', 'a', 'b'), notes('a', 'b', 'B')];
    expect(compareOutcomes(model, enUs, maskedColumns(oracle(true), byTitle))?.reason).toBe('returned rows differ');
    expect(compareOutcomes(model, enUs, maskedColumns(oracle(false), byTitle))).toBeUndefined();
    // What no collation gives still differs: 'a' before and after 'b'.
    expect(compareOutcomes(notes('a', 'a', 'b'), notes('a', 'b', 'a'), maskedColumns(oracle(false), byTitle))?.reason).toBe('returned rows differ');
    // A non-text order column is known on any collation.
    const byId = step([{ column: 'id', direction: 'desc' }]);
    expect(compareOutcomes(model, enUs, maskedColumns(oracle(false), byId))?.reason).toBe('returned rows differ');
    // db-max-rows: which rows come first is not known either; any that fit, in an order a collation gives.
    expect(compareOutcomes({ ...model, upTo: 2 } as typeof model, notes('b', 'B'), maskedColumns(oracle(false), byTitle))).toBeUndefined();
  });

  it('whether an embed’s order column is collated is the target’s type, not the model’s: a model integer stored as text sorts by the collation there', () => {
    const table = (name: string, columns: TableModel['columns']): TableModel => ({ table: name, columns, primaryKey: ['id'], grants: { anon: ['select'], authenticated: [] }, rowSecurity: false, rules: {} });
    const tables = { boards: table('boards', [{ name: 'id', type: 'integer', nullable: false }]), notes: table('notes', [{ name: 'id', type: 'integer', nullable: false }, { name: 'code', type: 'integer', nullable: false }, { name: 'title', type: 'text', nullable: false }]) };
    const oracle: Oracle = { model: { tables, functions: {}, fixtureOrder: ['boards', 'notes'] }, settings: {}, codePointText: false };
    const shape = (name: string, type: string) => ({ name, type, notNull: true, hasDefault: false, generated: false, unique: false });
    // The target's notes are pr_notes, its code a text column (ref), its title a uuid (an odd schema, to show the other way).
    const plan: FixturePlan = { ...REFERENCE_PLAN, mapping: { tables: { notes: { name: 'pr_notes', columns: { code: 'ref' } } } }, shapes: new Map([['pr_notes', [shape('id', 'integer'), shape('ref', 'character varying(8)'), shape('title', 'uuid')]]]) };
    const step = (column: string) => ({ caller: { kind: 'anon' as const }, request: { kind: 'select' as const, table: 'boards', columns: '*' as const, filters: [], embeds: [{ table: 'notes', columns: '*' as const, order: [{ column }] }] } });
    // Collated: compared as any order a collation could give (the mask names the column so).
    const collated = (column: string, on?: FixturePlan) => maskedColumns(oracle, step(column), on).some((m) => m.includes(`"columns":["${column}"]`));
    expect([collated('code'), collated('title'), collated('id')]).toEqual([false, true, false]);
    expect([collated('code', plan), collated('title', plan), collated('id', plan)]).toEqual([true, false, false]);
    // The model's en_US-ordered answer for codes 10, 9 (as text: '10' < '9') agrees only when the target's type is known.
    const byCode = (codes: number[]) => allowed([{ id: 1, notes: codes.map((code) => ({ id: code, code, title: 't' })) }], 1);
    expect(compareOutcomes(byCode([9, 10]), byCode([10, 9]), maskedColumns(oracle, step('code'), plan))).toBeUndefined();
    expect(compareOutcomes(byCode([9, 10]), byCode([10, 9]), maskedColumns(oracle, step('code')))?.reason).toBe('returned rows differ');
  });

  it('an embed (masked as `remarks.`) agrees whatever the order of its rows, its own server-assigned columns masked; without the mark order counts', () => {
    const expected = allowed([{ id: 1, remarks: [{ id: 'a', at: null }, { id: 'b', at: null }] }], 1);
    const actual = allowed([{ id: 1, remarks: [{ id: 'b', at: 't2' }, { id: 'a', at: 't1' }] }], 1);
    expect(compareOutcomes(expected, actual, ['remarks.', 'remarks.at'])).toBeUndefined();
    expect(compareOutcomes(expected, actual, ['remarks.at'])?.reason).toBe('returned rows differ');
    expect(compareOutcomes(expected, allowed([{ id: 1, remarks: [{ id: 'a', at: 't1' }, { id: 'c', at: 't2' }] }], 1), ['remarks.', 'remarks.at'])?.reason).toBe('returned rows differ');
  });

  it('db-max-rows without an order (upTo): any n rows of each level agree, a row the model does not expect does not', () => {
    const expected = { ...allowed([{ id: 1, r: [{ k: 1 }, { k: 2 }] }, { id: 2, r: [] }], 1), upTo: 1 } as const;
    expect(compareOutcomes(expected, allowed([{ id: 1, r: [{ k: 2 }] }], 1), ['r.'])).toBeUndefined();
    expect(compareOutcomes(expected, allowed([{ id: 2, r: [] }], 1), ['r.'])).toBeUndefined();
    expect(compareOutcomes(expected, allowed([{ id: 1, r: [{ k: 3 }] }], 1), ['r.'])?.reason).toBe('returned rows are not 1 (db-max-rows) of the 2 rows the model expects');
    expect(compareOutcomes(expected, allowed([{ id: 1, r: [{ k: 1 }, { k: 2 }] }], 1), ['r.'])).toBeDefined();
  });

  it('an extra output column of a function names the setting and the mapping key that may set it aside; a missing one only the setting', () => {
    const hints = { columns: 'functionColumns.get_pr_ticket_by_id' };
    const extra = compareOutcomes(allowed([{ id: 'X' }], 1), allowed([{ id: 'X', opened_at: 'now' }], 1), [], undefined, hints)?.reason;
    expect(extra).toBe('returned columns differ: database (id, opened_at), model (id) (setting functionColumns.get_pr_ticket_by_id; or, if the spec allows them, mapping.functions.get_pr_ticket_by_id.extraColumns)');
    const fewer = compareOutcomes(allowed([{ id: 'X', brief: 'b' }], 1), allowed([{ id: 'X' }], 1), [], undefined, hints)?.reason;
    expect(fewer).toBe('returned columns differ: database (id), model (brief, id) (setting functionColumns.get_pr_ticket_by_id)');
  });
});
