/**
 * How many findings a property reports, in one place: a run (engine/runner/run-data-property.ts)
 * and a merge of its shards (engine/report/summary.ts) cap and word it alike. The count travels
 * as `moreFindings` (a merge reads that, never the note's words).
 */

/** At most this many distinct findings are shrunk and reported per property (the rest are counted). */
export const MAX_FINDINGS = 12;

/** The note of a property that found more distinct findings than it reports. */
export function moreFindingsNote(distinct: number, atLeast = false): string {
  return `${atLeast ? 'at least ' : ''}${distinct} distinct findings; the first ${MAX_FINDINGS} are shrunk and reported`;
}
