import { describe, expect, it } from 'vitest';
import { allowed, raised } from '../model/outcome.ts';
import type { Oracle } from '../pack.ts';
import { applyCoverageGate, BranchTally, ClauseTally, COVERAGE_ON_MERGE_NOTE, DroppedReach } from './coverage.ts';
import { mergeSummaries, propertySummary, runSummary, type RunSummary } from '../report/summary.ts';
import { branchCoverageLines } from '../report/console.ts';
import type { Clause } from './data-property.ts';
import type { PropertyResult } from './result.ts';

const passed = (clauses: PropertyResult['clauses']): PropertyResult => ({
  id: 'R99',
  title: 't',
  area: 'data',
  status: 'passed',
  cases: 300,
  counts: { allowed: 10, filtered: 0, rejected: 10, errored: 0 },
  clauses,
  durationMs: 1,
  seed: 1,
});

/** A model of one function `f` that allows when asked with ok, and raises otherwise; the clause it exercises; a call of it. */
const model = {
  tables: {},
  fixtureOrder: [],
  functions: {
    f: { name: 'f', args: ['ok'], executableBy: ['anon'], predict: (world: never, _c: never, a: { ok: boolean }) => ({ outcome: a.ok ? allowed(null, 1) : raised('P0001'), world }) },
  },
};
const clause: Clause = { id: 'R99.f', label: 'f', side: (s) => (s.step.request.kind === 'rpc' ? (s.outcome.kind === 'allowed' ? 'allowed' : 'refused') : undefined) };
const call = (ok: boolean) => ({ caller: { kind: 'anon' as const }, request: { kind: 'rpc' as const, fn: 'f', args: { ok } } });

