/**
 * Bad input through the real binary: a clear one-line message and exit 2 before anything runs,
 * never a stack trace, a silent "0 passed" or a false verdict.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { execFile } from 'node:child_process';
import { BIN, runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { BUNDLED_MIGRATIONS, POLICYFUZZ_VERSION, PROJECT_ROOT } from './paths.ts';
import { runSummary, propertySummary } from '../engine/report/summary.ts';
import { FAILURE_FORMAT, FAILURE_FORMAT_VERSION } from '../engine/failures/schema.ts';
import { escapeRegExp } from '../engine/regexp.ts';
import { loadMigrationFolder, migrationsDigest } from '../engine/db/migrations.ts';

const LONG_TESTS = process.env.POLICYFUZZ_LONG_TESTS === '1';

const noStackTrace = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

/** A saved data failure's record, as a file would hold it. */
const RECORD = {
  format: FAILURE_FORMAT,
  formatVersion: FAILURE_FORMAT_VERSION,
  area: 'data',
  seed: 1,
  path: '0',
  message: 'x',
  case: { world: {}, steps: [{ caller: { kind: 'anon' }, request: { kind: 'select', table: 'users', columns: '*', filters: [] } }] },
  step: 0,
  expected: null,
  actual: null,
  policyfuzzVersion: POLICYFUZZ_VERSION,
  migrationsDigest: null,
  migrations: null,
  foundAt: new Date().toISOString(),
};

