/**
 * Batches on a pipelined connection, against real Postgres: written without waiting, answered in
 * order, a failure confined to its own batch, and the connection usable for plain queries after.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../../testing/shared-server.ts';
import { sendBatch } from './batch-query.ts';

let client: pg.Client;

beforeAll(async () => {
  const server = await sharedServer();
  client = new pg.Client({ connectionString: server.adminUrl, pipeline: true });
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

describe('sendBatch on a pipelined connection', () => {
  it('writes every batch at once and answers each in order, with its statements', async () => {
    const stream = (client as unknown as { connection: { stream: { bytesWritten: number } } }).connection.stream;
    const before = stream.bytesWritten;
    const texts = [`select 1; select 'a' union all select 'b'`, `select 2`];
    const first = sendBatch(client, texts[0]);
    const second = sendBatch(client, texts[1]);
    // Both Query messages (type byte, length, text, NUL) are written before either is answered.
    expect(stream.bytesWritten - before).toBe(texts.reduce((n, t) => n + 1 + 4 + t.length + 1, 0));
    const [a, b] = await Promise.all([first, second]);
    expect(a.completed.map((c) => c.rows)).toEqual([[['1']], [['a'], ['b']]]);
    expect(b.completed).toEqual([{ command: 'SELECT 1', rows: [['2']] }]);
  });

  it('confines a failure to its own batch: the next batch runs, in the aborted transaction only what rolls back', async () => {
    const batches = [
      sendBatch(client, `begin; savepoint s; select 1/0; select 'never'`),
      sendBatch(client, `select 'refused in an aborted transaction'`),
      sendBatch(client, `rollback to savepoint s; select 'after the rollback'`),
      sendBatch(client, `rollback`),
    ];
    const [failed, aborted, recovered, ended] = await Promise.all(batches);
    expect(failed.error?.code).toBe('22012');
    expect(failed.completed.map((c) => c.command)).toEqual(['BEGIN', 'SAVEPOINT']);
    expect(aborted.error?.code).toBe('25P02');
    expect(recovered.error).toBeUndefined();
    expect(recovered.completed.at(-1)?.rows).toEqual([['after the rollback']]);
    expect(ended.error).toBeUndefined();
    // Plain queries share the pipeline.
    expect((await client.query('select 40 + 2 as n')).rows).toEqual([{ n: 42 }]);
  });

  it('counts the PREPAREs that ran apart from the statements', async () => {
    const r = await sendBatch(client, `prepare pf_batch_test as select $1::int + 1; execute pf_batch_test(1); deallocate pf_batch_test`);
    expect(r.prepared).toBe(1);
    expect(r.completed.map((c) => c.command)).toEqual(['SELECT 1', 'DEALLOCATE']);
  });
});
