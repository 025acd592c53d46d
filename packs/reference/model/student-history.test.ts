/**
 * get_my_student_record orders the caller's change requests newest first. Rows a case wrote with a
 * server-set created_at all hold the case's one now() (engine/executor/case-transaction.test.ts
 * shows it; engine/model/ties.ts): every order of them is accepted, in their place before the
 * drawn ones, whatever tie-break (or none) the project uses.
 */
import { describe, expect, it } from 'vitest';
import { functionModels } from './functions/index.ts';
import { defaultSettings, ModelSettingsSchema } from './settings.ts';
import { uuidAsBigint } from '../../../engine/model/target-ids.ts';
import type { Caller } from '../../../engine/model/caller.ts';
import type { Row } from '../../../engine/model/json.ts';
import { compareOutcomes } from '../../../engine/checker/compare.ts';
import { allowed } from '../../../engine/model/outcome.ts';

const ME = '11111111-1111-4111-8111-111111111111';
const caller: Caller = { kind: 'user', id: ME, email: 'me@example.com' };
const request = (id: string, created_at?: string): Row => ({ id, student_record_id: 'r1', field: 'major', requested_value: 'x', status: 'pending', ...(created_at ? { created_at } : {}) });
const world = (requests: Row[]) => ({
  'auth.users': [{ id: ME, email: 'me@example.com' }],
  users: [{ id: ME, email: 'me@example.com', role: 'user' }],
  student_records: [{ id: 'r1', email: 'me@example.com', student_id: '60000001', full_name: 'Me' }],
  student_change_requests: requests,
});
const fn = functionModels.get_my_student_record;
const predict = (requests: Row[]) => fn.predict(world(requests), caller, {}, defaultSettings).outcome;
const ids = (o: ReturnType<typeof predict>) => ((o as { rows: Row[] }).rows[0].requests as Row[]).map((r) => r.id);

const answerOf = (o: ReturnType<typeof predict>, order: string[]) => {
  const row = (o as { rows: Row[] }).rows[0];
  return allowed([{ ...row, requests: order.map((id) => (row.requests as Row[]).find((r) => r.id === id)!) }], 1);
};

describe('get_my_student_record with change requests written in the same case', () => {
  it('accepts every order of the rows written in the case (tied on now()), each before the drawn ones', () => {
    // 'b', 'a', 'd' written by the case (no created_at: the server's now()), 'c' and 'e' drawn.
    const rows = [request('c', '2024-01-01T00:05:00.000Z'), request('b'), request('a'), request('e', '2024-01-01T00:01:00.000Z'), request('d')];
    const w = world(rows);
    const o = fn.predict(w, caller, {}, defaultSettings).outcome;
    const as = (r: Row[]) => fn.comparedAs!(r, w, defaultSettings);
    expect(ids(o)).toEqual(['d', 'a', 'b', 'c', 'e']);
    // One answer: the ties are the comparison's, not alternatives.
    expect('orElse' in o && o.orElse).toBeFalsy();
    for (const tied of [['a', 'b', 'd'], ['a', 'd', 'b'], ['b', 'a', 'd'], ['b', 'd', 'a'], ['d', 'a', 'b'], ['d', 'b', 'a']]) {
      expect(compareOutcomes(o, answerOf(o, [...tied, 'c', 'e']), [], as), tied.join()).toBeUndefined();
    }
    // Where they stand still counts, and so does the drawn rows' order.
    expect(compareOutcomes(o, answerOf(o, ['c', 'e', 'a', 'b', 'd']), [], as)).toBeDefined();
    expect(compareOutcomes(o, answerOf(o, ['a', 'c', 'b', 'd', 'e']), [], as)).toBeDefined();
    expect(compareOutcomes(o, answerOf(o, ['a', 'b', 'd', 'e', 'c']), [], as)).toBeDefined();
  });

  it('one answer when every row has its time (drawn), ties broken by id', () => {
    const o = predict([request('a', '2024-01-01T00:05:00.000Z'), request('b', '2024-01-01T00:05:00.000Z'), request('c', '2024-01-01T00:09:00.000Z')]);
    expect(ids(o)).toEqual(['c', 'b', 'a']);
    expect('orElse' in o && o.orElse).toBeFalsy();
  });

  it('ties broken by the id the target keeps (students.historyIdAs): a bigint key orders as its numbers, not as the model text (stranger-app-5, R18)', () => {
    // x < y as text; as the target's bigints (uuidAsBigint) x > y.
    expect(uuidAsBigint('x')).toBeGreaterThan(uuidAsBigint('y'));
    const tied = [request('x', '2024-01-01T00:05:00.000Z'), request('y', '2024-01-01T00:05:00.000Z')];
    expect(ids(predict(tied))).toEqual(['y', 'x']);
    const asBigint = fn.predict(world(tied), caller, {}, ModelSettingsSchema.parse({ students: { historyIdAs: 'bigint' } })).outcome;
    expect(ids(asBigint)).toEqual(['x', 'y']);
    // The model's text order is then a different answer: a target ordering so fails.
    expect(compareOutcomes(asBigint, answerOf(asBigint, ['y', 'x']))).toBeDefined();
  });
});
