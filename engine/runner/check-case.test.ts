/** A case's history: every step sent, with the model's prediction, the answer and any disagreement. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationFolder } from '../db/migrations.ts';
import { BUNDLED_MUTANTS } from '../../cli/paths.ts';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { checkCase } from './check-case.ts';
import type { StepChecker } from '../checker/history.ts';
import { isSideError, signatureOf } from '../findings/signature.ts';
import type { DataCase } from './data-case.ts';
import type { Environment } from './environment.ts';
import type { Executor } from '../executor/executor.ts';
import type { ApiResponse } from '../executor/response.ts';
import type { FunctionModel } from '../model/function-model.ts';
import { allowed, raised, secureReading } from '../model/outcome.ts';
import type { Oracle } from '../pack.ts';
import type { FixturePlan } from '../target/fixtures.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const testCase: DataCase = {
  world: { 'auth.users': [{ id: A, email: 'a@x.test' }], users: [{ id: A, email: 'a@x.test', role: 'user', permissions: [], managed_permissions: [] }] },
  steps: [
    { caller: { kind: 'user', id: A }, request: { kind: 'select', table: 'users', columns: ['id', 'role'], filters: [{ column: 'id', op: 'eq', value: A }] } },
    { caller: { kind: 'user', id: A }, request: { kind: 'update', table: 'users', patch: { role: 'admin' }, filters: [{ column: 'id', op: 'eq', value: A }], returning: 'minimal' } },
  ],
};

let clean: Environment;
let broken: Environment;
/** The reference read from its catalog, as a project's own migrations are (answers keep only model columns). */
let catalog: Environment;
beforeAll(async () => {
  const mutant = loadMigrationFolder(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants')).find((m) => m.name === 'R02-guard-trigger-dropped.sql')!;
  [clean, broken, catalog] = await Promise.all([referenceEnvironment(), referenceEnvironment({ extra: [mutant] }), referenceEnvironment({ fixtures: { users: 'direct', bypassTriggers: false } })]);
});
afterAll(async () => {
  await Promise.all([clean?.close(), broken?.close(), catalog?.close()]);
});

describe('checkCase history', () => {
  it('records every step: request, prediction and answer, with no disagreement when they agree', async () => {
    const verdict = await checkCase(clean.workers[0].tx, testCase, referenceOracle);
    expect(verdict.mismatch).toBeUndefined();
    expect(verdict.history.map((h) => [h.step, h.request.kind, h.predicted.kind, h.observed.kind, h.disagreement])).toEqual([
      [0, 'select', 'allowed', 'allowed', undefined],
      [1, 'update', 'raised', 'error', undefined],
    ]);
    expect(verdict.history[1].response.status).toBe(400);
    expect(verdict.history[1].response.error?.code).toBe('P0001');
  });

  it('ends at the disagreeing step and names it', async () => {
    const verdict = await checkCase(broken.workers[0].tx, testCase, referenceOracle);
    expect(verdict.history).toHaveLength(2);
    expect(verdict.history[1].disagreement).toBe(verdict.mismatch?.reason);
    expect(verdict.history[1].observed.kind).toBe('allowed');
  });
});

describe('an embedded read on a target read from its catalog', () => {
  it("keeps the embed in the answer (only columns the model does not know are set aside) and agrees", async () => {
    const P = '00000000-0000-4000-8000-0000000000f1';
    const embedCase: DataCase = {
      world: {
        ...testCase.world,
        projects: [{ id: P, title: 'P', owner_id: null }],
        project_sign_requests: [{ id: '00000000-0000-4000-8000-0000000000f2', project_id: P, actor_id: A, professor_id: A, status: 'pending' }],
      },
      steps: [{ caller: { kind: 'user', id: A }, request: { kind: 'select', table: 'projects', columns: ['id', 'title'], filters: [], embeds: [{ table: 'project_sign_requests', columns: ['id', 'status'] }] } }],
    };
    const verdict = await checkCase(catalog.workers[0].tx, embedCase, referenceOracle);
    expect(verdict.mismatch).toBeUndefined();
    expect(verdict.history[0].observed).toMatchObject({ kind: 'allowed', rows: [{ id: P, project_sign_requests: [{ status: 'pending' }] }] });
  });
});

describe('checkers over the history', () => {
  it("a pack's invariant judges every step after the model's agreement, with the steps before it", async () => {
    const seen: number[][] = [];
    const noRowsForOwners: StepChecker = {
      name: 'an owner reads no role',
      check: (entry, earlier) => {
        seen.push(earlier.map((e) => e.step));
        return entry.observed.kind === 'allowed' && entry.request.kind === 'select' && (entry.observed.rows ?? []).some((r) => 'role' in r) ? 'an answer carries role' : undefined;
      },
    };
    const oracle = { ...referenceOracle, model: { ...referenceOracle.model, invariants: [noRowsForOwners] } };
    const verdict = await checkCase(clean.workers[0].tx, testCase, oracle);
    expect(seen).toEqual([[]]); // the first step already fails: the second is never judged
    expect(verdict.mismatch?.step).toBe(0);
    expect(verdict.mismatch?.checker).toBe('an owner reads no role');
    expect(verdict.mismatch?.reason).toBe('invariant "an owner reads no role": an answer carries role');
    expect(verdict.history[0]).toMatchObject({ checker: 'an owner reads no role', disagreement: verdict.mismatch?.reason });
    expect(signatureOf('R02', verdict.mismatch!)).toContain('invariant an owner reads no role');
    // An invariant that holds leaves the verdict the model's alone.
    const holds = await checkCase(clean.workers[0].tx, testCase, { ...oracle, model: { ...oracle.model, invariants: [{ name: 'no 500', check: (e) => (e.response.status >= 500 ? 'a 500' : undefined) }] } });
    expect(holds.mismatch).toBeUndefined();
    expect(holds.history).toHaveLength(2);
  });

  it('the model comes first: on the broken database the disagreement is the model\'s, not an invariant\'s', async () => {
    const oracle = { ...referenceOracle, model: { ...referenceOracle.model, invariants: [{ name: 'never', check: () => undefined }] } };
    const verdict = await checkCase(broken.workers[0].tx, testCase, oracle);
    expect(verdict.mismatch?.checker).toBeUndefined();
    expect(verdict.mismatch?.step).toBe(1);
  });
});

describe('a side error, then a step refused in place of the model\'s success, then a re-prediction that throws', () => {
  // No database: three calls answered as listed. `write` stores a marker the model predicted ahead
  // from; refused instead, the world goes on without it, and `needs_marker` predicted again throws.
  const call = (fn: string) => ({ caller: { kind: 'anon' as const }, request: { kind: 'rpc' as const, fn, args: {} } });
  const fn = (name: string, predict: FunctionModel['predict']): FunctionModel => ({ name, args: [], executableBy: ['anon', 'authenticated', 'service_role'], predict });
  const functions = {
    refuse: fn('refuse', (world) => ({ outcome: raised('P0001', 'refused'), world })),
    write: fn('write', (world) => ({ outcome: { ...allowed(null, 1), orElse: [secureReading('test.refused-instead', raised('P0001'))] }, world: { ...world, marker: [{ id: 1 }] } })),
    needs_marker: fn('needs_marker', (world) => {
      if (!world.marker?.length) throw new Error('no marker: predicted from the world the refused write left');
      return { outcome: allowed(null, 1), world };
    }),
  };
  const oracle: Oracle = { ...referenceOracle, model: { ...referenceOracle.model, functions: { ...referenceOracle.model.functions, ...functions } } };
  const error = (code: string): ApiResponse => ({ status: 400, body: { code, message: 'x', details: null, hint: null }, affected: null, error: { code, message: 'x', details: null, hint: null } });
  const answering = (answers: ApiResponse[]): Executor => ({ fixturePlan: { users: 'direct', bypassTriggers: false } as FixturePlan, begin: async () => {}, end: async () => {}, send: async () => answers.shift()! });

  it('the side error seen first is the verdict (the case\'s finding), not a harness error', async () => {
    const verdict = await checkCase(answering([error('23502'), error('P0001'), { status: 204, body: null, affected: 1 }]), { world: {}, steps: [call('refuse'), call('write'), call('needs_marker')] }, oracle);
    expect(verdict.mismatch?.step).toBe(0);
    expect(isSideError(verdict.mismatch!)).toBe(true);
    expect(verdict.history).toHaveLength(1);
  });

  it('with no side error before it, the throw is the harness error it is', async () => {
    await expect(checkCase(answering([error('P0001'), { status: 204, body: null, affected: 1 }]), { world: {}, steps: [call('write'), call('needs_marker')] }, oracle)).rejects.toThrow(/no marker/);
  });
});