describe('bad input, through bin/policyfuzz.mjs', () => {
  it('--version prints the version', async () => {
    const r = await runBin(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${POLICYFUZZ_VERSION}\n` });
  });

  it('a config naming an unknown rule: exit 2 with the known rules listed', async () => {
    const dir = tempDir('bad-config');
    const config = path.join(dir, 'policyfuzz.config.json');
    writeFileSync(config, JSON.stringify({ migrations: BUNDLED_MIGRATIONS, rules: { include: ['R02', 'R99'] } }));
    const r = await runBin(['fuzz', '--config', config, '--database-url', 'postgresql://nobody@127.0.0.1:1/x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^policyfuzz: .*policyfuzz\.config\.json: rules name R99, which this pack does not have \(known rules: R01, R02, .*R20, LINT01\)\n$/);
    expect(r.stdout).not.toMatch(/passed/);
  });

  it('merging 1 of 2 shards: exit 2 naming the missing shard, unless --allow-partial', async () => {
    const dir = tempDir('bad-merge');
    const summary = runSummary(
      [propertySummary({ id: 'R02', title: 'users', area: 'data', status: 'passed', cases: 10, counts: { allowed: 10 }, durationMs: 1, seed: 1 })],
      { policyfuzzVersion: POLICYFUZZ_VERSION, seed: 1, profile: 'pr', shard: { index: 1, count: 2 }, migrations: null, migrationsDigest: null, startedAt: new Date(), timeBudgetMs: null },
    );
    mkdirSync(path.join(dir, 'shard1'));
    writeFileSync(path.join(dir, 'shard1', 'summary.json'), JSON.stringify(summary));
    const refused = await runBin(['merge-reports', path.join(dir, 'shard1'), '--out', path.join(dir, 'merged')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('policyfuzz: 1 of 2 shards given (missing 2/2): the merged totals would not be the run\'s. Give every shard, or pass --allow-partial\n');
    const allowed = await runBin(['merge-reports', path.join(dir, 'shard1'), '--out', path.join(dir, 'merged'), '--allow-partial']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('warning: 1 of 2 shards given (missing 2/2); merging anyway (--allow-partial)');
  });

  it('--shard without --seed: exit 2 saying to pass one seed to every shard, before any server starts', async () => {
    // Each shard drew its own seed: the shards tested other cases, and the merge was no one run's.
    const r = await runBin(['fuzz', '--shard', '2/4', '--only', 'R02', '--no-sso', '--database-url', 'postgresql://nobody@127.0.0.1:1/x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('policyfuzz: --shard 2/4 needs --seed <n>, the same on every shard (e.g. --seed $GITHUB_RUN_NUMBER): with a seed of its own each shard would test other cases, and the merge would be no one run\'s\n');
    expect(r.stdout).toBe('');
  });

  it('merging shards of different seeds: exit 2 naming the seeds', async () => {
    const dir = tempDir('mixed-seeds');
    for (const [index, seed] of [[1, 5], [2, 6]]) {
      const summary = runSummary(
        [propertySummary({ id: 'R02', title: 'users', area: 'data', status: 'passed', cases: 10, counts: { allowed: 10 }, durationMs: 1, seed })],
        { policyfuzzVersion: POLICYFUZZ_VERSION, seed, profile: 'pr', shard: { index, count: 2 }, migrations: null, migrationsDigest: null, startedAt: new Date(), timeBudgetMs: null },
      );
      mkdirSync(path.join(dir, `shard${index}`));
      writeFileSync(path.join(dir, `shard${index}`, 'summary.json'), JSON.stringify(summary));
    }
    const r = await runBin(['merge-reports', path.join(dir, 'shard1'), path.join(dir, 'shard2'), '--out', path.join(dir, 'merged')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('policyfuzz: the inputs ran with different seeds (5, 6): merge the shards of one run (each run with the same --seed)\n');
  });

  it('merging shards of different profiles, migrations or policyfuzz versions: exit 2 naming what differs, nothing written', async () => {
    // Seen: shard 1/2 of pr (split by property, early stop) and 2/2 of nightly (split by lanes) merged
    // into "4 passed" with R02 at 28 of its 60 cases: no one run's verdicts.
    const cases: [string, Partial<Record<'profile' | 'migrationsDigest' | 'policyfuzzVersion', string>>, string][] = [
      ['profile', { profile: 'nightly' }, 'the inputs ran with different profiles (pr, nightly): merge the shards of one run (each with the same --profile)'],
      ['migrations', { migrationsDigest: 'bbbb' }, 'the inputs ran with different migrations (digests) (aaaa, bbbb): merge the shards of one run (each with the same migrations and pack)'],
      ['version', { policyfuzzVersion: '0.0.1' }, `the inputs ran with different policyfuzz versions (${POLICYFUZZ_VERSION}, 0.0.1): merge the shards of one run (each with the same policyfuzz)`],
    ];
    for (const [name, second, message] of cases) {
      const dir = tempDir(`mixed-${name}`);
      for (const index of [1, 2]) {
        const summary = runSummary(
          [propertySummary({ id: 'R02', title: 'users', area: 'data', status: 'passed', cases: 10, counts: { allowed: 10 }, durationMs: 1, seed: 5 })],
          { policyfuzzVersion: POLICYFUZZ_VERSION, seed: 5, profile: 'pr', shard: { index, count: 2 }, migrations: null, migrationsDigest: 'aaaa', startedAt: new Date(), timeBudgetMs: null, ...(index === 2 ? second : {}) },
        );
        mkdirSync(path.join(dir, `shard${index}`));
        writeFileSync(path.join(dir, `shard${index}`, 'summary.json'), JSON.stringify(summary));
      }
      const r = await runBin(['merge-reports', path.join(dir, 'shard1'), path.join(dir, 'shard2'), '--out', path.join(dir, 'merged')]);
      expect(r.code, name).toBe(2);
      expect(r.stderr).toBe(`policyfuzz: ${message}\n`);
      expect(existsSync(path.join(dir, 'merged', 'summary.json'))).toBe(false);
    }
  });

  it('mutants --auto --kind with an unknown kind: exit 2 listing the kinds, before any server starts; --kind or --run-uncovered without --auto: exit 2', async () => {
    const r = await runBin(['mutants', '--auto', '--kind', 'drop-conjunct', 'drop-everything', '--database-url', 'postgresql://nobody@127.0.0.1:1/x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('policyfuzz: --kind: unknown kind "drop-everything"; the kinds are drop-conjunct, always-true, drop-disjunct, widen-roles, disable-row-security, equality-to-ilike, drop-revoke, view-as-definer, allow-list-drop, function-drop-conjunct, if-guard\n');
    noStackTrace(r.stderr);
    const alone = await runBin(['mutants', '--kind', 'drop-conjunct', '--database-url', 'postgresql://nobody@127.0.0.1:1/x']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/^policyfuzz: --kind go(es)? with --auto/);
    // --run-uncovered likewise: hand-written mutants have no uncovered variants to run.
    const uncovered = await runBin(['mutants', '--run-uncovered', '--database-url', 'postgresql://nobody@127.0.0.1:1/x']);
    expect(uncovered.code).toBe(2);
    expect(uncovered.stderr).toMatch(/^policyfuzz: --run-uncovered go(es)? with --auto/);
  });

  it('--no-color is an option of every command (a wrapper passing it to all of them): accepted, never "unknown option"', async () => {
    const mutants = await runBin(['mutants', '--no-color', '--dir', path.join(tempDir('no-color'), 'missing')]);
    expect(mutants).toMatchObject({ code: 2, stderr: expect.stringMatching(/^policyfuzz: mutants folder not found: .*missing\n$/) });
    // The completion script lists each command's options: every command's includes --no-color.
    const completion = await runBin(['completion', 'bash', '--no-color']);
    expect(completion.code).toBe(0);
    const optionLists = [...completion.stdout.matchAll(/^\s+"([a-z -]+)(?: |\*)*"?\S*\) words="(--[^"]*)"/gm)].map((m) => ({ command: m[1].trim(), options: m[2].split(' ') }));
    expect(optionLists.map((l) => l.command)).toEqual(['fuzz', 'replay', 'diff', 'merge-reports', 'mutants', 'init', 'sso serve', 'sso check', 'cache clear']);
    for (const l of optionLists) expect(l.options, l.command).toContain('--no-color');
  });

  it('replay refuses a failure file relabelled to an unknown property', async () => {
    const dir = tempDir('bad-replay');
    const file = path.join(dir, 'R99-0123456789ab.json');
    const record = {
      ...RECORD,
      id: 'R99-0123456789ab',
      property: 'R99',
      title: 'relabelled',
    };
    writeFileSync(file, JSON.stringify(record));
    const r = await runBin(['replay', file, '--database-url', 'postgresql://nobody@127.0.0.1:1/x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^policyfuzz: .*R99-0123456789ab\.json names property "R99", which is not a data-layer property \(known: R01, .*\); was the file edited\?\n$/);
    noStackTrace(r.stderr);
  });

  it('replay refuses a failure file relabelled to another property (R02 → R19)', async () => {
    const dir = tempDir('relabelled');
    const file = path.join(dir, 'R02-0123456789ab.json');
    writeFileSync(file, JSON.stringify({ ...RECORD, id: 'R02-0123456789ab', property: 'R19', title: 'users: a non-staff owner cannot PATCH role' }));
    const r = await runBin(['replay', file, '--database-url', 'postgresql://nobody@127.0.0.1:1/x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`policyfuzz: ${file} was saved for another property than its "property" R19 (its id is R02-0123456789ab): set "property" back to R02, or replay the file as it was saved\n`);
  });

  it("replay of a failure whose migrations folder is here nowhere: exit 2 naming it and --migrations, never the pack's own migrations' FIXED; the bundled migrations stand in when they are the very ones (same digest)", async () => {
    // It fell back to the pack's own migrations and could say FIXED of a bug it never looked for.
    const dir = tempDir('replay-moved');
    const gone = path.join(dir, 'gone', 'supabase', 'migrations');
    const file = path.join(dir, 'R02-0123456789ab.json');
    const saved = { ...RECORD, id: 'R02-0123456789ab', property: 'R02', title: 'users', target: { config: null, migrations: gone, savedIn: path.join(dir, 'elsewhere') } };
    writeFileSync(file, JSON.stringify({ ...saved, migrationsDigest: '0123456789abcdef' }));
    const other = await runBin(['replay', file, '--database-url', inject('databaseUrl')]);
    expect(other.code).toBe(2);
    const bundled = migrationsDigest(loadMigrationFolder(BUNDLED_MIGRATIONS));
    // The binary's bundled migrations lie under dist/ in the package.
    expect(other.stderr).toMatch(new RegExp(`^policyfuzz: this failure was found on the migrations in ${escapeRegExp(gone)}, not here \\(nor where they lay relative to the failure file\\), and (dist/)?packs/reference/migrations holds other migrations \\(digest 0123456789abcdef then, ${bundled} here\\): replay it with --migrations <that folder>\n$`));
    expect(other.stdout).not.toMatch(/FIXED/);
    // Found on the bundled reference from another checkout: its own digest, replayed on it.
    writeFileSync(file, JSON.stringify({ ...saved, migrationsDigest: bundled }));
    const same = await runBin(['replay', file, '--times', '1', '--database-url', inject('databaseUrl')]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(/migrations (dist\/)?packs\/reference\/migrations/);
    expect(same.stdout).toMatch(/\nFIXED \(1 clean replays\)/);
  }, 120_000);

  const NO_DB = ['--database-url', 'postgresql://nobody@127.0.0.1:1/x'];
  it('a POLICYFUZZ_SLOWDOWN that is not a number ≥ 1 (it was silently ignored): exit 2, one line, nothing run', async () => {
    const r = await runBin(['fuzz', '--only', 'R02,S01', ...NO_DB], { env: { ...process.env, POLICYFUZZ_SLOWDOWN: 'fast' } });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toBe('policyfuzz: POLICYFUZZ_SLOWDOWN: "fast" is not a number ≥ 1 (how many times slower than calibrated the SSO half runs); unset it to follow the load average\n');
    expect(r.stdout).not.toMatch(/ready in|passed/);
  });
  const refused: Array<[string, string[], RegExp]> = [
    ['--exclude R99, like --only R99', ['fuzz', '--exclude', 'R99', ...NO_DB], /^policyfuzz: --exclude: no property R99 \(known: R01, .*S20\)\n$/],
    ['--sso with --no-sso', ['fuzz', '--only', 'R02', '--sso', '--no-sso', ...NO_DB], /^policyfuzz: --sso and --no-sso contradict each other: give one\n$/],
    ['a mistyped command', ['fuzzz'], /^policyfuzz: unknown command "fuzzz": did you mean `policyfuzz fuzz`\? commands: fuzz, replay, .*\n$/],
    ['a missing --sso-config, before the data half', ['fuzz', '--only', 'R02,S01', '--sso-config', '/missing/sso.json', ...NO_DB], /^policyfuzz: --sso-config: cannot read SSO config \/missing\/sso\.json: ENOENT\n$/],
    ['sso check against a target that does not answer', ['sso', 'check', '--web', 'http://127.0.0.1:1', '--api', 'http://127.0.0.1:1', '--config', path.join(PROJECT_ROOT, 'sso/examples/sso.config.json'), '--runs', '1'], /^error: GET http:\/\/127\.0\.0\.1:1\/login: connection refused \(ECONNREFUSED\)/],
  ];
  for (const [what, args, message] of refused) {
    it(`${what}: exit 2, one line, nothing run`, async () => {
      const r = await runBin(args);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      noStackTrace(r.stderr);
      expect(r.stdout).not.toMatch(/ready in|passed/);
    });
  }

  it('a migration file name that is not UTF-8: exit 2 naming it and how to rename it', async () => {
    const dir = tempDir('not-utf8');
    writeFileSync(path.join(dir, '0001_ok.sql'), 'select 1;');
    writeFileSync(Buffer.from(path.join(dir, '0002_caf\xe9.sql'), 'latin1'), 'select 1;');
    const r = await runBin(['fuzz', '--migrations', dir, '--only', 'R02', '--no-sso', ...NO_DB]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`policyfuzz: a migration file name in ${dir} is not UTF-8 ("0002_café.sql" read as Latin-1): rename it to UTF-8, e.g. with \`convmv -f latin1 -t utf8 --notest\`\n`);
  });

  it('a migrations folder whose name is not UTF-8: exit 2 saying so and how to rename it', async () => {
    const parent = tempDir('not-utf8-folder');
    const folder = Buffer.concat([Buffer.from(`${parent}/d`), Buffer.from([0xe9])]);
    mkdirSync(folder);
    writeFileSync(Buffer.concat([folder, Buffer.from('/0001_ok.sql')]), 'select 1;');
    // Node passes arguments as UTF-8: a shell's printf hands the child the raw byte, as a user's shell would.
    const args = ['fuzz', '--only', 'R02', '--no-sso', ...NO_DB].map((a) => `'${a}'`).join(' ');
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile('/bin/sh', ['-c', `exec "${process.execPath}" "${BIN}" ${args} --migrations "$(printf '${parent}/d\\351')"`], (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr })),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`policyfuzz: migrations folder not found: ${parent}/d\uFFFD (its name is not UTF-8: the � stands for bytes that are not; rename the folder to UTF-8, e.g. with \`convmv -f latin1 -t utf8 --notest\`)\n`);
  });

  it('summary.json and merge-reports count N/A apart from passed', async () => {
    // A target with the users table only: R02 runs, R04 (the shop) is not applicable.
    const dir = tempDir('na');
    const migrations = path.join(dir, 'migrations');
    mkdirSync(migrations);
    for (const f of ['0001_private_helpers.sql', '0100_users.sql']) writeFileSync(path.join(migrations, f), readFileSync(path.join(BUNDLED_MIGRATIONS, f)));
    const reports = path.join(dir, 'reports');
    const r = await runBin(['fuzz', '--migrations', migrations, '--only', 'R02,R04', '--runs', '20', '--seed', '3', '--no-sso', '--no-replay', '--no-color', '--database-url', inject('databaseUrl'), '--report-dir', reports, '--failures-dir', path.join(dir, 'f')]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 1 not applicable (seed 3)');
    const summary = JSON.parse(readFileSync(path.join(reports, 'summary.json'), 'utf8')) as { totals: { passed: number; notApplicable: number }; properties: { id: string; status: string }[] };
    expect(summary.properties.map((p) => `${p.id} ${p.status}`)).toEqual(['R02 passed', 'R04 not-applicable']);
    expect(summary.totals).toMatchObject({ passed: 1, notApplicable: 1 });
    const merged = await runBin(['merge-reports', reports, '--out', path.join(dir, 'merged')]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 1 not applicable (seed 3)');
  });

  it('a config {} says migrations is required and what it takes', async () => {
    const dir = tempDir('empty-config');
    const config = path.join(dir, 'policyfuzz.config.json');
    writeFileSync(config, '{}');
    const r = await runBin(['fuzz', '--config', config, ...NO_DB]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`policyfuzz: ${config} is not a valid policyfuzz config:\n  migrations: required: the folder of .sql migrations (a path relative to the config, or a list of them), e.g. "supabase/migrations"\n`);
  });

  it('an empty rules.include (it ran no rule and said "passed"): exit 2 naming the key and the fix', async () => {
    const dir = tempDir('empty-include');
    const config = path.join(dir, 'policyfuzz.config.json');
    writeFileSync(config, JSON.stringify({ migrations: 'supabase/migrations', rules: { include: [] } }));
    const r = await runBin(['fuzz', '--config', config, ...NO_DB]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`policyfuzz: ${config} is not a valid policyfuzz config:\n  rules.include: an empty list runs no rule of the pack; leave the key out to run every rule\n`);
  });

  it('a postgrest.maxRows that is not a whole number of rows: exit 2 naming the key and what it takes', async () => {
    const dir = tempDir('bad-max-rows');
    const config = path.join(dir, 'policyfuzz.config.json');
    writeFileSync(config, JSON.stringify({ migrations: 'supabase/migrations', postgrest: { maxRows: 0 } }));
    const r = await runBin(['fuzz', '--config', config, ...NO_DB]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`policyfuzz: ${config} is not a valid policyfuzz config:\n  postgrest.maxRows: db-max-rows: a whole number of rows, e.g. 1000\n`);
  });

  for (const option of ['--report-dir', '--failures-dir']) {
    it(`an unwritable ${option}: exit 2 before the run starts`, async () => {
      const dir = tempDir('bad-folder');
      const file = path.join(dir, 'a-file');
      writeFileSync(file, 'not a folder');
      const r = await runBin(['fuzz', '--only', 'R02', '--runs', '5', option, path.join(file, 'reports'), '--database-url', 'postgresql://nobody@127.0.0.1:1/x']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`policyfuzz: ${option} ${path.join(file, 'reports')} cannot be written: ${file} is a file, not a folder. Choose another folder with ${option}\n`);
      // Checked before anything started: not even the unreachable database was tried.
      expect(r.stdout).not.toMatch(/ready in/);
    });
  }

  it('a report that cannot be written when the run ends: the verdict line still prints, then exit 2 with what to change', async () => {
    const dir = tempDir('unwritable-report');
    const reports = path.join(dir, 'reports');
    mkdirSync(path.join(reports, 'summary.json'), { recursive: true }); // a folder where the file goes
    const r = await runBin(['fuzz', '--only', 'R02', '--runs', '20', '--seed', '1', '--no-replay', '--report-dir', reports, '--failures-dir', path.join(dir, 'f'), '--database-url', inject('databaseUrl')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/\nreports: not written \(EISDIR[^\n]*summary\.json'\)\n\n1 passed, 0 failed \(seed 1\)\n$/);
    expect(r.stderr).toContain(`policyfuzz: the reports could not be written to ${reports}: EISDIR`);
    expect(r.stderr).toMatch(/Free that path or choose another folder with --report-dir\n$/);
    noStackTrace(r.stderr);
  });

  it('init, then its unedited config on a project with other role names: a harness error naming the CHECK, never a FAIL', async () => {
    const dir = tempDir('bad-init');
    const config = path.join(dir, 'policyfuzz.config.json');
    const db = ['--database-url', inject('databaseUrl')];
    const init = await runBin(['init', '--migrations', path.join(PROJECT_ROOT, 'examples/campus-shop/supabase/migrations'), '--out', config, ...db]);
    expect(init.code).toBe(0);
    // Every property of the unedited config, on seed 1; seeds 2 and 3 are long fuzzing (`npm run test:long`).
    for (const seed of LONG_TESTS ? ['1', '2', '3'] : ['1']) {
      const r = await runBin(['fuzz', '--config', config, '--seed', seed, '--runs', '100', '--workers', '1', '--no-replay', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f'), ...db]);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toMatch(/\bFAIL/);
      // init reads who is staff and who handles the shop (is_shop_staff), but not in which statuses a
      // buyer may still edit (the reference's default names pending, which the CHECK does not have):
      // that gap is named on the properties the shop is in, never tested by a guess (R01, R04 failed
      // on the guess before).
      expect(r.stdout).toMatch(/R04 ERROR: harness error: the model's settings do not fit the schema: model\.shop\.buyerEditableStatuses names pending, which model\.shop\.statuses \(awaiting_payment, [^)]*\) does not have/);
      const summary = JSON.parse(readFileSync(path.join(dir, 'r', 'summary.json'), 'utf8')) as { properties: { id: string; status: string }[] };
      expect(summary.properties.map((p) => p.status)).not.toContain('failed');
    }
  });

  describe('a project pack that cannot be used: exit 2 naming the file and what to export', () => {
    const unreachable = ['--database-url', 'postgresql://nobody@127.0.0.1:1/x'];
    const HOW = "export default extendPack(referencePack, { name, mapping, … }) (or definePack({ … })), both from 'policyfuzz'";

    it('--pack naming no file', async () => {
      const r = await runBin(['fuzz', '--pack', 'nope/policyfuzz.pack.ts', ...unreachable]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: 'policyfuzz: pack module not found: nope/policyfuzz.pack.ts (--pack)\n' });
    });

    it('--pack naming a module that exports no pack', async () => {
      const dir = tempDir('bad-pack');
      const file = path.join(dir, 'not-a-pack.mjs');
      writeFileSync(file, 'export const answer = 42;\nexport default "a pack";\n');
      const r = await runBin(['fuzz', '--pack', file, ...unreachable]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: `policyfuzz: pack module ${file} (--pack) does not export a pack (it exports answer, default): ${HOW}\n` });
    });

    it('--pack naming a module whose default export is a pack with parts missing: names them', async () => {
      const dir = tempDir('bad-pack');
      const file = path.join(dir, 'half-a-pack.mjs');
      writeFileSync(file, 'export default { name: "half a pack", properties: [] };\n');
      const r = await runBin(['fuzz', '--pack', file, ...unreachable]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: `policyfuzz: pack module ${file} (--pack): its default export lacks model.tables, settingsSchema (a zod schema): ${HOW}\n` });
    });

    it('--pack naming a pack whose model column has a type the model does not know (int): names the column and the types', async () => {
      const dir = tempDir('bad-pack-type');
      const file = path.join(dir, 'int-id.mjs');
      writeFileSync(file, 'export default { name: "tasks", properties: [], settingsSchema: { safeParse: (v) => ({ success: true, data: v }) }, model: { fixtureOrder: [], tables: { tasks: { table: "tasks", primaryKey: ["id"], columns: [{ name: "id", type: "int", nullable: false }] } } } };\n');
      const r = await runBin(['fuzz', '--pack', file, ...unreachable]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: `policyfuzz: pack module ${file} (--pack): column tasks.id has type "int"; a model column is one of uuid, text, text[], boolean, integer, numeric, timestamptz, jsonb (an int or serial column is integer)\n` });
    });

    it('a .ts pack that does not compile: its loading error, one line', async () => {
      const dir = tempDir('bad-pack-ts');
      const file = path.join(dir, 'broken.pack.ts');
      writeFileSync(file, 'export default extendPack(referencePack, {\n');
      const r = await runBin(['fuzz', '--pack', file, ...unreachable]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^policyfuzz: pack module ${escapeRegExp(file)} \\(--pack\\) could not be loaded: .+\n$`));
      noStackTrace(r.stderr);
    });

    it('a pack in a CommonJS project without policyfuzz installed (npx policyfuzz) loads, as .ts, .mts and .cts', async () => {
      // A folder outside this repository: no node_modules/policyfuzz above it, and a package.json
      // without "type": "module". Before, the .ts pack failed ("Cannot require() ES Module"), the
      // hint named .mts, and .mts was refused.
      const dir = tempDir('cjs-project');
      writeFileSync(path.join(dir, 'package.json'), '{"name":"my-app","type":"commonjs"}');
      const source = [
        "import { definePack, defineProperty, defineTable, fc, z } from 'policyfuzz';",
        "const notes = defineTable({ table: 'notes', primaryKey: ['id'], rowSecurity: true,",
        "  columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'owner_id', type: 'uuid', nullable: false }, { name: 'body', type: 'text', nullable: false, default: '' }, { name: 'is_public', type: 'boolean', nullable: false, default: false }],",
        "  grants: { anon: [], authenticated: ['select', 'insert', 'update', 'delete'] }, rules: {} });",
        "const N01 = defineProperty({ id: 'N01', rule: 1, title: 'the server reads the notes', tables: ['notes'],",
        "  cases: () => fc.constant({ world: {}, steps: [{ caller: { kind: 'service' as const }, request: { kind: 'select' as const, table: 'notes', columns: '*' as const, filters: [] } }] }) });",
        "export default definePack({ name: 'cjs-app', model: { tables: { notes }, functions: {}, fixtureOrder: ['auth.users', 'notes'] }, settingsSchema: z.object({}).strict(), properties: [N01] });",
      ].join('\n');
      const migrations = path.join(PROJECT_ROOT, 'examples', 'notes-app', 'supabase', 'migrations');
      // The .ts pack runs on the database; the .mts and .cts ones, loaded the same way, stop at an
      // unreachable one: the pack is loaded before any server is reached, so that message proves it
      // loaded (a run each proved nothing more, for a template clone and a run of their own).
      for (const name of ['policyfuzz.pack.ts', 'policyfuzz.pack.mts', 'policyfuzz.pack.cts']) {
        writeFileSync(path.join(dir, name), source);
        const runs = name.endsWith('.ts');
        const r = await runBin(['fuzz', '--pack', name, '--migrations', migrations, '--runs', '3', '--no-replay', '--failures-dir', path.join(dir, 'f'), '--report-dir', path.join(dir, 'r'), '--database-url', runs ? inject('databaseUrl') : 'postgresql://nobody@127.0.0.1:1/x'], { cwd: dir });
        if (runs) expect({ name, code: r.code, stderr: r.stderr }).toEqual({ name, code: 0, stderr: expect.not.stringContaining('could not be loaded') });
        else expect({ name, code: r.code, stderr: r.stderr }).toEqual({ name, code: 2, stderr: expect.stringMatching(/^policyfuzz: cannot reach the database at postgresql:\/\/nobody@127\.0\.0\.1:1\/x: /) });
      }
    });

    it('a config whose "pack" names no file', async () => {
      const dir = tempDir('bad-config-pack');
      const config = path.join(dir, 'policyfuzz.config.json');
      writeFileSync(config, JSON.stringify({ pack: './policyfuzz.pack.ts', migrations: BUNDLED_MIGRATIONS }));
      const r = await runBin(['fuzz', '--config', config, ...unreachable]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: `policyfuzz: pack module not found: ${path.join(dir, 'policyfuzz.pack.ts')} ("pack" in ${config})\n` });
    });

    it('--config with --migrations (the config\'s folders won without a word: a migration added on the command line went untested): exit 2 naming both', async () => {
      const dir = tempDir('config-and-migrations');
      const config = path.join(dir, 'policyfuzz.config.json');
      writeFileSync(config, JSON.stringify({ migrations: BUNDLED_MIGRATIONS }));
      const r = await runBin(['fuzz', '--config', config, '--migrations', BUNDLED_MIGRATIONS, ...unreachable]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: 'policyfuzz: --config and --migrations both name the migrations: give one (the config lists its folders under "migrations"; other folders with its pack: --pack <its pack> --migrations <dirs…>)\n' });
    });

    it('--only naming a property of the pack a config here names, under --migrations (which reads no config): the message says the config was not read', async () => {
      const dir = tempDir('migrations-unread-config');
      writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify({ pack: './policyfuzz.pack.ts', migrations: BUNDLED_MIGRATIONS }));
      const r = await runBin(['fuzz', '--migrations', BUNDLED_MIGRATIONS, '--only', 'A03', ...unreachable], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^policyfuzz: no data-layer property A03 \(known: R01, .*\); policyfuzz.config.json here was not read \(--migrations runs without a config\): run its pack with --pack <its pack>, or drop --migrations\n$/);
    });

    it('--reference with a project target', async () => {
      const r = await runBin(['fuzz', '--reference', '--migrations', BUNDLED_MIGRATIONS, ...unreachable]);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: 'policyfuzz: --reference runs the bundled reference database; it cannot go with --migrations\n' });
    });
  });
});
