import { loadMigrationFolder } from '/work/main/harness/db/migrations.ts';
import { BUNDLED_MIGRATIONS } from '/work/main/harness/cli/paths.ts';
import { loadMutants } from '/work/main/harness/mutants/mutant-files.ts';
import { openEnvironment } from '/work/main/harness/runner/environment.ts';
import { runDataProperty } from '/work/main/harness/runner/run-data-property.ts';
import { startDatabaseServer } from '/work/main/harness/db/providers/index.ts';
import { defaultSettings } from '/work/main/model/settings.ts';
import { dataProperties } from '/work/main/properties/index.ts';
const dir = process.argv[2]; const pid = process.argv[3] ?? 'R14';
const server = await startDatabaseServer({});
const migrations = loadMigrationFolder(BUNDLED_MIGRATIONS);
const prop = dataProperties.find((p) => p.id === pid)!;
for (const m of loadMutants(dir)) {
  const env = await openEnvironment({ server, migrations, extra: [m.file], workers: 1 });
  const out: string[] = [];
  for (const seed of [1, 2, 3, 4, 5]) {
    const t = Date.now();
    const r = await runDataProperty(env, prop, { seed, runs: 300, settings: defaultSettings });
    out.push(`${r.status === 'failed' ? 'K' : 's'}@${r.cases}/${Date.now() - t}ms`);
  }
  console.log(m.name, out.join(' '));
  await env.close();
}
await server.stop(); process.exit(0);