describe('clause coverage', () => {
  it('a clause side never reached fails the run, naming the clause and the side', () => {
    const r = applyCoverageGate(passed([{ id: 'R99.paid', label: 'a buyer setting paid', allowed: 0, refused: 7 }]));
    expect(r.status).toBe('failed');
    expect(r.note).toBe('coverage: in 300 cases generation never reached clause R99.paid (a buyer setting paid): allowed');
    expect(applyCoverageGate(passed([{ id: 'R99.paid', label: 'x', allowed: 1, refused: 1 }])).status).toBe('passed');
  });

  it('a clause a project’s schema cannot hold the cases of (they were dropped) passes, naming the clause and the main reason; without drops it still fails', () => {
    // Re-created from a stranger's schema: pr_tickets without a status column drops every POST the clause needs.
    const unheld = {
      ...passed([{ id: 'R99.post', label: 'POST pr_tickets', allowed: 0, refused: 0 }]),
      dropped: { 'names pr_tickets.status, mapped to null (the target has none)': 1111, 'users.role is NOT NULL': 198 },
      droppedReach: { 'R99.post:allowed': 700, 'R99.post:refused': 411, allow: 700, deny: 411 },
    };
    expect(applyCoverageGate(unheld)).toMatchObject({
      status: 'passed',
      note: 'not checked on this target: clause R99.post (POST pr_tickets): allowed; R99.post (POST pr_tickets): refused (its cases were dropped, mostly as names pr_tickets.status, mapped to null (the target has none))',
    });
    expect(applyCoverageGate({ ...unheld, dropped: {}, droppedReach: {} }).status).toBe('failed');
  });

  it('a clause no sent case reached on either side, whose dropped cases reached one side, is not checked on this target on both (stranger-app-4: every professor upload names project_files.project_id and kind, which it lacks)', () => {
    const unheld = {
      ...passed([{ id: 'R99.upload', label: 'an upload', allowed: 0, refused: 0 }]),
      dropped: { 'names project_files.project_id, mapped to null (the target has none)': 453 },
      droppedReach: { 'R99.upload:allowed': 151, allow: 151 },
    };
    expect(applyCoverageGate(unheld)).toMatchObject({
      status: 'passed',
      note: 'not checked on this target: clause R99.upload (an upload): allowed; R99.upload (an upload): refused (its cases were dropped, mostly as names project_files.project_id, mapped to null (the target has none))',
    });
    // One side sent on the target: the other side is the generator's to draw, and still fails.
    expect(applyCoverageGate({ ...unheld, ...passed([{ id: 'R99.upload', label: 'an upload', allowed: 0, refused: 4 }]) }).status).toBe('passed');
    expect(applyCoverageGate({ ...unheld, droppedReach: { 'R99.upload:refused': 3, deny: 3 }, ...passed([{ id: 'R99.upload', label: 'an upload', allowed: 2, refused: 0 }]) }).status).toBe('passed');
    expect(applyCoverageGate({ ...unheld, droppedReach: { 'R99.upload:allowed': 3, allow: 3 }, ...passed([{ id: 'R99.upload', label: 'an upload', allowed: 2, refused: 0 }]) }).status).toBe('failed');
  });

  it('an unrelated drop excuses nothing: a clause side no dropped case would have reached (a generator that never draws it) still fails', () => {
    // One case dropped for a NOT NULL elsewhere used to let every unreached clause pass as "not checked on this target".
    const regressed = {
      ...passed([
        { id: 'R99.paid', label: 'a buyer setting paid', allowed: 0, refused: 7 },
        { id: 'R99.post', label: 'POST pr_tickets', allowed: 0, refused: 3 },
      ]),
      dropped: { 'users.role is NOT NULL': 1 },
      droppedReach: { 'R99.post:allowed': 1, allow: 1 },
    };
    expect(applyCoverageGate(regressed)).toMatchObject({
      status: 'failed',
      note: 'coverage: in 300 cases generation never reached clause R99.paid (a buyer setting paid): allowed; not checked on this target: clause R99.post (POST pr_tickets): allowed (its cases were dropped, mostly as users.role is NOT NULL)',
    });
    // The rule's side, likewise: excused only when dropped cases would have reached it.
    const allowOnly = { ...passed(undefined), counts: { allowed: 300, filtered: 0, rejected: 0, errored: 0 }, dropped: { 'users.role is NOT NULL': 1 } };
    expect(applyCoverageGate({ ...allowOnly, droppedReach: { allow: 1 } }).status).toBe('failed');
    expect(applyCoverageGate({ ...allowOnly, droppedReach: { deny: 1 } })).toMatchObject({ status: 'passed', note: 'not checked on this target: the deny side of rule R99 (its cases were dropped, mostly as users.role is NOT NULL)' });
    // A side only the steps after a role sweep's cut would have reached: excused as a drop's, the cut named.
    const { dropped: _none, ...allowOnlyCut } = allowOnly;
    expect(applyCoverageGate({ ...allowOnlyCut, cut: { 'shop_orders.buyer_note is UNIQUE': 3 }, droppedReach: { deny: 1 } })).toMatchObject({ status: 'passed', note: 'not checked on this target: the deny side of rule R99 (its cases were dropped or cut, mostly as shop_orders.buyer_note is UNIQUE)' });
    // merge-reports adds the shards' reach before gating.
    const shard = (index: number, droppedReach: Record<string, number>) =>
      runSummary([propertySummary({ ...passed([{ id: 'R99.post', label: 'p', allowed: 0, refused: 3 }]), dropped: { x: 1 }, droppedReach, note: COVERAGE_ON_MERGE_NOTE })], { policyfuzzVersion: 't', seed: 1, profile: 'pr', shard: { index, count: 2 }, migrations: null, migrationsDigest: null, startedAt: new Date(0), timeBudgetMs: null });
    expect(mergeSummaries([shard(1, {}), shard(2, {})]).properties[0].status).toBe('failed');
    expect(mergeSummaries([shard(1, {}), shard(2, { 'R99.post:allowed': 1 })]).properties[0].status).toBe('passed');
  });

  it('counts what a dropped case would have reached by the model: when some steps were sent, the dropped ones and those after them', () => {
    const oracle = { model, settings: {} } as unknown as Oracle;
    const reach = new DroppedReach([clause]);
    const steps = [call(true), call(false)];
    reach.add({ world: {}, steps }, oracle, new Set([steps[1]]));
    expect(reach.result()).toEqual({ deny: 1, 'R99.f:refused': 1 });
    // Re-created after the second stranger's schema: R05's insert dropped (a column the target lacks), its read-back sent on a world without the row.
    const after = new DroppedReach([clause]);
    const three = [call(true), call(false), call(true)];
    after.add({ world: {}, steps: three }, oracle, new Set([three[1]]));
    expect(after.result()).toEqual({ allow: 1, deny: 1, 'R99.f:allowed': 1, 'R99.f:refused': 1 });
    reach.add({ world: {}, steps }, oracle, new Set());
    expect(reach.result()).toEqual({ deny: 1, 'R99.f:refused': 1 });
    reach.add({ world: {}, steps: [call(true)] }, oracle);
    expect(reach.result()).toEqual({ allow: 1, deny: 1, 'R99.f:allowed': 1, 'R99.f:refused': 1 });
  });

  it('a rule with one side by design (readable by everyone) passes on that side alone, in a run and once merged; unsaid, the failure names the setting', () => {
    // Re-created after supabase-graphql-example: "profiles, posts, comments and votes are readable by everyone" has no deny side.
    const allowOnly: PropertyResult = { ...passed(undefined), counts: { allowed: 300, filtered: 0, rejected: 0, errored: 0 } };
    expect(applyCoverageGate(allowOnly)).toMatchObject({
      status: 'failed',
      note: "coverage: generation never reached the deny side of rule R99 in 300 cases (a rule with no deny side by design says so with `oneSided: 'allow'` in its defineProperty)",
    });
    // Re-created after alana-notes: an rpc whose refusal is an answer (void, nothing changed), predicted `allowed`: the note names `filtered`.
    const rpcOnly = { ...allowOnly, access: { 'rpc update_note|execute|anon|allowed': 300 } };
    expect(applyCoverageGate(rpcOnly).note).toMatch(/`oneSided: 'allow'` in its defineProperty; a function refusing in its answer \(a 200 that changes nothing\) is that side when its predict returns `filtered\(rows, n\)` there/);
    expect(applyCoverageGate(allowOnly).note).not.toMatch(/filtered/);
    expect(applyCoverageGate({ ...allowOnly, oneSided: 'allow' }).status).toBe('passed');
    expect(applyCoverageGate({ ...allowOnly, oneSided: 'deny' }).status).toBe('failed');
    const shard = (index: number) => runSummary([propertySummary({ ...allowOnly, oneSided: 'allow' })], { policyfuzzVersion: 't', seed: 1, profile: 'pr', shard: { index, count: 2 }, migrations: null, migrationsDigest: null, startedAt: new Date(0), timeBudgetMs: null });
    const merged = mergeSummaries([shard(1), shard(2)]);
    expect(merged.properties[0]).toMatchObject({ oneSided: 'allow', status: 'passed' });
  });

  it('counts each step of a case on the side the model answers', () => {
    const tally = new ClauseTally([clause]);
    tally.add({ world: {}, steps: [call(true), call(false), call(false)] }, { model, settings: {} } as unknown as Oracle);
    expect(tally.result()).toEqual([{ id: 'R99.f', label: 'f', allowed: 1, refused: 2 }]);
  });
});

