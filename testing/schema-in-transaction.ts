/**
 * A client on the test run's shared server inside one transaction holding `sql`, rolled back after
 * the tests of the file or describe it is called in: a schema no other test sees, and nothing left.
 */
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

export function schemaInTransaction(sql: string): () => pg.Client {
  let client: pg.Client | undefined;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    await client.query('begin');
    await client.query(sql);
  });
  afterAll(async () => {
    await client?.query('rollback');
    await client?.end();
  });
  return () => {
    if (!client) throw new Error('schemaInTransaction: its client is used before its beforeAll ran');
    return client;
  };
}
