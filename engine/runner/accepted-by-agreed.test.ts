/**
 * A step the model agrees with is asked what accepted it (check-case.ts acceptedBy): a function's
 * comparison holding a secure reading (comparedAsReading) is then compared strictly once more, but
 * not compared again as the model's agreement compared it: the same reading, one comparison fewer
 * per step (through checkStep, with an executor answering from memory: no database).
 */
import { describe, expect, it } from 'vitest';
import { checkStep } from './check-case.ts';
import type { Executor } from '../executor/executor.ts';
import type { ApiResponse } from '../executor/response.ts';
import type { FunctionModel } from '../model/function-model.ts';
import type { Row } from '../model/json.ts';
import { allowed } from '../model/outcome.ts';
import type { Oracle } from '../pack.ts';
import { REFERENCE_PLAN } from '../target/fixtures.ts';

function oracleCounting(calls: { asCompared: number; strictly: number }): Oracle {
  const board: FunctionModel = {
    name: 'board',
    args: [],
    executableBy: ['anon', 'authenticated', 'service_role'],
    predict: (world) => ({ outcome: allowed([{ title: 'Wifi down' }], 1), world }),
    // Compared without case: the reading a target's answer meets when only its case differs.
    comparedAs: (rows: Row[]) => {
      calls.asCompared++;
      return rows.map((r) => ({ title: String(r.title).toLowerCase() }));
    },
    comparedAsReading: {
      name: 'titles-in-any-case',
      strictly: (rows: Row[]) => {
        calls.strictly++;
        return rows;
      },
    },
  };
  return { model: { tables: {}, functions: { board }, fixtureOrder: [] }, settings: {} };
}

const answering = (body: Row[]): Executor => ({
  fixturePlan: REFERENCE_PLAN,
  begin: async () => {},
  end: async () => {},
  send: async (): Promise<ApiResponse> => ({ status: 200, body, affected: body.length }),
});

describe('acceptedBy after the model agreed', () => {
  it('the reading is named, and the comparison holding it is made once (by the model’s agreement), the strict one once', async () => {
    const calls = { asCompared: 0, strictly: 0 };
    const step = { caller: { kind: 'anon' as const }, request: { kind: 'rpc' as const, fn: 'board', args: {} } };
    const { entry, mismatch } = await checkStep(answering([{ title: 'WIFI DOWN' }]), {}, step, 0, oracleCounting(calls));
    expect(mismatch).toBeUndefined();
    expect(entry.reading).toBe('titles-in-any-case');
    // Each comparison applies it to both sides: the model's rows and the database's.
    expect(calls).toEqual({ asCompared: 2, strictly: 2 });
  });

  it('an answer equal to the model’s own: no reading named', async () => {
    const calls = { asCompared: 0, strictly: 0 };
    const step = { caller: { kind: 'anon' as const }, request: { kind: 'rpc' as const, fn: 'board', args: {} } };
    const { entry } = await checkStep(answering([{ title: 'Wifi down' }]), {}, step, 0, oracleCounting(calls));
    expect(entry.reading).toBeUndefined();
    expect(calls.asCompared).toBe(2);
  });
});
