/**
 * The lifecycle arbitrary without a database: its cases are plain data, the model run it carries
 * sends exactly the case's steps, and fast-check shrinks the command lists and replays a shrunk
 * failure from its seed and path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { predict } from '../model/predict.ts';
import { defaultSettings } from '../model/settings.ts';
import { modelRunOf, type DataCase, type DataStep } from '../../../engine/runner/data-case.ts';
import { vsLifecycleCases } from './vs-lifecycle.ts';

const settings = defaultSettings;
const arb = vsLifecycleCases(settings);

/** Did a successful soft delete come before a later step? (a stand-in failing property) */
function deletesThenReads(c: DataCase): boolean {
  let world = c.world;
  let deleted = false;
  for (const s of c.steps) {
    const p = predict(world, s.caller, s.request, settings);
    if (deleted && s.request.kind === 'select') return true;
    if (s.request.kind === 'rpc' && s.request.fn === 'soft_delete_vs_ticket' && p.outcome.kind === 'allowed' && p.outcome.rows?.[0]?.value === true) deleted = true;
    world = p.world;
  }
  return false;
}

describe('VS lifecycle cases (fc.commands)', () => {
  it('are plain data: a JSON copy is the same case, the model run is a hidden hook', () => {
    for (const c of fc.sample(arb, { numRuns: 50, seed: 5 })) {
      expect(Object.keys(c)).toEqual(['world', 'steps']);
      expect(JSON.parse(JSON.stringify(c))).toEqual({ world: c.world, steps: c.steps });
      expect(modelRunOf(c)).toBeTypeOf('function');
      expect(modelRunOf(JSON.parse(JSON.stringify(c)))).toBeUndefined();
    }
  });

  it('carry a model run (fc.asyncModelRun) that sends exactly the case steps', async () => {
    for (const c of fc.sample(arb, { numRuns: 30, seed: 6 })) {
      const sent: DataStep[] = [];
      let world = c.world;
      await modelRunOf(c)!(async (step) => {
        sent.push(step);
        world = predict(world, step.caller, step.request, settings).world;
        return world;
      });
      expect(sent).toEqual(c.steps);
    }
  });

  it('shrink by dropping commands, and a shrunk failure replays from its seed and path', () => {
    const property = fc.property(arb, (c) => !deletesThenReads(c));
    const failed = fc.check(property, { seed: 11, numRuns: 300 });
    expect(failed.failed).toBe(true);
    const shrunk = failed.counterexample![0] as DataCase;
    // Two commands survive shrinking: the soft delete, then one read (on one path, or on all seven).
    expect(shrunk.steps[0].request).toMatchObject({ kind: 'rpc', fn: 'soft_delete_vs_ticket' });
    expect(shrunk.steps.length).toBeLessThanOrEqual(8);
    expect(shrunk.steps.slice(1).every((s) => s.request.kind === 'select' || (s.request.kind === 'rpc' && s.request.fn !== 'soft_delete_vs_ticket'))).toBe(true);
    const replay = fc.check(property, { seed: failed.seed, path: failed.counterexamplePath!, numRuns: 1 });
    expect(replay.failed).toBe(true);
    expect(JSON.stringify(replay.counterexample![0])).toBe(JSON.stringify(shrunk));
  });
});
