/**
 * Re-created after stranger-app-5: public comments kept in their own table, so
 * `vs_tickets.public_comments` is mapped to null; the world's comments were never written, yet the
 * model answered them in get_public_vs_problem (R07, R13 "returned rows differ").
 */
import { describe, expect, it } from 'vitest';
import { referencePack } from '../../packs/reference/index.ts';
import type { World } from '../model/world.ts';
import type { Row } from '../model/json.ts';
import type { ApiRequest } from '../model/request.ts';
import { predict } from '../model/predict.ts';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { UnmappableRequest } from '../mapping/mapping.ts';
import { requestToTarget } from './names.ts';
import { insertWithoutNullMappedNulls, nullMappedColumnsAsHeld } from './null-mapped-columns.ts';

const mapping = { tables: { vs_tickets: { columns: { public_comments: null, submitter_label: null } } } };

describe('a list column the target keeps elsewhere', () => {
  it('is taken at the model default (empty) in the world; a scalar mapped to null (a label a rule compares) keeps its value', () => {
    const world: World = { vs_tickets: [{ id: 'VS-1', submitter_label: 'Student 9', public_comments: [{ by: 'member', body: 'same here' }] }] };
    expect(nullMappedColumnsAsHeld(world, mapping, referencePack.model).vs_tickets).toEqual([{ id: 'VS-1', submitter_label: 'Student 9', public_comments: [] }]);
  });

  it('a world holding the default already, or no mapping, is the same object', () => {
    const world: World = { vs_tickets: [{ id: 'VS-1', public_comments: [] }] };
    expect(nullMappedColumnsAsHeld(world, mapping, referencePack.model)).toBe(world);
    expect(nullMappedColumnsAsHeld({ vs_tickets: [{ id: 'VS-1', public_comments: [{ body: 'x' }] }] }, undefined, referencePack.model).vs_tickets[0].public_comments).toEqual([{ body: 'x' }]);
  });
});

/**
 * Re-created after stranger-app-9: `deleted_at` hidden behind a security_invoker view (mapped to
 * null), soft delete by rpc. A world's deleted ticket was written live, yet the model took it as
 * deleted: "rows touched: model 0, database 1" on a dev's PATCH of their own ticket (R01, R03, R06, R09).
 */
describe('a server-stamped state the target does not show', () => {
  const softDeleteHidden = { tables: { vs_tickets: { columns: { deleted_at: null, submitter_label: null } }, pr_tickets: { columns: { deleted_at: null } } } };

  it('is taken at null (the row as the target holds it: live); a scalar a client writes keeps its value', () => {
    const world: World = {
      vs_tickets: [{ id: 'VS-1', submitter_label: 'Student 9', deleted_at: '2024-03-01T09:00:00+00:00' }, { id: 'VS-2', submitter_label: 'Student 3', deleted_at: null }],
      pr_tickets: [{ id: 'PR-1', deleted_at: '2025-06-30T12:30:00+00:00' }],
    };
    const taken = nullMappedColumnsAsHeld(world, softDeleteHidden, referencePack.model);
    expect(taken.vs_tickets).toEqual([{ id: 'VS-1', submitter_label: 'Student 9', deleted_at: null }, { id: 'VS-2', submitter_label: 'Student 3', deleted_at: null }]);
    expect(taken.pr_tickets).toEqual([{ id: 'PR-1', deleted_at: null }]);
    expect(world.vs_tickets[0].deleted_at).toBe('2024-03-01T09:00:00+00:00');
  });

  it('a target that shows the stamp (mapped to a column, or not mapped) keeps the deleted rows', () => {
    const world: World = { vs_tickets: [{ id: 'VS-1', deleted_at: '2024-03-01T09:00:00+00:00' }] };
    expect(nullMappedColumnsAsHeld(world, { tables: { vs_tickets: { columns: { deleted_at: 'removed_at' } } } }, referencePack.model)).toBe(world);
    expect(nullMappedColumnsAsHeld(world, undefined, referencePack.model)).toBe(world);
  });
});

/**
 * Re-created after stranger-app-19 (and every target without `pr_tickets.handler_note`): R05's
 * inserts carry `handler_note: null`, the value its insert check requires; each was dropped whole
 * ("names pr_tickets.handler_note, mapped to null": 180 of R05's 210 cases drawn), though the
 * body without it is the same insert to the model and one the target takes.
 */
describe("an insert's null in a column the target does not have", () => {
  const noNote = { tables: { pr_tickets: { columns: { handler_note: null, status: null } } } };
  const me = '11111111-1111-4111-8111-111111111111';
  const world: World = { users: [{ id: me, role: 'user', permissions: [], managed_permissions: [] }] };
  const filing = (row: Record<string, unknown>): ApiRequest => ({ kind: 'insert', table: 'pr_tickets', rows: [{ id: 'PR-1', submitter_id: me, submitter_label: 'Student 1', brief: 'a poster', status: 'open', ...row } as Row], returning: 'representation' });

  it('is left out of the body, which the target then takes, and the model predicts the same for both', () => {
    const drawn = filing({ handler_note: null });
    const sent = insertWithoutNullMappedNulls(drawn, noNote, referencePack.model);
    expect(sent.kind === 'insert' && sent.rows).toEqual([{ id: 'PR-1', submitter_id: me, submitter_label: 'Student 1', brief: 'a poster', status: 'open' }]);
    expect(() => requestToTarget(noNote, drawn)).toThrow(UnmappableRequest);
    expect(() => requestToTarget({ tables: { pr_tickets: { columns: { handler_note: null } } } }, sent)).not.toThrow();
    const caller = { kind: 'user' as const, id: me };
    expect(predict(referenceOracle, world, caller, sent)).toEqual(predict(referenceOracle, world, caller, drawn));
  });

  it('a value other than null, a column whose model default is not null, an upsert and a request naming it in `columns` are left as drawn', () => {
    const noted = filing({ handler_note: 'Handled by the desk.' });
    expect(insertWithoutNullMappedNulls(noted, noNote, referencePack.model)).toBe(noted);
    // status defaults to 'open' in the model: a null there is not what leaving it out gives.
    const nullStatus = filing({ status: null });
    expect(insertWithoutNullMappedNulls(nullStatus, noNote, referencePack.model)).toBe(nullStatus);
    const upsert: ApiRequest = { ...(filing({ handler_note: null }) as Extract<ApiRequest, { kind: 'insert' }>), upsert: { resolution: 'merge-duplicates' } };
    expect(insertWithoutNullMappedNulls(upsert, noNote, referencePack.model)).toBe(upsert);
    const named: ApiRequest = { ...(filing({ handler_note: null }) as Extract<ApiRequest, { kind: 'insert' }>), columns: ['id', 'handler_note'] };
    expect(insertWithoutNullMappedNulls(named, noNote, referencePack.model)).toBe(named);
    const mapped = filing({ handler_note: null });
    expect(insertWithoutNullMappedNulls(mapped, { tables: { pr_tickets: { columns: { handler_note: 'desk_note' } } } }, referencePack.model)).toBe(mapped);
  });
});
