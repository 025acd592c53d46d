/**
 * The search runs a lane's cases one at a time on its connection, in the order fast-check drew
 * them, the next one written behind the one in the database: the same seed sends the same fixtures
 * in the same order, and a harness error is reported even when it comes from a lane's last case.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import type { DataCase } from './data-case.ts';
import type { DataProperty } from './data-property.ts';
import type { Environment } from './environment.ts';
import { runDataProperty } from './run-data-property.ts';
import type { FixturePlan } from '../target/fixtures.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment({ workers: 2 });
});
afterAll(() => env?.close());

/** A user reading their own row, with a role drawn from `roles` (a role outside the CHECK makes the fixture fail). */
function property(roles: string[]): DataProperty {
  return {
    id: 'T01',
    rule: 2,
    title: 'test property',
    tables: ['users'],
    cases: () =>
      fc.record({ id: fc.uuid({ version: 4 }), role: fc.constantFrom(...roles), name: fc.string({ maxLength: 8 }) }).map(
        ({ id, role, name }): DataCase => ({
          world: { 'auth.users': [{ id, email: `${id}@x.test` }], users: [{ id, email: `${id}@x.test`, display_name: name, role, permissions: [], managed_permissions: [] }] },
          steps: [{ caller: { kind: 'user', id }, request: { kind: 'select', table: 'users', columns: ['id', 'role'], filters: [{ column: 'id', op: 'eq', value: id }] } }],
        }),
      ),
  };
}

/** The fixtures text of every case each worker wrote (planned at once, or begun), in order. */
async function fixturesSent(run: () => Promise<unknown>): Promise<string[][]> {
  const seen = env.workers.map(() => [] as string[]);
  const restore = env.workers.map((w, i) => {
    const { begin, runPlanned } = w.tx;
    w.tx.begin = function (this: typeof w.tx, fixtures, ...rest) {
      seen[i].push(fixtures.map((f) => f.sql).join(';'));
      return begin.call(this, fixtures, ...rest);
    } as typeof begin;
    w.tx.runPlanned = function (this: typeof w.tx, fixtures, ...rest) {
      seen[i].push(fixtures.map((f) => f.sql).join(';'));
      return runPlanned.call(this, fixtures, ...rest);
    } as typeof runPlanned;
    return () => {
      // The methods are the prototype's again.
      delete (w.tx as Partial<typeof w.tx>).begin;
      delete (w.tx as Partial<typeof w.tx>).runPlanned;
    };
  });
  try {
    await run();
  } finally {
    for (const undo of restore) undo();
  }
  return seen;
}

describe('the search', () => {
  it('sends every case once, in the order drawn, and the same seed sends the same cases', async () => {
    const options = { seed: 42, runs: 30, oracle: referenceOracle };
    let result;
    const first = await fixturesSent(async () => (result = await runDataProperty(env, property(['user', 'admin']), options)));
    expect(result).toMatchObject({ status: 'passed', cases: 30 });
    expect(first.map((lane) => lane.length)).toEqual([15, 15]);
    expect(new Set(first.flat()).size).toBe(30);
    expect(await fixturesSent(() => runDataProperty(env, property(['user', 'admin']), options))).toEqual(first);
  });

  it('a harness error in the only case of a lane is reported, and no case after the one written behind it runs', async () => {
    const oneCase = await runDataProperty(env, property(['no-such-role']), { seed: 1, runs: 1, oracle: referenceOracle });
    expect(oneCase).toMatchObject({ status: 'error', cases: 0 });
    expect(oneCase.note).toMatch(/^harness error: fixture for users refused: .*users_role_check/);
    const many = await fixturesSent(() => runDataProperty(env, property(['no-such-role']), { seed: 1, runs: 40, oracle: referenceOracle }));
    // Each lane's second case is written behind its first before the first's answer (the connection
    // is pipelined); the error stops the lane there: the third case drawn is never sent.
    expect(many.map((lane) => lane.length)).toEqual([2, 2]);
  });
});

describe('a column the target does not have (mapped to null)', () => {
  it('requests naming it are left out and counted by the column; the rest of the case runs and the property keeps its verdict', async () => {
    // A target without users.avatar_url: the reference database, told so by its mapping.
    const txs = env.workers.map((w) => w.tx as { fixturePlan: FixturePlan });
    const plans = txs.map((tx) => tx.fixturePlan);
    for (const tx of txs) tx.fixturePlan = { ...tx.fixturePlan, mapping: { tables: { users: { columns: { avatar_url: null } } } } };
    try {
      const base = property(['user']);
      const withAvatar: DataProperty = {
        ...base,
        cases: (s) =>
          base.cases(s).map((c): DataCase => {
            const id = c.steps[0].caller.kind === 'user' ? c.steps[0].caller.id : '';
            return { ...c, steps: [{ caller: c.steps[0].caller, request: { kind: 'update', table: 'users', patch: { avatar_url: 'https://x.test/a.png' }, filters: [{ column: 'id', op: 'eq', value: id }], returning: 'minimal' } }, ...c.steps] };
          }),
      };
      const result = await runDataProperty(env, withAvatar, { seed: 3, runs: 10, oracle: referenceOracle });
      expect(result).toMatchObject({ status: 'passed', cases: 10, dropped: { 'names users.avatar_url, mapped to null (the target has none)': 10 } });
      expect(result.counts.allowed).toBe(10);
    } finally {
      txs.forEach((tx, i) => (tx.fixturePlan = plans[i]));
    }
  });
});
