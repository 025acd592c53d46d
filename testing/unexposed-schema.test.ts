/**
 * Tables in a schema the API does not expose (teamkit), reached by clients only through
 * functions: with `mapping.tables.<t>.via: "sql"` their requests are sent as SQL under the
 * caller's role and claims, so a policy fault there is caught, and `mutants --auto` mutates their
 * policies; without it the rule is not applicable, the note naming the setting, and mutants --auto
 * says which policies it skipped. Through the real binary, on the shared server.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, inject, it } from 'vitest';
import { resolveTarget } from '../engine/config/target.ts';
import { openEnvironment } from '../engine/runner/environment.ts';
import type { ApiRequest } from '../engine/model/request.ts';
import { pgtapMissing, prove, withPgtap } from './pgtap.ts';
import { runCase } from './sql-environment.ts';
import { runBin } from './run-bin.ts';
import { sharedServer } from './shared-server.ts';
import { tempDir } from './temp-dir.ts';
import pack from './unexposed-schema/policyfuzz.pack.ts';

const run = promisify(execFile);

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

/** Each of two runs at once writes a report folder of its own (a folder in use refuses a second run). */
const options = (dir: string, reports = 'r') => ['--database-url', inject('databaseUrl'), '--seed', '4', '--runs', '100', '--workers', '1', '--no-replay', '--quiet', '--report-dir', path.join(dir, reports), '--failures-dir', path.join(dir, 'f')];

it('a policy fault on a table outside the API is caught through the SQL executor, and is out of reach without it (the note names the setting)', async () => {
  const { dir, broken, restConfig } = project();
  const [caught, unreached] = await Promise.all([
    runBin(['fuzz', '--pack', PACK, '--migrations', MIGRATIONS, broken, '--only', 'T01', ...options(dir)], { cwd: dir }),
    runBin(['fuzz', '--config', restConfig, '--only', 'T01', ...options(dir, 'r-rest').filter((o) => o !== '--quiet')], { cwd: dir }),
  ]);
  expect(caught.stdout, caught.stderr).toMatch(/^T01 FAILED: step 1: rows touched: model 0, database \d+\n {2}user [0-9a-f-]+ as SQL: SELECT \* FROM teamkit\.teams$/m);
  expect(caught.stdout).toMatch(/^ {2}request: {2}as SQL, not through the API: set role authenticated, request\.jwt\.claims <role=authenticated sub=[0-9a-f-]+>; SELECT \* FROM teamkit\.teams /m);
  expect(caught.stdout).not.toMatch(/rest\/v1/);
  expect(caught.code).toBe(1);
  await onADatabaseOfTheSameMigrations(path.join(dir, 'f'), broken);
  // Run again: the saved failure, replayed first, is still shown as sent (it showed a curl line to an endpoint that does not exist).
  const replayed = await runBin(['fuzz', '--pack', PACK, '--migrations', MIGRATIONS, broken, '--only', 'T01', ...options(dir).filter((o) => o !== '--no-replay' && o !== '--quiet')], { cwd: dir });
  expect(replayed.stdout, replayed.stderr).toMatch(/^replaying 1 saved failure\(s\) from /m);
  expect(replayed.stdout).toMatch(/^ {2}request: {2}as SQL, not through the API: set role authenticated, /m);
  expect(replayed.stdout).not.toMatch(/rest\/v1/);
  expect(unreached.stdout).toContain('T01 N/A: not applicable: the target has no teamkit.teams the API reaches (it is in schema teamkit, which the API does not expose: set mapping.tables.teamkit.teams.via to "sql"');
  expect(unreached.code).toBe(0);
});

/**
 * On a database built from the same migrations: the saved failure's .sql repro (psql) and
 * .pgtap.sql (pgTAP) run as written, with no error, naming the statement as SQL and no profile
 * header; the repro shows the leaked row, the pgTAP test fails (the bug is there). And the
 * function outside the API (`mapping.functions.<f>.via: "sql"`) is called as SQL under the
 * caller's role: a signed-in caller gets its answer, anon (no EXECUTE) a grant refusal.
 */
async function onADatabaseOfTheSameMigrations(failures: string, broken: string): Promise<void> {
  const base = path.join(failures, readdirSync(failures).find((f) => f.startsWith('T01-') && f.endsWith('.json'))!.replace(/\.json$/, ''));
  const [repro, pgtap] = [readFileSync(`${base}.sql`, 'utf8'), readFileSync(`${base}.pgtap.sql`, 'utf8')];
  for (const text of [repro, pgtap]) {
    expect(text).toMatch(/^-- {3}user [0-9a-f-]+ as SQL: SELECT \* FROM teamkit\.teams$/m);
    expect(text).not.toMatch(/rest\/v1|profile/);
  }
  const target = await resolveTarget(pack, { migrations: [MIGRATIONS, broken], explicitMigrations: true });
  const env = await openEnvironment({ server: await sharedServer(), migrations: target.migrations, workers: 1, fixtures: target.fixtures, api: target.api });
  try {
    const call: ApiRequest = { kind: 'rpc', schema: 'teamkit', fn: 'has_role_on_team', args: { p_team: '00000000-0000-4000-8000-000000000000' } };
    const [user, visitor] = await runCase(env, [], [{ caller: { kind: 'user', id: '00000000-0000-4000-8000-000000000001' }, request: call }, { caller: { kind: 'anon' }, request: call }]);
    expect(user).toMatchObject({ status: 200, body: false });
    expect(visitor.error).toMatchObject({ code: '42501' });
    const url = await withPgtapIfThere(env);
    const psql = await run('psql', ['-X', '-d', url, '-v', 'ON_ERROR_STOP=1', '-f', `${base}.sql`]);
    expect(psql.stderr).not.toMatch(/ERROR/);
    expect(psql.stdout).toMatch(/team 0/);
    if (pgtapMissing()) return;
    const proved = await prove(url, `${base}.pgtap.sql`);
    expect(proved.ok).toBe(false);
    expect(proved.tap).toMatch(/^not ok \d+ - step 1: user [0-9a-f-]+ as SQL: SELECT \* FROM teamkit\.teams/m);
  } finally {
    await env.close();
  }
}

/** The environment's worker database, with pgTAP loaded when this machine has it. */
async function withPgtapIfThere(env: Awaited<ReturnType<typeof openEnvironment>>): Promise<string> {
  if (!pgtapMissing()) return withPgtap(env);
  await env.workers[0].tx.flush();
  const url = new URL(env.template.url);
  url.pathname = `/${env.workers[0].client.database}`;
  return url.toString();
}

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
  // Storage is exposed by its config.toml, yet Supabase's own and named by no property: the project's policy there is named, not mutated.
  expect(viaSql.stdout.match(/^skipped .*$/gm)).toEqual([
    "skipped 1 policy of storage.objects: schema storage is Supabase's own, reached through its Storage, Realtime or Auth APIs, and no property names storage.objects; to mutate its policies, model the table in the pack and name it in a property (the config exposes storage: its requests go through the API)",
  ]);
  expect(viaSql.stdout).not.toMatch(/team-logos/);
  expect(viaSql.code).toBe(0);
  expect(viaRest.stdout, viaRest.stderr).toMatch(/^skipped 1 policy of teamkit\.teams: schema teamkit is not exposed to the API; set mapping\.tables\.<model table>\.via to "sql"/m);
  expect(viaRest.stdout).toMatch(/^skipped 2 policies of teamkit\.team_members: /m);
  expect(viaRest.stdout).toMatch(/^no automatic variant run, 0 equivalent not run$/m);
  expect(viaRest.code).toBe(0);
});
