// A light module: `fuzz --help` prints the legend without loading the console reporter.

/** What the count columns mean (the legend under the table; README and --help say the same). */
export const COUNTS_LEGEND = [
  'allowed, filtered, rejected, errored: requests sent, by what the model predicted for each:',
  '  allowed   succeeded: rows read, written or returned',
  '  filtered  succeeded, but row security left nothing visible or changed (0 rows, no error)',
  '  rejected  refused by a grant or policy (42501) or raised by a guard or function (P0001…)',
  '  errored   any other database error: a constraint (23…), bad input (22…), an unknown object',
  'cases: ran/planned when the time budget, an interrupt or early stop cut a property short',
  'dropped (when shown): cases drawn that this target cannot hold (a null in a NOT NULL column, a missing',
  '  foreign-key row, a unique collision): not run, not counted in cases; summary.json has them by reason',
];
