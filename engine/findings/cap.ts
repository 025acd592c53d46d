/**
 * How many findings a property reports, in one place: a run (engine/runner/run-data-property.ts)
 * and a merge of its shards (engine/report/summary.ts) cap and word it alike.
 */

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
