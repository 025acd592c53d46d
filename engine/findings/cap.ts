/**
 * How many findings a property reports, in one place: a run (engine/runner/run-data-property.ts)
 * and a merge of its shards (engine/report/summary.ts) cap and word it alike. The count travels
 * as `moreFindings` (a merge reads that, never the note's words).
 */
import { runOfPath } from '../runner/replay-path.ts';

/** At most this many distinct findings are shrunk and reported per property (the rest are counted). */
export const MAX_FINDINGS = 12;

/** The note of a property that found more distinct findings than it reports. */
export function moreFindingsNote(distinct: number, atLeast = false): string {
  return `${atLeast ? 'at least ' : ''}${distinct} distinct findings; the first ${MAX_FINDINGS} are shrunk and reported`;
}

/**
 * Findings made apart (the shards of a run, the tranches of a budgeted property) as one run lists
 * them: one per signature, its earliest sighting by lane (a lane's seed is the run's seed plus the
 * lane), then by run (a path's first step), side errors after the others. Without signatures on
 * every one (older summaries) they are left as they are.
 */
export function oneFindingPerSignature<F extends { seed: number; path: string; signature?: string; side?: boolean }>(findings: readonly F[]): F[] {
  if (findings.length < 2 || !findings.every((f) => f.signature)) return [...findings];
  const key = (f: F) => [Number(f.side === true), f.seed, runOfPath(f.path)];
  const sorted = [...findings].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return sorted.filter((f, i) => sorted.findIndex((g) => g.signature === f.signature) === i);
}
