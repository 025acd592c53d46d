/**
 * A time budget shared so that every property first gets its minimum number of cases, then
 * what is left: pass 1 runs each property up to `minCases`, each within an equal share of the
 * remaining time; pass 2 continues each property that passed pass 1 up to its full `runs`
 * (with the same seed, so pass 2 skips the cases pass 1 already checked: the verdicts are those
 * of one unbudgeted run). A property the budget (or an interrupt) cut short is never a pass
 * below its minimum and never a failure: PARTIAL with the cases that ran, or NOT REACHED.
 */
import type { DataProperty } from './data-property.ts';
import type { PropertyResult } from './result.ts';

/** The deadline of the next of `left` properties: an equal share of what remains, at least 1 ms. */
export function shareOfBudget(deadline: number, left: number, now = Date.now()): number {
  return now + Math.max(1, Math.floor((deadline - now) / Math.max(1, left)));
}

/** One property's two passes as one result: cases, counts and time add up. */
export function joinPasses(first: PropertyResult, second: PropertyResult): PropertyResult {
  const counts = { ...first.counts };
  for (const [k, v] of Object.entries(second.counts)) counts[k] = (counts[k] ?? 0) + v;
  const access = { ...first.access };
  for (const [k, v] of Object.entries(second.access ?? {})) access[k] = (access[k] ?? 0) + v;
  const clauses = second.clauses?.map((c) => {
    const before = first.clauses?.find((k) => k.id === c.id);
    return before ? { ...c, allowed: c.allowed + before.allowed, refused: c.refused + before.refused } : c;
  });
  const branches = second.branches?.map((b) => ({ ...b, taken: b.taken + (first.branches?.find((k) => k.id === b.id)?.taken ?? 0) }));
  const { note, stopped, ...rest } = second;
  const dropped = { ...first.dropped };
  for (const [k, v] of Object.entries(second.dropped ?? {})) dropped[k] = (dropped[k] ?? 0) + v;
  return {
    ...rest,
    ...(Object.keys(dropped).length ? { dropped } : {}),
    cases: first.cases + second.cases,
    counts,
    ...(first.access || second.access ? { access } : {}),
    ...(clauses ? { clauses } : {}),
    ...(branches ? { branches } : {}),
    durationMs: first.durationMs + second.durationMs,
    ...(second.status === 'passed' ? (stopped ? { stopped, note } : {}) : note ? { note } : {}),
    ...(second.firstFailureMs !== undefined ? { firstFailureMs: first.durationMs + second.firstFailureMs } : {}),
  };
}

/**
 * The verdict of a property that may have been cut short. Passed with all its cases: passed.
 * Cut short: not reached (no case), partial (below `minCases`, or stopped by an interrupt), or
 * passed with the cases that ran named in the note (the minimum reached before the budget ran out).
 */
export function budgetVerdict(r: PropertyResult, minCases: number): PropertyResult {
  if (r.status !== 'passed' || !r.stopped) return r;
  const of = `${r.cases}${r.planned !== undefined ? ` of ${r.planned}` : ''} cases`;
  const why = r.stopped === 'interrupted' ? 'the run was interrupted' : 'the time budget ran out';
  if (r.cases === 0) return { ...r, status: 'not-reached', note: `not reached: ${why} before its first case` };
  if (r.cases < minCases || r.stopped === 'interrupted') return { ...r, status: 'partial', note: `partial (${of}): ${why}${r.cases < minCases ? ` below its minimum of ${minCases}` : ''}` };
  return { ...r, note: `${of}: ${why} after its minimum of ${minCases}` };
}

/** A property the run never started (the budget or an interrupt came first). */
export function notReached(property: Pick<DataProperty, 'id' | 'title'>, area: 'data' | 'sso', seed: number, why: 'time budget' | 'interrupted', planned?: number): PropertyResult {
  return {
    id: property.id,
    title: property.title,
    area,
    status: 'not-reached',
    cases: 0,
    counts: {},
    durationMs: 0,
    seed,
    stopped: why,
    ...(planned !== undefined ? { planned } : {}),
    note: `not reached: ${why === 'interrupted' ? 'the run was interrupted' : 'the time budget ran out'} before it started`,
  };
}
