/** A scratch database from one migration given as SQL, on the test run's shared server, and cases run on it. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import type { ApiResponse } from '../engine/executor/response.ts';
import type { FixtureStatement } from '../engine/target/fixtures.ts';
import type { Caller } from '../engine/model/caller.ts';
import type { ApiRequest } from '../engine/model/request.ts';
import { openEnvironment, type Environment, type EnvironmentOptions } from '../engine/runner/environment.ts';
import { sharedServer } from './shared-server.ts';
import { tempDir } from './temp-dir.ts';

/** `fixtures`: read the catalog and fit worlds to it, as for a project's own migrations; `more`: any other environment option (tokenAppMetadata, say). */
export async function sqlEnvironment(prefix: string, sql: string, fixtures?: EnvironmentOptions['fixtures'], more: Partial<Omit<EnvironmentOptions, 'server' | 'migrations' | 'fixtures'>> = {}): Promise<Environment> {
  const dir = tempDir(prefix);
  writeFileSync(path.join(dir, '0001_schema.sql'), sql);
  return openEnvironment({ ...more, server: await sharedServer(), migrations: loadMigrationFolder(dir), ...(fixtures ? { fixtures } : {}) });
}

/** One case on the first worker: the fixtures, then each request (planned at once), then rolled back; the answers in order. */
export async function runCase(env: Environment, fixtures: FixtureStatement[], steps: readonly { caller: Caller; request: ApiRequest }[]): Promise<ApiResponse[]> {
  const tx = env.workers[0].tx;
  await tx.begin(fixtures, undefined, steps);
  try {
    const out: ApiResponse[] = [];
    for (const { caller, request } of steps) out.push(await tx.send(caller, request));
    return out;
  } finally {
    await tx.end();
  }
}
