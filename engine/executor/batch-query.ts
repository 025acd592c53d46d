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

/** A statement of the batch failed: the database's error, and the statements completed before it. */
export class BatchError extends Error {
  constructor(
    readonly cause: pg.DatabaseError,
    readonly completed: CompletedStatement[],
  ) {
    super(cause.message);
    this.name = 'BatchError';
  }
}

export class BatchQuery {
  private readonly completed: CompletedStatement[] = [];
  private rows: (string | null)[][] = [];
  private failure: pg.DatabaseError | undefined;
  readonly done: Promise<CompletedStatement[]>;
  private settle!: { resolve: (s: CompletedStatement[]) => void; reject: (e: unknown) => void };

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
    this.completed.push({ command: msg.text, rows: this.rows });
    this.rows = [];
  }

  handleEmptyQuery(): void {}

  handleError(error: pg.DatabaseError): void {
    // pg calls this for a database error (ReadyForQuery follows, with no active query) and for a
    // dead connection (nothing follows): settle now either way.
    this.failure = error;
    this.settle.reject(error instanceof pg.DatabaseError ? new BatchError(error, this.completed) : error);
  }

  handleReadyForQuery(): void {
    if (!this.failure) this.settle.resolve(this.completed);
  }

  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/**
 * Sends `sql` (statements separated by `;`) in one round trip. Resolves to every statement's
 * answer; rejects with a BatchError (the database refused a statement: the ones before it
 * completed, the rest never ran) or the connection's own error.
 */
export function sendBatch(client: pg.Client, sql: string): Promise<CompletedStatement[]> {
  const query = new BatchQuery(sql);
  client.query(query as unknown as pg.Submittable);
  return query.done;
}
