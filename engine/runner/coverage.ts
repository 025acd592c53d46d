/**
 * A run that never saw a rule allow, or never saw it deny, has not tested it. A passing property
 * whose cases reached only one side fails with a note saying which side was never reached.
 */
import type { PropertyResult } from './result.ts';

export const MIN_RUNS_FOR_COVERAGE = 50;

export function applyCoverageGate(result: PropertyResult): PropertyResult {
  if (result.status !== 'passed' || result.area !== 'data' || result.cases < MIN_RUNS_FOR_COVERAGE) return result;
  const allowed = result.counts.allowed ?? 0;
  const denied = (result.counts.filtered ?? 0) + (result.counts.rejected ?? 0);
  if (allowed > 0 && denied > 0) return result;
  return { ...result, status: 'failed', note: `coverage: generation never reached the ${allowed === 0 ? 'allow' : 'deny'} side of rule ${result.id} in ${result.cases} cases` };
}
