/**
 * The search runs a lane's cases one at a time on its connection, in the order fast-check drew
 * them, the next one written behind the one in the database: the same seed sends the same fixtures
 * in the same order; a case the target cannot hold is dropped and counted, and a harness error
 * keeps the findings made before it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { referenceEnvironment } from '../../testing/reference.ts';
import { withModelRun, type DataCase } from './data-case.ts';
import type { DataProperty } from './data-property.ts';
import type { Environment } from './environment.ts';
import type { FixturePlan } from '../target/fixtures.ts';
import type { Row } from '../model/json.ts';
import { textAsUuid } from '../model/target-ids.ts';
import type { PropertyResult } from './result.ts';
import { MAX_CONSECUTIVE_DROPS, runDataProperty, SHRINK_TIMED_OUT_NOTE } from './run-data-property.ts';
import { budgetVerdict, runBreadthFirst } from './budget.ts';
import { mergeSummaries, propertySummary, runSummary } from '../report/summary.ts';

let env: Environment;
beforeAll(async () => {
  env = await referenceEnvironment({ workers: 2 });
});
afterAll(() => env?.close());

/** A user reading their own row, with a role drawn from `roles` (a role outside the CHECK makes the fixture fail). `drawn` counts the cases generated. */
function property(roles: string[], drawn?: { count: number }): DataProperty {
  return {
    id: 'T01',
    rule: 2,
    title: 'test property',
    tables: ['users'],
    cases: () =>
      fc.record({ id: fc.uuid({ version: 4 }), role: fc.constantFrom(...roles), name: fc.string({ maxLength: 8 }) }).map(
        ({ id, role, name }): DataCase => (drawn && drawn.count++, {
          world: { 'auth.users': [{ id, email: `${id}@x.test` }], users: [{ id, email: `${id}@x.test`, display_name: name, role, permissions: [], managed_permissions: [] }] },
          steps: [{ caller: { kind: 'user', id }, request: { kind: 'select', table: 'users', columns: ['id', 'role'], filters: [{ column: 'id', op: 'eq', value: id }] } }],
        }),
      ),
  };
}

/** The fixtures text of every case each worker wrote (planned at once, or begun), in order. */
function fixturesSent(run: () => Promise<unknown>): Promise<string[][]> {
  return fixturesSentOn(env, run);
}

