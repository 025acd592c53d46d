/**
 * Several statements in one round trip (the simple query protocol), keeping what each completed
 * statement answered even when a later one fails: a case's fixtures and requests travel together,
 * and a failure is pinned to the statement that raised it. Values stay as the text Postgres sent
 * (no type parsing): the executor reads only counts and JSON text.
 *
 * It is a pg "Submittable" (the hook pg-cursor and pg-query-stream use): pg hands it the
 * protocol messages of its turn on the connection.
 */
import pg from 'pg';

/** One completed statement: its command tag (`SAVEPOINT`, `SELECT 1`…) and its rows as text. */
export interface CompletedStatement {
  command: string;
  rows: (string | null)[][];
}

/**
 * What a batch did: the statements that completed, in order, and the database's error if one
 * refused (the statements after it never ran). A failure is an answer here, not an exception.
 */
export interface BatchResult {
  completed: CompletedStatement[];
  error?: pg.DatabaseError;
  /** PREPAREs that completed: not in `completed`, so a prepared request counts as its one statement (prepared-statements.ts). */
  prepared: number;
}

export class BatchQuery {
  private readonly completed: CompletedStatement[] = [];
  private rows: (string | null)[][] = [];
  private prepared = 0;
  private failed = false;
  readonly done: Promise<BatchResult>;
  private settle!: { resolve: (r: BatchResult) => void; reject: (e: unknown) => void };

  constructor(readonly text: string) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  submit(connection: pg.Connection): void {
    connection.query(this.text);
  }

  handleRowDescription(): void {
    this.rows = [];
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    this.rows.push(msg.fields);
  }

  handleCommandComplete(msg: { text: string }): void {
    if (msg.text === 'PREPARE') {
      this.prepared++;
      return;
    }
    this.completed.push({ command: msg.text, rows: this.rows });
    this.rows = [];
  }

  handleEmptyQuery(): void {}

  handleError(error: Error): void {
    // pg calls this for a database error (ReadyForQuery follows, with no active query) and for a
    // dead connection (nothing follows): settle now either way.
    this.failed = true;
    if (error instanceof pg.DatabaseError) this.settle.resolve({ completed: this.completed, error, prepared: this.prepared });
    else this.settle.reject(error);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.settle.resolve({ completed: this.completed, prepared: this.prepared });
  }

  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/**
 * Sends `sql` (statements separated by `;`) in one round trip. Resolves to what it did, a
 * database error included; rejects only when the connection itself fails.
 */
export function sendBatch(client: pg.Client, sql: string): Promise<BatchResult> {
  const query = new BatchQuery(sql);
  client.query(query as unknown as pg.Submittable);
  return query.done;
}
