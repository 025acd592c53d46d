/**
 * One Postgres server for the whole test run (the provider chain, as a user would get it);
 * each test file builds its own scratch databases on it.
 */
import type { TestProject } from 'vitest/node';
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { sweepDeadTempDirs } from './temp-dir.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /** The server was started for this test run (not one named by DATABASE_URL): DatabaseServer.ownsServer. */
    databaseStartedForRun: boolean;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  sweepDeadTempDirs();
  const server = await startDatabaseServer({ log: (line) => console.log(`[test database] ${line}`) });
  project.provide('databaseUrl', server.adminUrl);
  project.provide('databaseStartedForRun', server.ownsServer);
  return () => server.stop();
}
