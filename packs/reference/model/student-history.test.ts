/**
 * get_my_student_record orders the caller's change requests newest first. Rows a case wrote with a
 * server-set created_at tie here (now() is frozen for the case's transaction:
 * engine/executor/case-transaction.test.ts shows it) where production orders them by the request
 * that wrote them; the model accepts both orders, each capped, and keeps one answer otherwise.
 */
import { describe, expect, it } from 'vitest';
import { functionModels } from './functions/index.ts';
import { defaultSettings } from './settings.ts';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Row } from '../../../engine/model/json.ts';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import { allowed } from '../../../engine/model/outcome.ts';

const ME = '11111111-1111-4111-8111-111111111111';
const caller: Caller = { kind: 'user', id: ME, email: 'me@example.com' };
const request = (id: string, created_at?: string): Row => ({ id, student_record_id: 'r1', field: 'major', requested_value: 'x', status: 'pending', ...(created_at ? { created_at } : {}) });
const world = (requests: Row[]) => ({
  'auth.users': [{ id: ME, email: 'me@example.com' }],
  users: [],
  student_records: [{ id: 'r1', email: 'me@example.com', student_id: '60000001', full_name: 'Me' }],
  student_change_requests: requests,
});
const fn = functionModels.get_my_student_record;
const predict = (requests: Row[]) => fn.predict(world(requests), caller, {}, defaultSettings).outcome;
const ids = (o: ReturnType<typeof predict>) => ((o as { rows: Row[] }).rows[0].requests as Row[]).map((r) => r.id);

describe('get_my_student_record with change requests written in the same case', () => {
  it('accepts the order of the requests that wrote them (production) and the tie-break order (one transaction)', () => {
    // Written in this order by two requests: 'b' first, then 'a'; both newer than the drawn one.
    const o = predict([request('c', '2024-01-01T00:05:00.000Z'), request('b'), request('a')]);
    expect(ids(o)).toEqual(['a', 'b', 'c']);
    expect((o as { orElse?: unknown[] }).orElse?.map((x) => ids(x as typeof o))).toEqual([['b', 'a', 'c']]);
    // The harness's answer (tied, then by id) agrees; an order neither reading gives does not.
    const answerWith = (order: string[]) => allowed([{ ...(o as { rows: Row[] }).rows[0], requests: order.map((id) => ((o as { rows: Row[] }).rows[0].requests as Row[]).find((r) => r.id === id)!) }], 1);
    expect(compareOutcomes(o, answerWith(['b', 'a', 'c']))).toBeUndefined();
    expect(compareOutcomes(o, answerWith(['c', 'a', 'b']))).toBeDefined();
  });

  it('one answer when every row has its time (drawn), ties broken by id', () => {
    const o = predict([request('a', '2024-01-01T00:05:00.000Z'), request('b', '2024-01-01T00:05:00.000Z'), request('c', '2024-01-01T00:09:00.000Z')]);
    expect(ids(o)).toEqual(['c', 'b', 'a']);
    expect('orElse' in o && o.orElse).toBeFalsy();
  });
});
