/**
 * Migration tools that keep a migration's rollback in the same file, behind a marker comment:
 * goose (`-- +goose Up` … `-- +goose Down`), sql-migrate (`-- +migrate Up` / `-- +migrate Down`)
 * and dbmate (`-- migrate:up` / `-- migrate:down`). Applied whole, such a file undoes itself: its
 * Down section drops the column or table its Up section made, mostly `if exists`, so silently
 * (e2b-dev/infra's 131 goose files). Only the Up sections are applied; each tool's "no
 * transaction" annotation (for `create index concurrently`) is honoured too.
 */

/** A marker line opening an Up section, with its tool's no-transaction option if given. */
const UP_MARKER = /^\s*--\s*(?:\+goose\s+up|\+migrate\s+up|migrate:up)\b(.*)$/i;
const DOWN_MARKER = /^\s*--\s*(?:\+goose\s+down|\+migrate\s+down|migrate:down)\b/i;
/** goose's file-wide `-- +goose NO TRANSACTION`; sql-migrate's `notransaction` and dbmate's `transaction:false` on the Up marker. */
const GOOSE_NO_TRANSACTION = /^\s*--\s*\+goose\s+no\s+transaction\s*$/im;
const NO_TRANSACTION_OPTION = /\bnotransaction\b|\btransaction\s*:\s*false\b/i;

export interface UpSection {
  /** The file with every Down section blanked out, line for line (errors keep naming the file's own lines). */
  sql: string;
  /** False where the tool is told to run the file outside a transaction. */
  transaction: boolean;
}

/** True when the file carries a goose, sql-migrate or dbmate marker: that tool decides how it applies. */
export function marksItsTool(sql: string): boolean {
  return sql.split('\n').some((line) => UP_MARKER.test(line) || DOWN_MARKER.test(line));
}

/** The part of a migration file its tool applies going up (the whole file when it has no marker). */
export function upSectionOf(sql: string): UpSection {
  const lines = sql.split('\n');
  if (!marksItsTool(sql)) return { sql, transaction: true };
  let down = false;
  let transaction = !GOOSE_NO_TRANSACTION.test(sql);
  const kept = lines.map((line) => {
    const up = UP_MARKER.exec(line);
    if (up) {
      down = false;
      if (NO_TRANSACTION_OPTION.test(up[1] ?? '')) transaction = false;
    } else if (DOWN_MARKER.test(line)) down = true;
    return down ? '' : line;
  });
  return { sql: kept.join('\n'), transaction };
}
