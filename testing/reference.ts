/** The bundled reference database, opened on the test run's shared server. */
import { loadMigrationFolder, type MigrationFile } from '../engine/db/migrations.ts';
import { BUNDLED_MIGRATIONS } from '../cli/paths.ts';
import { openEnvironment, type Environment } from '../engine/runner/environment.ts';
import { sharedServer } from './shared-server.ts';

export async function referenceEnvironment(options: { workers?: number; extra?: MigrationFile[] } = {}): Promise<Environment> {
  return openEnvironment({ server: await sharedServer(), migrations: loadMigrationFolder(BUNDLED_MIGRATIONS), ...options });
}
