/**
 * Ties of now(). Postgres' now() is the transaction's start time, and a case is one transaction
 * (engine/executor/case-transaction.ts: a savepoint cannot have its own), so every row a case
 * writes with a now()-defaulted timestamp holds the same instant; in production so do the rows
 * of one multi-row statement. An ordering by such a column promises nothing among them: every
 * order of them is as correct (whatever tie-break a project adds, or none).
 *
 * Where the model orders: table reads and embeds without an `order=` are compared as multisets,
 * db-max-rows accepts any n of the rows (predict.ts maxRowsCap); with one (a read's or an
 * embed's), rows tied on its columns come in any order (compare.ts orderSequence compares their
 * values only), so a now()-defaulted column ties as it should. A function's ordered answer (a
 * JSON array, get_my_student_record's newest change requests) states such ties here through its
 * comparedAs.
 */

/**
 * `list` with the elements `tied` picks put in one order (by `key`) in the positions they hold:
 * applied alike to the model's answer and the database's, every order of them compares equal,
 * while where they stand among the others (newest first, say) still counts.
 */
export function tiedInAnyOrder<T>(list: readonly T[], tied: (item: T) => boolean, key: (item: T) => string): T[] {
  const slots = list.flatMap((item, i) => (tied(item) ? [i] : []));
  const canonical = slots.map((i) => list[i]).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const out = [...list];
  slots.forEach((slot, j) => (out[slot] = canonical[j]));
  return out;
}
