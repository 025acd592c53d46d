/** The bundled reference database, opened on the test run's shared server. */
import { loadMigrationFolder, type MigrationFile } from '../engine/db/migrations.ts';
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { openEnvironment, type Environment, type EnvironmentOptions } from '../engine/runner/environment.ts';
import { sharedServer } from './shared-server.ts';

/** `fixtures`: read the catalog and fit worlds to it, as for a project's own migrations. */
export async function referenceEnvironment(options: { workers?: number; extra?: MigrationFile[]; fixtures?: EnvironmentOptions['fixtures']; log?: EnvironmentOptions['log']; caseStatementTimeoutMs?: number } = {}): Promise<Environment> {
  return openEnvironment({ server: await sharedServer(), migrations: loadMigrationFolder(BUNDLED_MIGRATIONS), ...options });
}
