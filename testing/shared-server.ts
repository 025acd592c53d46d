/** The test run's shared Postgres server, for test files. */
import { inject } from 'vitest';
import { connectExplicitServer } from '../engine/db/providers/explicit.ts';
import type { DatabaseServer } from '../engine/db/providers/server.ts';

export async function sharedServer(): Promise<DatabaseServer> {
  const server = await connectExplicitServer(inject('databaseUrl'));
  // Started for this test run and stopped with it: its databases are copied as on any server
  // policyfuzz starts (file by file, databases.ts copyStrategy), not WAL-logged as on a lent one,
  // which cost ~60-100 ms more of Postgres CPU per database copied (a mutant's, a test file's).
  return { ...server, ownsServer: inject('databaseStartedForRun'), description: 'shared test server' };
}
