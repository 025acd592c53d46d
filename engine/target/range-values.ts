/**
 * A value for a NOT NULL range column the model does not know (`enrolled daterange`, an on-call
 * shift's `during tstzrange`, `points int4range`): bounded on both sides and not empty, so the
 * usual CHECKs (`not isempty(r)`, `not lower_inf(r)`) hold, and a different day (or number) for
 * each `n`, so two rows never overlap under an exclusion constraint (`exclude using gist (… with
 * &&)`). Before it a `daterange` took a timestamp (`malformed range literal`, a harness error)
 * and a `tstzrange` could not be filled (stranger-app-12). Pure (no I/O).
 */
const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 0, 1);

/** The literal for range type `type` (unqualified), or undefined when it is not a range. */
export function rangeLiteral(type: string, n: number): string | undefined {
  const day = (k: number) => new Date(START + k * DAY_MS).toISOString();
  switch (type) {
    case 'tstzrange':
    case 'tsrange':
      return `[${day(n)},${day(n + 1)})`;
    case 'daterange':
      return `[${day(n).slice(0, 10)},${day(n + 1).slice(0, 10)})`;
    case 'int4range':
    case 'int8range':
    case 'numrange':
      return `[${n},${n + 1})`;
    default:
      return undefined;
  }
}
