/** The test run's shared Postgres server, for test files. */
import { inject } from 'vitest';
import { connectExplicitServer } from '../engine/db/providers/explicit.ts';
import type { DatabaseServer } from '../engine/db/providers/server.ts';

export async function sharedServer(): Promise<DatabaseServer> {
  const server = await connectExplicitServer(inject('databaseUrl'));
  return { ...server, description: 'shared test server' };
}
