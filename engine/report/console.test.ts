/**
 * The console's failure blocks: a failed property's note (a harness error after its findings,
 * shrinking cut short) is printed with it, not left to summary.json alone.
 */
import { describe, expect, it } from 'vitest';
import type { PropertyResult } from '../runner/result.ts';
import { printFailures } from './console.ts';

const failed: PropertyResult = {
  id: 'R02',
  title: 'users: a non-staff owner cannot PATCH their role',
  area: 'data',
  status: 'failed',
  cases: 50,
  counts: {},
  durationMs: 10,
  seed: 1,
  failure: {
    seed: 1,
    path: '2',
    counterexample: { world: {}, steps: [] },
    expected: { kind: 'error', code: 'P0001' },
    actual: { outcome: { kind: 'allowed', affected: 1 } },
    message: 'step 1: database answered success, model expected error P0001',
  },
  note: 'harness error while shrinking: the database server closed the connection; the findings not yet shrunk are reported as first found',
};

describe('printFailures', () => {
  it("prints a failed property's note under its failure: a harness error the run met after the finding is not silent", () => {
    const lines: string[] = [];
    printFailures([failed], new Map([['R02', { replay: 'policyfuzz fuzz --only R02 --seed 1 --path 2' }]]), (line) => lines.push(line));
    expect(lines.at(-1)).toBe(`  note:     ${failed.note}`);
    expect(lines[0]).toMatch(/^\nR02 FAILED: step 1/);
  });
});