describe('model-branch coverage', () => {
  it('counts each case once per branch of the property it took; the others, and other properties\u2019 branches, are not counted', () => {
    const tally = new BranchTally({ 'R99.a': 'a', 'R99.b': 'b', 'R98.c': 'c' }, 'R99');
    expect(tally.add([{ branches: ['R99.a', 'R98.c'] }, { branches: ['R99.a'] }])).toEqual(['R99.a']);
    expect(tally.add([{ branches: ['R99.a'] }, {}])).toEqual([]);
    expect(tally.result()).toEqual([
      { id: 'R99.a', label: 'a', taken: 2 },
      { id: 'R99.b', label: 'b', taken: 0 },
    ]);
    expect(tally.untaken()).toEqual(['R99.b']);
    expect(new BranchTally(undefined, 'R99').known).toBe(false);
  });

  it('counts an engine branch (unprefixed) under the property that declares it as <property>.<id>, and under no other', () => {
    const catalog = { 'R99.grant.table.denied': 'denied', 'R99.own': 'own', 'R98.x': 'x' };
    const r99 = new BranchTally(catalog, 'R99');
    expect(r99.add([{ branches: ['grant.table.denied', 'grant.table.granted', 'R99.own'] }])).toEqual(['R99.grant.table.denied', 'R99.own']);
    const r98 = new BranchTally(catalog, 'R98');
    expect(r98.add([{ branches: ['grant.table.denied'] }])).toEqual([]);
  });

  it('merge-reports adds the shards\u2019 branch tallies and names only the branches no shard took', () => {
    const shard = (index: number, taken: [number, number, number]): RunSummary => {
      const property = propertySummary({ ...passed(undefined), branches: ['R99.a', 'R99.b', 'R99.c'].map((id, i) => ({ id, label: id, taken: taken[i] })) });
      return runSummary([property], { policyfuzzVersion: 't', seed: 1, profile: 'pr', shard: { index, count: 2 }, migrations: null, migrationsDigest: null, startedAt: new Date(0), timeBudgetMs: null });
    };
    const one = shard(1, [3, 0, 0]);
    expect(one.properties[0].untakenBranches).toEqual(['R99.b', 'R99.c']);
    const merged = mergeSummaries([one, shard(2, [1, 2, 0])]);
    expect(merged.properties[0].branches).toEqual([
      { id: 'R99.a', label: 'R99.a', taken: 4 },
      { id: 'R99.b', label: 'R99.b', taken: 2 },
      { id: 'R99.c', label: 'R99.c', taken: 0 },
    ]);
    expect(merged.properties[0].untakenBranches).toEqual(['R99.c']);
    expect(branchCoverageLines(merged.properties)).toEqual(['model branches taken (of those the model knows):', '  R99  2/3  never reached: R99.c']);
  });
});
