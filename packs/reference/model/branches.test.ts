/**
 * The reference model's branches (branches.ts), rule group by rule group: every branch a rule
 * owns is recorded where the model decides, and the rule's own generators (with their guides,
 * as a run's lanes draw) reach each one over the model alone within 150 cases of seed 1. A
 * branch no longer recorded, or no longer reached, is named. Engine branches (grants, a
 * read-back) count under the property that declares them (R05, R15, R16, R20).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceOracle } from './index.ts';
import { referenceBranches } from './branches.ts';
import { dataProperties } from '../properties.ts';
import { laneArbitrary } from '../../../engine/runner/guided.ts';
import { predictSteps } from '../../../engine/runner/case-predictions.ts';
import { asPropertyBranch, branchesOfProperty } from '../../../engine/model/branches.ts';
import { modelRunOf } from '../../../engine/runner/data-case.ts';

const catalog = referenceBranches.catalog;

/** The branches of property `id` its lane-drawn cases take over the model (a model run's steps are not known ahead: left out). */
function reached(id: string, runs = 150): Set<string> {
  const property = dataProperties.find((p) => p.id === id)!;
  const lane = laneArbitrary(property, referenceOracle, property.cases(referenceOracle.settings));
  const taken = new Set<string>();
  for (const testCase of fc.sample(lane, { seed: 1, numRuns: runs })) {
    if (modelRunOf(testCase)) continue;
    for (const s of predictSteps(referenceOracle, testCase)) {
      if (!('prediction' in s)) continue;
      for (const b of s.prediction.branches ?? []) {
        const own = asPropertyBranch(catalog, id, b);
        if (own) taken.add(own);
      }
    }
  }
  return taken;
}

const GROUPS: Record<string, string[]> = {
  'PR tickets, shop orders and users (rules 2, 5, 7, 8)': ['R02', 'R05', 'R07', 'R08'],
  'VS tickets (rules 6, 9, 12, 13)': ['R06', 'R09', 'R12', 'R13'],
  'projects, the team tree, identity and passport (rules 10, 11, 17, 19, 20)': ['R10', 'R11', 'R17', 'R19', 'R20'],
  'grants (rules 15, 16)': ['R15', 'R16'],
  'owner guards, the VS submitter guard, shop buyers, lookups and student records (rules 1, 3, 4, 14, 18)': ['R01', 'R03', 'R04', 'R14', 'R18'],
};

describe('every rule owns branches, and its generators reach them', () => {
  it('each of the 20 rules declares branches', () => {
    for (const p of dataProperties) expect(branchesOfProperty(catalog, p.id).length, p.id).toBeGreaterThan(0);
  });

  for (const [group, ids] of Object.entries(GROUPS)) {
    it(group, () => {
      for (const id of ids) {
        const taken = reached(id);
        const missing = branchesOfProperty(catalog, id).filter((b) => !taken.has(b));
        expect(missing, `${id}: never reached in 150 cases of seed 1`).toEqual([]);
      }
    });
  }
});
