/**
 * Several statements in one message (the simple query protocol), keeping what each completed
 * statement answered even when a later one fails: a case's fixtures travel together, and a
 * failure is pinned to the statement that raised it. Values stay as the text Postgres sent (no
 * type parsing): the executor reads only counts and JSON text.
 *
 * The workers' connections run in pg's pipeline mode: a batch is written as soon as it is sent,
 * behind the ones still being answered, and the server answers them in order. Each batch is its
 * own Query message, so a failure ends only the rest of its own batch: the next one runs (in an
 * aborted transaction it is refused, unless it rolls back first). That is how a case's requests
 * and the lane's next case go out without waiting for the answers before them.
 *
 * It is a pg Query (pipeline mode accepts no other submittable): with text and no values, pg sends
 * it as one simple-protocol message and calls its handlers with the messages of its turn.
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

export class BatchQuery extends pg.Query {
  private readonly completed: CompletedStatement[] = [];
  private batchRows: (string | null)[][] = [];
  private preparedCount = 0;
  private failed = false;
  readonly done: Promise<BatchResult>;
  private settle!: { resolve: (r: BatchResult) => void; reject: (e: unknown) => void };

  constructor(text: string) {
    super(text);
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
  }

  handleRowDescription(): void {
    this.batchRows = [];
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    this.batchRows.push(msg.fields);
  }

  handleCommandComplete(msg: { text: string }): void {
    if (msg.text === 'PREPARE') {
      this.preparedCount++;
      return;
    }
    this.completed.push({ command: msg.text, rows: this.batchRows });
    this.batchRows = [];
  }

  handleEmptyQuery(): void {}

  handleError(error: Error): void {
    // pg calls this for a database error (ReadyForQuery follows) and for a dead connection
    // (nothing follows): settle now either way.
    this.failed = true;
    if (error instanceof pg.DatabaseError) this.settle.resolve({ completed: this.completed, error, prepared: this.preparedCount });
    else this.settle.reject(error);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.settle.resolve({ completed: this.completed, prepared: this.preparedCount });
  }

  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/**
 * Sends `sql` (statements separated by `;`) as one message. Resolves to what it did, a database
 * error included; rejects only when the connection itself fails. On a pipelined connection it is
 * written at once, behind the batches still being answered.
 */
export function sendBatch(client: pg.Client, sql: string): Promise<BatchResult> {
  const query = new BatchQuery(sql);
  client.query(query);
  return query.done;
}