async function fixturesSentOn(env: Environment, run: () => Promise<unknown>): Promise<string[][]> {
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

  it('a case whose fixtures the database refuses is dropped with the constraint, and a property that can run nothing has no verdict, saying why', async () => {
    const some = await runDataProperty(env, property(['user', 'no-such-role']), { seed: 1, runs: 40, oracle: referenceOracle });
    expect(some.status).toBe('passed');
    // Found out only once written: the refused case took its run, and is not counted as a case.
    const refused = some.dropped?.['users_role_check refused a fixture row (users)'] ?? 0;
    expect(refused).toBeGreaterThan(0);
    expect(some.cases + refused).toBe(40);
    const none = await runDataProperty(env, property(['no-such-role']), { seed: 1, runs: 40, oracle: referenceOracle });
    expect(none).toMatchObject({ status: 'no-verdict', cases: 0, dropped: { 'users_role_check refused a fixture row (users)': 40 } });
    expect(none.note).toBe('no case could run on this target: all 40 cases drawn were dropped, mostly as users_role_check refused a fixture row (users); the target refuses what the model writes');
  });

  it('cut short by its deadline after a few dropped cases, with lanes still drawing, is no verdict of the target: not reached, resumable', async () => {
    // Each refused case takes a write; a deadline a moment away cuts the lanes long before 200 drops in a row.
    // How many cases a few milliseconds drop depends on the machine's load: the deadline starts at 25 ms and
    // doubles until a case has been dropped, so the lanes are cut after a few drops, never after none.
    const dropsOf = (r: Awaited<ReturnType<typeof runDataProperty>>) => r.dropped?.['users_role_check refused a fixture row (users)'] ?? 0;
    let cut = await runDataProperty(env, property(['no-such-role']), { seed: 1, runs: 300, oracle: referenceOracle, deadline: Date.now() + 25 });
    for (let ms = 50; dropsOf(cut) === 0 && ms <= 6_400; ms *= 2) {
      cut = await runDataProperty(env, property(['no-such-role']), { seed: 1, runs: 300, oracle: referenceOracle, deadline: Date.now() + ms });
    }
    const drops = dropsOf(cut);
    expect(drops).toBeGreaterThan(0);
    expect(drops).toBeLessThan(MAX_CONSECUTIVE_DROPS);
    expect(cut).toMatchObject({ status: 'passed', cases: 0, stopped: 'time budget' });
    expect(budgetVerdict(cut, 100)).toMatchObject({ status: 'not-reached', note: 'not reached: the time budget ran out before its first case' });
  });

  it('a fixture refused for anything but a constraint (a table the target lacks) stays a harness error', async () => {
    const listed = property(['user']);
    const broken: DataProperty = { ...listed, cases: (settings) => listed.cases(settings).map((c) => ({ ...c, world: { ...c.world, no_such_table: [{ id: 1 }] } })) };
    const result = await runDataProperty(env, broken, { seed: 1, runs: 10, oracle: referenceOracle });
    expect(result).toMatchObject({ status: 'error', cases: 0 });
    expect(result.dropped).toBeUndefined();
    expect(result.note).toBe('harness error: fixtures refused: relation "public.no_such_table" does not exist');
  });

  /** Every step disagrees (an invariant that always objects). */
  const objecting = { ...referenceOracle, model: { ...referenceOracle.model, invariants: [{ name: 'always objects', check: () => 'objected' }] } };
  /** Runs `run` with every lane's fourth case meeting a harness error of this message. */
  const withHarnessErrorAtFourthCase = async <T,>(message: string, run: () => Promise<T>): Promise<T> => {
    const restore = env.workers.map((w) => {
      let calls = 0;
      const { runPlanned } = w.tx;
      w.tx.runPlanned = function (this: typeof w.tx, ...args) {
        if (++calls >= 4) return Promise.reject(new Error(message));
        return runPlanned.apply(this, args);
      } as typeof runPlanned;
      return () => delete (w.tx as Partial<typeof w.tx>).runPlanned;
    });
    try {
      return await run();
    } finally {
      for (const undo of restore) undo();
    }
  };

  it('a harness error after a finding keeps the finding', async () => {
    const result = await withHarnessErrorAtFourthCase('injected harness error', () => runDataProperty(env, property(['user']), { seed: 3, runs: 40, oracle: objecting }));
    expect(result.status).toBe('failed');
    expect(result.findings?.[0].message).toMatch(/invariant "always objects": objected/);
    // The findings were shrunk: that took time of its own, within the property's.
    expect(result.timings!.shrinkingMs).toBeGreaterThan(0);
    expect(result.timings!.shrinkingMs).toBeLessThanOrEqual(result.durationMs + 1);
    expect(result.note).toMatch(/harness error: injected harness error \(after the findings above\)/);
  });

  it.each([
    ['passing', referenceOracle, 'error'],
    ['failing', objecting, 'failed'],
  ] as const)("a harness error ends only the lane that met it, through the tranches: two shards' merged report is one machine's (status, counts, drops, notes, findings), %s elsewhere", async (_, oracle, status) => {
    // Lane 0 meets a harness error at its 9th case, in the second tranche; lane 1 never does. One
    // machine stopped both lanes there (the property settled) while shard 2/2 ran lane 1 to its end.
    const runs = 60;
    const tranches = [10, 30, runs];
    const failingLane = (worker: Environment['workers'][number]) => {
      let calls = 0;
      const { runPlanned } = worker.tx;
      worker.tx.runPlanned = function (this: typeof worker.tx, ...args) {
        if (++calls === 9) return Promise.reject(new Error('injected harness error'));
        return runPlanned.apply(this, args);
      } as typeof runPlanned;
      return () => delete (worker.tx as Partial<typeof worker.tx>).runPlanned;
    };
    const breadthFirst = async (workers: Environment['workers'], lanes: { first: number; total: number }) => {
      const undo = lanes.first === 0 ? failingLane(workers[0]) : () => {};
      try {
        const r = await runBreadthFirst({
          properties: [{ id: 'T01' }],
          tranches,
          deadline: Number.POSITIVE_INFINITY,
          run: (_, tranche) => runDataProperty({ ...env, workers }, property(['user', 'no-such-role']), { seed: 9, runs, oracle, lanes, ...tranche, deadline: undefined }),
          interrupted: () => false,
        });
        return propertySummary(r.get('T01')!);
      } finally {
        undo();
      }
    };
    const summaryOf = (properties: ReturnType<typeof propertySummary>[], shard: { index: number; count: number }) =>
      runSummary(properties, { policyfuzzVersion: 'test', seed: 9, profile: 'nightly', shard, migrations: null, migrationsDigest: null, startedAt: new Date(0), timeBudgetMs: null });
    const one = await breadthFirst(env.workers, { first: 0, total: 2 });
    const shard1 = await breadthFirst([env.workers[0]], { first: 0, total: 2 });
    const shard2 = await breadthFirst([env.workers[1]], { first: 1, total: 2 });
    const merged = mergeSummaries([summaryOf([shard1], { index: 1, count: 2 }), summaryOf([shard2], { index: 2, count: 2 })]).properties[0];
    // The first finding: a run's summary lists its first alone, the merge each shard's first (left open: one per signature on both).
    const verdict = (p: typeof one) => ({ status: p.status, cases: p.cases, counts: p.counts, dropped: p.dropped, note: p.note, firstFinding: p.failures[0], uncheckedRuns: p.uncheckedRuns });
    expect(one.status).toBe(status);
    expect(one.note).toMatch(status === 'error' ? /^harness error: injected harness error$/ : /harness error: injected harness error \(after the findings above\)/);
    // Lane 0 stopped at its error, lane 1 ran its 30 runs (some dropped) on both.
    expect(shard2.status).toBe(status === 'error' ? 'passed' : 'failed');
    expect(shard2.cases + (shard2.uncheckedRuns ?? 0)).toBe(30);
    expect(verdict(merged)).toEqual(verdict(one));
  });

  it('a connection the server dropped after a finding keeps the finding, and the note says what happened and what to do (pg says neither)', async () => {
    // As pg reports a server killed mid-run (seen on stranger-app-2, its postgres killed with -9).
    const result = await withHarnessErrorAtFourthCase('Client has encountered a connection error and is not queryable', () => runDataProperty(env, property(['user']), { seed: 3, runs: 40, oracle: objecting, shrink: false }));
    expect(result.status).toBe('failed');
    expect(result.note).toMatch(/harness error: the database server closed the connection \(it stopped, crashed or was restarted: Client has encountered a connection error and is not queryable\); the findings made before it are kept: run again, and if it recurs read the server's log/);
  });

  it('the server gone while shrinking: every finding is kept as first found (seed and path replay it), the run goes on, and the note says shrinking met a harness error', async () => {
    // As a server killed during the shrink met it: each candidate's check fails (taken as "not this
    // finding"), then the shrink's flush of the connection throws. It ended the whole run, its findings unreported.
    const restore = env.workers.map((w) => {
      const { flush } = w.tx;
      w.tx.flush = function () {
        return Promise.reject(new Error('Client has encountered a connection error and is not queryable'));
      } as typeof flush;
      return () => delete (w.tx as Partial<typeof w.tx>).flush;
    });
    let result;
    try {
      result = await runDataProperty(env, property(['user']), { seed: 5, runs: 20, oracle: objecting, stopAtFirst: true });
    } finally {
      for (const undo of restore) undo();
    }
    expect(result.status).toBe('failed');
    const first = result.findings![0];
    expect(first.message).toMatch(/invariant "always objects": objected/);
    expect([first.seed, first.path]).toEqual([5, '0']);
    expect(result.note).toMatch(/^harness error while shrinking: the database server closed the connection .*; the findings not yet shrunk are reported as first found$/);
  });

  it("the server stopped by the interrupt's grace under a case in flight: the property is cut by the interrupt, not a harness ERROR", async () => {
    // As a SIGINT met a statement that would not end: once the grace ran out every stop ran, the
    // server's with them, and the case in flight saw its connection end. It read "ERROR … the
    // database server closed the connection", counted failed: the README says nothing unfinished is.
    let interrupted = false;
    const restore = env.workers.map((w) => {
      let calls = 0;
      const { runPlanned } = w.tx;
      w.tx.runPlanned = function (this: typeof w.tx, ...args) {
        if (++calls < 4) return runPlanned.apply(this, args);
        interrupted = true;
        return Promise.reject(new Error('terminating connection due to administrator command'));
      } as typeof runPlanned;
      return () => delete (w.tx as Partial<typeof w.tx>).runPlanned;
    });
    let result;
    try {
      result = await runDataProperty(env, property(['user']), { seed: 3, runs: 40, oracle: referenceOracle, stop: () => interrupted });
    } finally {
      for (const undo of restore) undo();
    }
    expect(result.status).toBe('passed');
    expect(result.stopped).toBe('interrupted');
    expect(result.note ?? '').not.toMatch(/harness error/);
  });

  it('a finding on a mapped target is shrunk and saved as the run sends it: the model\'s ids in text as the target keeps them, a step the target cannot take (an ordered read, order= untranslated) left out', async () => {
    // Every case disagrees alike, as drawn or as sent: only the form the shrink checks and saves tells them apart.
    // Seen on stranger-app-2 (uuid ids): the shrunk case kept the model's ids in remark text
    // ('see VS-1002') where the run sent the target's uuid, a case the run never sent. Here the
    // order's model id SO-1 (a uuid on the target, uuidIds) is named in its buyer_note: as sent, the
    // note names the target's uuid, a change no minimizing (which drops steps and rows) undoes.
    const inserting: DataProperty = {
      id: 'T03',
      rule: 4,
      title: 'test insert',
      tables: ['shop_orders'],
      cases: () =>
        fc.record({ id: fc.uuid({ version: 4 }), other: fc.constantFrom('Sam Other', 'Kim Other') }).map(({ id, other }): DataCase => ({
          world: { 'auth.users': [{ id, email: `${id}@x.test` }], users: [{ id, email: `${id}@x.test`, display_name: 'u', role: 'user', permissions: [], managed_permissions: [] }] },
          steps: [
            { caller: { kind: 'user', id }, request: { kind: 'insert', table: 'shop_orders', rows: [{ id: 'SO-1', buyer_id: id, shipping_name: other, buyer_note: 'same as SO-1' }], returning: 'minimal' } },
            { caller: { kind: 'user', id }, request: { kind: 'select', table: 'shop_orders', columns: '*', filters: [], order: [{ column: 'shipping_name' }] } },
          ],
        })),
    };
    const plans = env.workers.map((w) => w.tx.fixturePlan);
    for (const w of env.workers) Object.defineProperty(w.tx, 'fixturePlan', { value: { ...w.tx.fixturePlan, mapping: { tables: { shop_orders: { uuidIds: ['id'] } } } }, configurable: true });
    let result;
    try {
      result = await runDataProperty(env, inserting, { seed: 2, runs: 10, oracle: objecting });
    } finally {
      for (const [i, w] of env.workers.entries()) Object.defineProperty(w.tx, 'fixturePlan', { value: plans[i], configurable: true, writable: true, enumerable: true });
    }
    expect(result.status).toBe('failed');
    const saved = result.failure!.counterexample as DataCase;
    // The case as the run sent it (the ordered read left out on a mapped target), not as drawn: what a replay sends.
    expect(saved.steps.map((s) => s.request.kind)).toEqual(['insert']);
    // The note names the order as the target keeps it (the id itself stays the model's: the mapping makes it the target's).
    const [row] = (saved.steps[0].request as { rows: Row[] }).rows;
    expect(row).toMatchObject({ id: 'SO-1', buyer_note: `same as ${textAsUuid('SO-1')}` });
  });

  it('an interrupt while shrinking stops it: the smallest counterexample found so far is reported, and the note says shrinking was cut', async () => {
    // Every case disagrees; the interrupt comes with the 5th check, a few candidates into shrinking
    // (uncut, this shrink checks dozens of candidates and then minimizes).
    let checks = 0;
    const objecting = { ...referenceOracle, model: { ...referenceOracle.model, invariants: [{ name: 'always objects', check: () => (checks++, 'objected') }] } };
    const result = await runDataProperty(env, property(['user']), { seed: 5, runs: 20, oracle: objecting, stopAtFirst: true, stop: () => checks >= 5 });
    expect(result.status).toBe('failed');
    expect(result.findings![0].message).toMatch(/invariant "always objects": objected/);
    expect(result.note).toMatch(/shrinking cut short by the interrupt/);
    expect(checks).toBeLessThan(12);
  });

  /** Runs `run` with every case held open `ms` once begun on each worker; counts the cases open at once. */
  async function withSlowCases<T>(ms: number, run: () => Promise<T>): Promise<{ result: T; mostOpen: number; openWhenDone: number }> {
    let open = 0;
    let mostOpen = 0;
    const restore = env.workers.map((w) => {
      const { begin, end } = w.tx;
      w.tx.begin = async function (this: typeof w.tx, ...args) {
        mostOpen = Math.max(mostOpen, ++open);
        await begin.apply(this, args);
        await new Promise((resolve) => setTimeout(resolve, ms));
      } as typeof begin;
      w.tx.end = function (this: typeof w.tx) {
        open--;
        return end.call(this);
      } as typeof end;
      return () => {
        delete (w.tx as Partial<typeof w.tx>).begin;
        delete (w.tx as Partial<typeof w.tx>).end;
      };
    });
    try {
      const result = await run();
      return { result, mostOpen, openWhenDone: open };
    } finally {
      for (const undo of restore) undo();
    }
  }

  it("the shrink's time limit never leaves a case running on the connection: its cases open and end one at a time (stranger-app-9: an abandoned case's fixture rows committed)", async () => {
    // Each case the shrink checks takes a while once open; the shrink's time limit (SHRINK_FLOOR_MS,
    // the deadline being near) falls inside one of them. Raced by fast-check's interruptAfterTimeLimit,
    // that case went on after fast-check returned, while the shrink flushed the connection and
    // minimized on it: two cases at once on one transaction.
    const { result, mostOpen, openWhenDone } = await withSlowCases(1000, () => runDataProperty(env, property(['user']), { seed: 5, runs: 20, oracle: objecting, stopAtFirst: true, deadline: Date.now() + 500 }));
    expect(result.status).toBe('failed');
    expect(result.findings![0].message).toMatch(/invariant "always objects": objected/);
    expect({ mostOpen, openWhenDone }).toEqual({ mostOpen: 1, openWhenDone: 0 });
  });

  it("the shrink (fast-check's and the minimizing after it) ends within the run's share of the budget, its floor no longer than the share: the note says it was cut (stranger-app-9's pr run: shrinking took 40 s of 45, six properties not reached)", async () => {
    // A share of 500 ms, each case 400 ms once open: the first case fails past the share. The
    // floor was 3 s per finding, and the minimizing after it was not bounded at all (3.4 s shrinking here).
    const started = Date.now();
    const { result } = await withSlowCases(400, () => runDataProperty(env, property(['user']), { seed: 5, runs: 20, oracle: objecting, stopAtFirst: true, deadline: started + 500 }));
    expect(result.status).toBe('failed');
    expect(result.findings![0].message).toMatch(/invariant "always objects": objected/);
    // Past the share: the floor (500 ms, the share) and the candidate in flight when it ran out.
    expect(result.timings!.shrinkingMs).toBeLessThan(2000);
    expect(result.note).toContain(SHRINK_TIMED_OUT_NOTE);
  });

  it('shrink: false reports each finding as first seen, with the seed and path that replay it, and spends nothing shrinking', async () => {
    const objecting = { ...referenceOracle, model: { ...referenceOracle.model, invariants: [{ name: 'always objects', check: () => 'objected' }] } };
    const options = { seed: 5, runs: 20, oracle: objecting, stopAtFirst: true };
    const unshrunk = await runDataProperty(env, property(['user']), { ...options, shrink: false });
    expect(unshrunk.status).toBe('failed');
    expect(unshrunk.timings!.shrinkingMs).toBe(0);
    const first = unshrunk.findings![0];
    // The first case of lane 0 (seed 5), as drawn: no smaller one was looked for.
    expect([first.seed, first.path]).toEqual([5, '0']);
    const shrunk = await runDataProperty(env, property(['user']), options);
    expect(shrunk.findings![0].signature).toBe(first.signature);
    expect(shrunk.timings!.shrinkingMs).toBeGreaterThan(0);
  });
});

