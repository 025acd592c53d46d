/**
 * How many findings a property reports, in one place: a run (engine/runner/run-data-property.ts)
 * and a merge of its shards (engine/report/summary.ts) cap and word it alike.
 */

import { isSideErrorSignature } from './signature.ts';

/** At most this many distinct findings are shrunk and reported per property (the rest are counted). */
export const MAX_FINDINGS = 12;

/** The note of a property that found more distinct findings than it reports. */
export function moreFindingsNote(distinct: number, atLeast = false): string {
  return `${atLeast ? 'at least ' : ''}${distinct} distinct findings; the first ${MAX_FINDINGS} are shrunk and reported`;
}

const MORE_FINDINGS = /(?:at least )?(\d+) distinct findings; the first \d+ are shrunk and reported/g;

/** A note without its more-findings part, and the count that part gave (0 when none). */
export function takeMoreFindingsNote(note: string | null | undefined): { note: string | null; distinct: number } {
  if (!note) return { note: note ?? null, distinct: 0 };
  let distinct = 0;
  const rest = note.replace(MORE_FINDINGS, (_, n: string) => {
    distinct = Math.max(distinct, Number(n));
    return '';
  });
  return { note: rest.split('; ').filter(Boolean).join('; ') || null, distinct };
}

/**
 * Findings made apart (the shards of a run, the tranches of a budgeted property) as one run lists
 * them: one per signature, its earliest sighting by lane (a lane's seed is the run's seed plus the
 * lane), then by run (a path's first step), side errors after the others. Without signatures on
 * every one (older summaries) they are left as they are.
 */
export function oneFindingPerSignature<F extends { seed: number; path: string; signature?: string }>(findings: readonly F[]): F[] {
  if (findings.length < 2 || !findings.every((f) => f.signature)) return [...findings];
  const key = (f: F) => [Number(isSideErrorSignature(f.signature!)), f.seed, Number(f.path.split(':')[0]) || 0];
  const sorted = [...findings].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return sorted.filter((f, i) => sorted.findIndex((g) => g.signature === f.signature) === i);
}
