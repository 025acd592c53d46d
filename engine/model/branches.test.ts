/**
 * Model-branch coverage (branches.ts): the recorder collects what one prediction decided, nested
 * predictions count for the outer one, and the reference model's rule 3 guard names the decision
 * a remark append took: a valid entry, and the same entry with its "by" or "vis" key absent (the
 * decisions the `<>` mutants of R03 get wrong).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { branch, branchesOfProperty, unrecorded, withBranches } from './branches.ts';
import { predict } from './predict.ts';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { R03 } from '../../packs/reference/rules/R03-vs-submitter-guard/property.ts';
import type { DataCase } from '../runner/data-case.ts';
import type { Row } from './json.ts';

describe('the branch recorder', () => {
  it('collects the branches taken inside a prediction, in order, once each; nested ones count for the outer one too', () => {
    branch('X.outside'); // no prediction: not recorded anywhere
    const outer = withBranches(() => {
      branch('X.a');
      const inner = withBranches(() => {
        branch('X.b');
        branch('X.a');
        return 2;
      });
      expect(inner).toEqual({ value: 2, branches: ['X.b', 'X.a'] });
      branch('X.a');
      return 1;
    });
    expect(outer).toEqual({ value: 1, branches: ['X.a', 'X.b'] });
  });

  it('a question asked unrecorded (the visibility of a row inserted with return=minimal) leaves no branch', () => {
    const { branches } = withBranches(() => {
      branch('X.a');
      expect(unrecorded(() => (branch('X.hidden'), 3))).toBe(3);
      branch('X.b');
    });
    expect(branches).toEqual(['X.a', 'X.b']);
  });

  it("a property's branches are the catalog's ids under its prefix", () => {
    expect(branchesOfProperty({ 'R03.a': '', 'R030.b': '', 'R03.c': '', 'R14.d': '' }, 'R03')).toEqual(['R03.a', 'R03.c']);
    expect(branchesOfProperty(undefined, 'R03')).toEqual([]);
  });
});

describe("the reference model's rule 3 branches", () => {
  // A submitter's valid remark append, drawn by R03's own generator (seeded), then varied by one key.
  const validAppend = (): { testCase: DataCase; remarks: Row[] } => {
    for (const testCase of fc.sample(R03.cases(referenceOracle.settings), { seed: 7, numRuns: 400 })) {
      const [s] = testCase.steps;
      const { branches, outcome } = predict(referenceOracle, testCase.world, s.caller, s.request);
      const taken = branches ?? [];
      // Allowed too (a valid entry may still be refused for the cap on remarks), and one entry appended: without its last entry, no valid one is left.
      if (!taken.includes('R03.remark.valid') || outcome.kind !== 'allowed' || s.request.kind !== 'update' || Object.keys(s.request.patch).join() !== 'remarks') continue;
      const remarks = s.request.patch.remarks as Row[];
      const withoutLast = predict(referenceOracle, testCase.world, s.caller, { ...s.request, patch: { remarks: remarks.slice(0, -1) } });
      if (!(withoutLast.branches ?? []).includes('R03.remark.valid')) return { testCase, remarks };
    }
    throw new Error('no valid single remark append among 400 R03 cases');
  };

  it('a valid append, the same entry without "by", and without "vis" take their own branches, and only the valid one is allowed', () => {
    const { testCase, remarks } = validAppend();
    const [s] = testCase.steps;
    const last = remarks.at(-1)!;
    const withLast = (entry: Row) => {
      const request = { ...(s.request as Extract<DataCase['steps'][0]['request'], { kind: 'update' }>), patch: { remarks: [...remarks.slice(0, -1), entry] } };
      return predict(referenceOracle, testCase.world, s.caller, request);
    };
    const valid = withLast(last);
    expect(valid.outcome.kind).toBe('allowed');
    expect(valid.branches).toContain('R03.remarks.appended');
    expect(valid.branches).not.toContain('R03.remark.by-absent');

    const { by: _by, ...noBy } = last;
    const missingBy = withLast(noBy);
    expect(missingBy.outcome.kind).toBe('raised');
    expect(missingBy.branches).toContain('R03.remark.by-absent');
    expect(missingBy.branches).not.toContain('R03.remark.valid');

    const { vis: _vis, ...noVis } = last;
    const missingVis = withLast(noVis);
    expect(missingVis.outcome.kind).toBe('raised');
    expect(missingVis.branches).toContain('R03.remark.vis-absent');
    expect(missingVis.branches).not.toContain('R03.remark.by-absent');
  });
});
