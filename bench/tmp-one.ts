import { openEnvironment } from '../engine/runner/environment.ts';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
for (let i = 0; i < Number(process.argv[3] ?? 1); i++) {
  const env = await openEnvironment({ provider: 'local', migrations: loadMigrationFolder(process.argv[2]), workers: 1 });
  console.log(env.readyNote, JSON.stringify(env.startup));
  await env.close();
}
