import { describe, expect, it } from 'vitest';
import { allowed, raised } from '../model/outcome.ts';
import type { Oracle } from '../pack.ts';
import { applyCoverageGate, ClauseTally } from './coverage.ts';
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

describe('clause coverage', () => {
  it('a clause side never reached fails the run, naming the clause and the side', () => {
    const r = applyCoverageGate(passed([{ id: 'R99.paid', label: 'a buyer setting paid', allowed: 0, refused: 7 }]));
    expect(r.status).toBe('failed');
    expect(r.note).toBe('coverage: in 300 cases generation never reached clause R99.paid (a buyer setting paid): allowed');
    expect(applyCoverageGate(passed([{ id: 'R99.paid', label: 'x', allowed: 1, refused: 1 }])).status).toBe('passed');
  });

  it('counts each step of a case on the side the model answers', () => {
    const model = {
      tables: {},
      fixtureOrder: [],
      functions: {
        f: { name: 'f', args: ['ok'], executableBy: ['anon'], predict: (world: never, _c: never, a: { ok: boolean }) => ({ outcome: a.ok ? allowed(null, 1) : raised('P0001'), world }) },
      },
    };
    const clause: Clause = { id: 'R99.f', label: 'f', side: (s) => (s.step.request.kind === 'rpc' ? (s.outcome.kind === 'allowed' ? 'allowed' : 'refused') : undefined) };
    const tally = new ClauseTally([clause]);
    const call = (ok: boolean) => ({ caller: { kind: 'anon' as const }, request: { kind: 'rpc' as const, fn: 'f', args: { ok } } });
    tally.add({ world: {}, steps: [call(true), call(false), call(false)] }, { model, settings: {} } as unknown as Oracle);
    expect(tally.result()).toEqual([{ id: 'R99.f', label: 'f', allowed: 1, refused: 2 }]);
  });
});
