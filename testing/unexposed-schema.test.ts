/**
 * Tables in a schema the API does not expose (teamkit), reached by clients only through
 * functions: with `mapping.tables.<t>.via: "sql"` their requests are sent as SQL under the
 * caller's role and claims, so a policy fault there is caught, and `mutants --auto` mutates their
 * policies; without it the rule is not applicable, the note naming the setting, and mutants --auto
 * says which policies it skipped. Through the real binary, on the shared server.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, it } from 'vitest';
import { runBin } from './run-bin.ts';
import { tempDir } from './temp-dir.ts';

const HERE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'unexposed-schema');
const PACK = path.join(HERE, 'policyfuzz.pack.ts');
const MIGRATIONS = path.join(HERE, 'supabase', 'migrations');

/** The app's migrations plus the teams policy made `using (true)`, and a config that sends teamkit's tables through the API (`via: "rest"`). */
function project(): { dir: string; broken: string; restConfig: string } {
  const dir = tempDir('unexposed-schema');
  const broken = path.join(dir, 'broken');
  mkdirSync(broken);
  copyFileSync(path.join(HERE, 'mutants', 'T01-teams-readable-by-all.sql'), path.join(broken, '9999_t01.sql'));
  const restConfig = path.join(dir, 'rest.config.json');
  const rest = { via: 'rest' };
  writeFileSync(restConfig, JSON.stringify({ pack: PACK, migrations: [MIGRATIONS, broken], mapping: { tables: { 'teamkit.teams': rest, 'teamkit.team_members': rest } } }));
  return { dir, broken, restConfig };
}

const options = (dir: string) => ['--database-url', inject('databaseUrl'), '--seed', '4', '--runs', '100', '--workers', '1', '--no-replay', '--quiet', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')];

it('a policy fault on a table outside the API is caught through the SQL executor, and is out of reach without it (the note names the setting)', async () => {
  const { dir, broken, restConfig } = project();
  const [caught, unreached] = await Promise.all([
    runBin(['fuzz', '--pack', PACK, '--migrations', MIGRATIONS, broken, '--only', 'T01', ...options(dir)], { cwd: dir }),
    runBin(['fuzz', '--config', restConfig, '--only', 'T01', ...options(dir).filter((o) => o !== '--quiet')], { cwd: dir }),
  ]);
  expect(caught.stdout, caught.stderr).toMatch(/^T01 FAILED: step 1: rows touched: model 0, database \d+$/m);
  expect(caught.stdout).toMatch(/^ {2}request: {2}as SQL, not through the API: set role authenticated, request\.jwt\.claims <role=authenticated sub=[0-9a-f-]+>; GET teamkit\.teams /m);
  expect(caught.code).toBe(1);
  expect(unreached.stdout).toContain('T01 N/A: not applicable: the target has no teamkit.teams the API reaches (it is in schema teamkit, which the API does not expose: set mapping.tables.teamkit.teams.via to "sql"');
  expect(unreached.code).toBe(0);
});

it('mutants --auto mutates the policies of tables sent as SQL, and names the policies it skips when they are not', async () => {
  const { dir, restConfig } = project();
  const [viaSql, viaRest] = await Promise.all([
    runBin(['mutants', '--auto', '--pack', PACK, '--kind', 'always-true', '--runs', '60', '--database-url', inject('databaseUrl')], { cwd: dir }),
    runBin(['mutants', '--auto', '--config', restConfig, '--kind', 'always-true', '--runs', '60', '--database-url', inject('databaseUrl')], { cwd: dir }),
  ]);
  // T01…T03 hold on the unmutated target (none is left out as already failing): no false alarm through the SQL executor.
  expect(viaSql.stdout, viaSql.stderr).not.toContain('left out');
  expect(viaSql.stdout, viaSql.stderr).toMatch(/^killed +always-true-teams-teams-read-by-members-using by T01 in \d+ ms$/m);
  expect(viaSql.stdout).toMatch(/^killed +always-true-team-members-members-removed-by-owners-using by T02 in \d+ ms$/m);
  expect(viaSql.stdout).toMatch(/^3 of 3 automatic variants killed \(100%\), 0 equivalent not run$/m);
  // Storage is exposed by its config.toml, yet Supabase's own: the project's policy there is named, not mutated.
  expect(viaSql.stdout.match(/^skipped .*$/gm)).toEqual([
    "skipped 1 policy of storage.objects: schema storage is Supabase's own, reached through its Storage, Realtime or Auth APIs, which policyfuzz does not send requests to",
  ]);
  expect(viaSql.stdout).not.toMatch(/team-logos/);
  expect(viaSql.code).toBe(0);
  expect(viaRest.stdout, viaRest.stderr).toMatch(/^skipped 1 policy of teamkit\.teams: schema teamkit is not exposed to the API; set mapping\.tables\.<model table>\.via to "sql"/m);
  expect(viaRest.stdout).toMatch(/^skipped 2 policies of teamkit\.team_members: /m);
  expect(viaRest.stdout).toMatch(/^0 of 0 automatic variants killed/m);
  expect(viaRest.code).toBe(0);
});
