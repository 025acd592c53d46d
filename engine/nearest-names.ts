/** The names nearest a mistyped one, for "did you mean" in a one-line error. */

/** Levenshtein distance: the fewest one-character edits from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** Up to `count` of `candidates`, nearest `name` first (ties in name order). */
export function nearestNames(name: string, candidates: Iterable<string>, count = 3): string[] {
  return [...new Set(candidates)]
    .map((c) => ({ c, d: editDistance(name.toLowerCase(), c.toLowerCase()) }))
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, count)
    .map((x) => x.c);
}