describe('a statement that never ends (a trigger waiting on pg_sleep, a lock)', () => {
  let slow: Environment;
  const sleepSql = `create function public.pf_test_sleep() returns trigger language plpgsql as $$ begin perform pg_sleep(600); return new; end $$;
    create trigger users_pf_test_sleep before insert on public.users for each row execute function public.pf_test_sleep();`;
  beforeAll(async () => {
    slow = await referenceEnvironment({ workers: 1, extra: [{ name: '9999_sleep.sql', path: '9999_sleep.sql', sql: sleepSql }], caseStatementTimeoutMs: 1000 });
  });
  afterAll(() => slow?.close());

  it("is cancelled by the workers' statement bound: the property is an ERROR naming the timeout, within seconds, not a run held past its budget", async () => {
    const started = Date.now();
    const result = await runDataProperty(slow, property(['user']), { seed: 1, runs: 5, oracle: referenceOracle });
    expect(result.status).toBe('error');
    expect(result.note).toBe('harness error: fixtures refused: canceling statement due to statement timeout: a statement of the case ran past the bound policyfuzz sets on one statement (a trigger or function waiting on pg_sleep or a lock, or looping); the findings made before it are kept');
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});

describe('on a target read from its catalog', () => {
  let fitted: Environment;
  beforeAll(async () => {
    fitted = await referenceEnvironment({ workers: 1, fixtures: { users: 'direct', bypassTriggers: false } });
  });
  afterAll(() => fitted?.close());

  it('drops a case the target cannot hold before writing it, draws another in its place, and notes a high share', async () => {
    let result;
    const sent = await fixturesSentOn(fitted, async () => (result = await runDataProperty(fitted, property(['user', 'no-such-role', 'no-such-role']), { seed: 2, runs: 30, oracle: referenceOracle })));
    const dropped = result!.dropped?.['users.role is outside CHECK users_role_check'] ?? 0;
    expect(result).toMatchObject({ status: 'passed', cases: 30 });
    // Never written: the lane sent exactly the cases it counts.
    expect(sent.flat()).toHaveLength(30);
    expect(dropped / (dropped + 30)).toBeGreaterThan(0.4);
    expect(result!.note).toMatch(/^\d+% of cases dropped: users.role is outside CHECK users_role_check; /);
    // The same seed drops and runs the same cases.
    const again = await fixturesSentOn(fitted, () => runDataProperty(fitted, property(['user', 'no-such-role', 'no-such-role']), { seed: 2, runs: 30, oracle: referenceOracle }));
    expect(again).toEqual(sent);
  });

  it("a budget's second pass sends exactly the cases the first did not, and counts none of its drops again", async () => {
    const roles = ['user', 'no-such-role'];
    const options = { seed: 4, oracle: referenceOracle };
    let whole: PropertyResult | undefined, first: PropertyResult | undefined, second: PropertyResult | undefined;
    const all = await fixturesSentOn(fitted, async () => (whole = await runDataProperty(fitted, property(roles), { ...options, runs: 30 })));
    const firstSent = await fixturesSentOn(fitted, async () => (first = await runDataProperty(fitted, property(roles), { ...options, runs: 30, tranche: 10 })));
    const secondSent = await fixturesSentOn(fitted, async () => (second = await runDataProperty(fitted, property(roles), { ...options, runs: 30, resume: first!.progress })));
    expect([...firstSent[0], ...secondSent[0]]).toEqual(all[0]);
    const dropped = (r: PropertyResult | undefined) => r!.dropped?.['users.role is outside CHECK users_role_check'] ?? 0;
    expect(dropped(first) + dropped(second)).toBe(dropped(whole));
    expect(first!.cases + second!.cases).toBe(30);
    // The second pass ends where one run ends: the same runs, draws and drops, replayed rather than judged again.
    expect(second!.progress).toEqual(whole!.progress);
    expect(whole!.progress![0].drops.length).toBe(dropped(whole));
  });

  it('a tranche cut short resumes each lane where it stopped: the tranches send exactly the cases of one run, drops counted once', async () => {
    const roles = ['user', 'no-such-role'];
    const options = { seed: 5, oracle: referenceOracle, runs: 30 };
    let whole: PropertyResult | undefined, cut: PropertyResult | undefined, rest: PropertyResult | undefined;
    const all = await fixturesSentOn(fitted, async () => (whole = await runDataProperty(fitted, property(roles), options)));
    // Stopped after its 7th case, within a tranche of 20.
    let seen = 0;
    const cutSent = await fixturesSentOn(fitted, async () => (cut = await runDataProperty(fitted, property(roles), { ...options, tranche: 20, onCase: () => seen++, stop: () => seen >= 7 })));
    expect(cut).toMatchObject({ stopped: 'interrupted' });
    expect(cut!.cases).toBeLessThan(20);
    expect(cut!.progress![0].runs).toBe(cut!.cases);
    const restSent = await fixturesSentOn(fitted, async () => (rest = await runDataProperty(fitted, property(roles), { ...options, resume: cut!.progress })));
    expect([...cutSent[0], ...restSent[0]]).toEqual(all[0]);
    expect(cut!.cases + rest!.cases).toBe(30);
    const dropped = (r: PropertyResult | undefined) => r!.dropped?.['users.role is outside CHECK users_role_check'] ?? 0;
    expect(dropped(cut) + dropped(rest)).toBe(dropped(whole));
    expect(rest!.progress).toEqual(whole!.progress);
  });

  it('skips a listed bypass trigger the database does not have (yet), with a note', async () => {
    const notes: string[] = [];
    const older = await referenceEnvironment({ workers: 1, fixtures: { users: 'direct', bypassTriggers: ['users.users_10_owner_guard', 'public.users.not_created_yet'] }, log: (line) => notes.push(line) });
    try {
      expect(older.workers[0].tx.fixturePlan.bypassTriggers).toEqual(['users.users_10_owner_guard']);
      expect(notes).toContain('bypassTriggers: public.users.not_created_yet not in this database (not created yet at this migration state?): skipped');
      expect(await runDataProperty(older, property(['user']), { seed: 1, runs: 5, oracle: referenceOracle })).toMatchObject({ status: 'passed', cases: 5 });
    } finally {
      await older.close();
    }
  });

  it('gives up after a bounded run of cases in a row it cannot hold', async () => {
    const result = await runDataProperty(fitted, property(['no-such-role']), { seed: 2, runs: 30, oracle: referenceOracle });
    expect(result).toMatchObject({ status: 'no-verdict', cases: 0, dropped: { 'users.role is outside CHECK users_role_check': MAX_CONSECUTIVE_DROPS } });
    expect(result.stopped).toBeUndefined();
    expect(result.progress).toEqual([{ runs: 0, draws: MAX_CONSECUTIVE_DROPS, drops: [...Array(MAX_CONSECUTIVE_DROPS).keys()], gaveUp: true }]);
    // A later tranche leaves a lane that gave up as it is, as one run would: nothing drawn, written or dropped.
    let again: PropertyResult | undefined;
    const sent = await fixturesSentOn(fitted, async () => (again = await runDataProperty(fitted, property(['no-such-role']), { seed: 2, runs: 60, oracle: referenceOracle, resume: result.progress })));
    expect(sent).toEqual([[]]);
    expect(again).toMatchObject({ cases: 0, progress: result.progress });
    expect(again!.dropped).toBeUndefined();
  });

  it('a lane whose case in flight meets a harness error ends there: the drops drawn behind it while it ran never make it a lane that gave up', async () => {
    // The first case is written and its error comes back late; every case after it is one the
    // target cannot hold, dropped before writing, so the lane draws MAX_CONSECUTIVE_DROPS of them
    // while the first is still in the database.
    let drawn = 0;
    const listed = property(['user']);
    const firstHoldable: DataProperty = { ...listed, cases: (settings) => listed.cases(settings).map((c) => (drawn++ === 0 ? c : { ...c, world: { ...c.world, users: c.world.users!.map((u) => ({ ...u, role: 'no-such-role' })) } })) };
    const worker = fitted.workers[0];
    const { runPlanned } = worker.tx;
    worker.tx.runPlanned = function () {
      return new Promise((_, reject) => setTimeout(() => reject(new Error('injected harness error')), 1_500));
    } as typeof runPlanned;
    let result: PropertyResult;
    try {
      result = await runDataProperty(fitted, firstHoldable, { seed: 2, runs: 300, oracle: referenceOracle });
    } finally {
      delete (worker.tx as Partial<typeof worker.tx>).runPlanned;
    }
    expect(drawn).toBeGreaterThan(MAX_CONSECUTIVE_DROPS);
    expect(result).toMatchObject({ status: 'error', cases: 0, note: 'harness error: injected harness error' });
    expect(result.dropped).toBeUndefined();
    expect(result.progress).toEqual([{ runs: 1, draws: 1, drops: [], harnessError: 'harness error: injected harness error' }]);
    expect(propertySummary(result).lanesGaveUp).toBeUndefined();
  });
});

describe('tranches on two lanes', () => {
  it('each lane goes to its share of the tranche; lanes cut unevenly resume each where it stopped; the cases are those of one run', async () => {
    const options = { seed: 9, runs: 40, oracle: referenceOracle };
    let whole: PropertyResult | undefined;
    const all = await fixturesSent(async () => (whole = await runDataProperty(env, property(['user', 'admin']), options)));
    expect(whole!.progress!.map((p) => p.runs)).toEqual([20, 20]);
    let first: PropertyResult | undefined, second: PropertyResult | undefined, third: PropertyResult | undefined;
    const firstSent = await fixturesSent(async () => (first = await runDataProperty(env, property(['user', 'admin']), { ...options, tranche: 10 })));
    expect(first).toMatchObject({ cases: 10, planned: 40 });
    expect(first!.progress!.map((p) => p.runs)).toEqual([5, 5]);
    // Stopped after 7 more cases, wherever each lane is then.
    let seen = 0;
    const secondSent = await fixturesSent(async () => (second = await runDataProperty(env, property(['user', 'admin']), { ...options, tranche: 30, resume: first!.progress, onCase: () => seen++, stop: () => seen >= 7 })));
    expect(second!.stopped).toBe('interrupted');
    const thirdSent = await fixturesSent(async () => (third = await runDataProperty(env, property(['user', 'admin']), { ...options, resume: second!.progress })));
    for (const lane of [0, 1]) expect([...firstSent[lane], ...secondSent[lane], ...thirdSent[lane]]).toEqual(all[lane]);
    expect(first!.cases + second!.cases + third!.cases).toBe(40);
    expect(third!.progress).toEqual(whole!.progress);
  });

  it("a resumed tranche generates only the cases past where its lanes stopped, not the earlier ones again", async () => {
    const options = { seed: 9, runs: 40, oracle: referenceOracle };
    const drawn = { count: 0 };
    const first = await runDataProperty(env, property(['user'], drawn), { ...options, tranche: 10 });
    expect(drawn.count).toBe(10);
    let seen = 0;
    const second = await runDataProperty(env, property(['user'], drawn), { ...options, tranche: 30, resume: first.progress, onCase: () => seen++, stop: () => seen >= 7 });
    const drawsBefore = second.progress!.reduce((n, p) => n + p.draws, 0);
    drawn.count = 0;
    await runDataProperty(env, property(['user'], drawn), { ...options, resume: second.progress });
    expect(drawn.count).toBe(40 - drawsBefore);
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
      // A model run's case (fc.commands) naming it is dropped whole, and what its steps would have reached is counted.
      const asModelRun: DataProperty = { ...withAvatar, cases: (s) => withAvatar.cases(s).map((c) => withModelRun(c, async (execute) => {
        for (const step of c.steps) await execute(step);
      })) };
      const whole = await runDataProperty(env, asModelRun, { seed: 3, runs: 10, oracle: referenceOracle });
      expect(whole).toMatchObject({ cases: 0, dropped: { 'names users.avatar_url, mapped to null (the target has none)': 10 } });
      // Each case's PATCH and read, both allowed by the model.
      expect(whole.droppedReach).toEqual({ allow: 20 });
    } finally {
      txs.forEach((tx, i) => (tx.fixturePlan = plans[i]));
    }
  });
});

describe('runs side by side (budget.ts overlap)', () => {
  it("the next property's lanes take their workers as the run before frees them: each run's cases, counts and lanes' progress are those of one run after another", async () => {
    const { dataProperties } = await import('../../packs/reference/properties.ts');
    const chosen = dataProperties.filter((p) => ['R07', 'R02', 'R11'].includes(p.id));
    let inFlight = 0;
    let most = 0;
    const breadthFirst = (overlap: boolean) =>
      runBreadthFirst({
        properties: chosen,
        tranches: [20, 40],
        deadline: Number.POSITIVE_INFINITY,
        overlap,
        run: async (p, t) => {
          most = Math.max(most, ++inFlight);
          try {
            return await runDataProperty(env, p, { seed: 5, runs: 40, oracle: referenceOracle, tranche: t.tranche, ...(t.resume ? { resume: t.resume } : {}) });
          } finally {
            inFlight--;
          }
        },
        interrupted: () => false,
      });
    const shape = (r: Map<string, PropertyResult>) => [...r.values()].map(({ id, status, cases, counts, access, progress, branches }) => ({ id, status, cases, counts, access, progress, branches }));
    const oneAfterAnother = shape(await breadthFirst(false));
    expect(most).toBe(1);
    most = 0;
    const sideBySide = shape(await breadthFirst(true));
    expect(most).toBe(2);
    expect(sideBySide).toEqual(oneAfterAnother);
    expect(sideBySide.map((r) => [r.id, r.status, r.cases])).toEqual([['R02', 'passed', 40], ['R07', 'passed', 40], ['R11', 'passed', 40]]);
  });
});
