/**
 * A clean target stays green, through the real binary: the shipped profiles' request caps, sharded
 * runs merged, a connecting role that lacks what a run needs.
 */
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunSummary } from '../engine/report/summary.ts';
import { runBin, type BinRun } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { BUNDLED_MIGRATIONS, BUNDLED_MUTANTS, PROJECT_ROOT } from './paths.ts';
import { PROFILES } from './profiles.ts';
import { ssoPropertyIds } from './sso-integration.ts';
import { withApiRoleTimeouts } from '../engine/db/role-settings.ts';

const summaryOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

const LONG_TESTS = process.env.POLICYFUZZ_LONG_TESTS === '1';

// Long fuzzing (the nightly's 200 cases of each of 20 SSO properties, ~4 000 cases): `npm run test:long`.
// `npm test` runs every SSO property on the emulator at 15 cases (sso/properties/strict-emulator.test.ts).
describe.skipIf(!LONG_TESTS)('the nightly profile on the clean reference', () => {
  it("runs every SSO property at the nightly's cases under its request cap (seed 1 ran out at 20 000; 1-3 pass by hand)", async () => {
    // The data half's cases are shortened elsewhere; the SSO half here is the nightly's in full
    // (its cases and its cap), the half that ran out of requests.
    const only = (await ssoPropertyIds()).join(',');
    const dir = tempDir('nightly-sso');
    const r = await runBin(['fuzz', '--profile', 'nightly', '--only', only, '--seed', '1', '--no-replay', '--no-color', '--report-dir', dir, '--failures-dir', path.join(dir, 'f')]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(lastLine(r.stdout)).toBe('20 passed, 0 failed (seed 1)');
    expect(r.stdout).toContain(`${PROFILES.nightly.ssoRuns} runs each`);
  }, 300_000);
});

/**
 * Every data-layer property under seeds 1, 2 and 3 is long fuzzing (23 properties × 300 cases a
 * seed, about 45 s of node and Postgres CPU a seed): `npm run test:long` runs them (POLICYFUZZ_LONG_TESTS=1). Each
 * property's own test holds it at 300 cases with the same coverage gates (testing/property-holds.ts);
 * `npm test` runs the nightly's 4 lanes on the three whose clauses a lane's slice of the cases
 * most often misses (the sharded runs below split the same three).
 */
const NIGHTLY_SEEDS = LONG_TESTS ? [1, 2, 3] : [1];
const NIGHTLY_ONLY = LONG_TESTS ? [] : ['--only', 'R06,R09,R13'];

describe('the nightly profile on the clean reference, shortened, under three seeds', () => {
  it(`${LONG_TESTS ? 'every data-layer property passes' : 'R06, R09 and R13 pass'} at the nightly's workers, minimum and budget, the cases cut to pr's 300 (seeds ${NIGHTLY_SEEDS.join(', ')})`, async () => {
    // The SSO half's nightly in full is the test above; here the data half, whose coverage gates
    // and 4 worker lanes are the nightly's own. 300 cases is the least that meets every coverage
    // gate on seeds 1-3 (at 120, seed 3 misses a clause).
    const run = async (seed: number) => {
      const dir = tempDir(`nightly-${seed}`);
      const r = await runBin(['fuzz', '--profile', 'nightly', '--runs', '300', '--no-sso', ...NIGHTLY_ONLY, '--seed', String(seed), '--no-replay', '--no-color', '--database-url', inject('databaseUrl'), '--report-dir', dir, '--failures-dir', path.join(dir, 'f')]);
      return { ...r, summary: summaryOf(dir) };
    };
    for (const r of await Promise.all(NIGHTLY_SEEDS.map(run))) {
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/profile nightly, 300 runs per property, 4 worker\(s\), time budget 1800 s/);
      const statuses = r.summary.properties.map((p) => `${p.id} ${p.status}`);
      expect(statuses.filter((s) => !s.endsWith(' passed')), statuses.join(', ')).toEqual([]);
      if (LONG_TESTS) expect(statuses.length).toBeGreaterThanOrEqual(23);
      else expect(statuses).toEqual(['R06 passed', 'R09 passed', 'R13 passed']);
    }
  }, 300_000);
});

/**
 * 2 shards of 2 lanes each in `npm test`: lanes split across shards and workers within a shard, the
 * merge then the unsharded verdicts and counts. 4 shards of one lane each run the same split and
 * merge once more: 4 runs more (~20 s of node and Postgres CPU, measured): `npm run test:long`.
 */
const SHARD_COUNTS = LONG_TESTS ? [2, 4] : [2];

describe('a sharded run gives the verdicts of one machine', () => {
  it(`pr (shortened to its rarest clauses) split ${SHARD_COUNTS.join(' and ')} ways and merged: the unsharded verdicts and counts`, async () => {
    // R06, R09 and R13 have the clauses a slice of the cases misses; S01…S04 are split by position;
    // LINT01 is a catalog check (first shard only, one-sided: every lint refuses), never gated.
    // Four lanes in every run (4 workers, 2×2, 4×1): the same cases, however they are split. Without
    // early stop a shard takes its lanes of every property (with it, whole properties: the test below).
    const common = ['fuzz', '--profile', 'pr', '--no-early-stop', '--only', 'R06,R09,R13,LINT01,S01,S02,S03,S04', '--seed', '7', '--runs', '200', '--sso-runs', '10', '--no-replay', '--no-color', '--database-url', inject('databaseUrl')];
    const run = (extra: string[]) => {
      const dir = tempDir('shard');
      return runBin([...common, ...extra, '--report-dir', dir, '--failures-dir', path.join(dir, 'f')]).then((r) => ({ ...r, dir }));
    };
    const whole = await run(['--workers', '4']);
    expect(whole.code, whole.stdout + whole.stderr).toBe(0);
    // By id: a merged summary lists a property in id order, a run in the order it ran them.
    const verdicts = (s: RunSummary) => s.properties.map((p) => [p.id, p.status, p.cases, p.counts, p.clauses]).sort(([a], [b]) => String(a).localeCompare(String(b)));
    const expected = verdicts(summaryOf(whole.dir));
    expect(expected.map(([id, status]) => `${id} ${status}`)).toEqual(['LINT01:catalog passed', 'R06 passed', 'R09 passed', 'R13 passed', 'S01 passed', 'S02 passed', 'S03 passed', 'S04 passed']);
    for (const count of SHARD_COUNTS) {
      const shards = await Promise.all(Array.from({ length: count }, (_, i) => run(['--workers', String(4 / count), '--shard', `${i + 1}/${count}`])));
      for (const s of shards) {
        // A shard alone judges no coverage: it passes, and says where coverage is judged.
        expect(s.code, s.stdout + s.stderr).toBe(0);
        expect(summaryOf(s.dir).properties.filter((p) => p.area === 'data' && !p.id.endsWith(':catalog')).map((p) => p.note)).toEqual(['coverage is judged on the merged shards (merge-reports)', 'coverage is judged on the merged shards (merge-reports)', 'coverage is judged on the merged shards (merge-reports)']);
      }
      const out = tempDir('merged');
      const m = await runBin(['merge-reports', ...shards.map((s) => s.dir), '--out', out]);
      expect(m.code, m.stdout + m.stderr).toBe(0);
      expect(lastLine(m.stdout)).toBe('8 passed, 0 failed (seed 7)');
      const merged = summaryOf(out);
      expect(verdicts(merged)).toEqual(expected);
      expect(merged.properties.map((p) => p.note).filter((n) => n?.includes('coverage'))).toEqual([]);
    }
  }, 300_000);
});

describe('a sharded run on a mapped target gives the verdicts, notes and early stops of one machine', () => {
  it('examples/student-union (its config and pack: names mapped, parts of rules left out), pr with early stop, split 2 ways by property and merged: the unsharded verdicts, counts, notes and early stops', async () => {
    // Seen on it (seed 7, pr, 3 shards): the merged R07 and R14 lost one machine's 'ran without
    // the parts that need vs_tickets…' (a shard's note held only where coverage is judged).
    // Early stop judges a property on all its lanes: a shard runs whole properties, every lane, so
    // it stops R02 and R04 at 100 cases as one machine does (before, a shard ran with early stop off).
    const config = path.join(PROJECT_ROOT, 'examples', 'student-union', 'policyfuzz.config.json');
    const common = ['fuzz', '--config', config, '--only', 'R02,R04,R07,R14', '--seed', '7', '--runs', '200', '--workers', '2', '--no-replay', '--no-color', '--database-url', inject('databaseUrl')];
    const run = (extra: string[]) => {
      const dir = tempDir('mapped-shard');
      return runBin([...common, ...extra, '--report-dir', dir, '--failures-dir', path.join(dir, 'f')]).then((r) => ({ ...r, dir }));
    };
    const [whole, ...shards] = await Promise.all([run([]), ...[1, 2].map((i) => run(['--shard', `${i}/2`]))]);
    for (const r of [whole, ...shards]) expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(shards.map((s) => /shard \d\/2 \([^)]*\)/.exec(s.stdout)?.[0])).toEqual(['shard 1/2 (data-layer properties R02,R07, every lane; early stop as one machine)', 'shard 2/2 (data-layer properties R04,R14, every lane; early stop as one machine)']);
    const out = tempDir('mapped-merged');
    const m = await runBin(['merge-reports', ...shards.map((s) => s.dir), '--out', out]);
    expect(m.code, m.stdout + m.stderr).toBe(0);
    const verdicts = (s: RunSummary) => s.properties.map((p) => [p.id, p.status, p.cases, p.planned, p.counts, p.clauses, p.branches, p.dropped ?? null, p.stoppedEarly ?? null, p.note, p.failures.map((f) => f.id)]).sort(([a], [b]) => String(a).localeCompare(String(b)));
    const expected = verdicts(summaryOf(whole.dir));
    expect(expected.map(([id, status, cases, , , , , , , note]) => `${id} ${status} ${cases} ${String(note).slice(0, 44)}`)).toEqual([
      'R02 passed 100 stopped early at 100 of 200 cases: every cla',
      'R04 passed 100 stopped early at 100 of 200 cases: every cla',
      'R07 passed 200 ran without the parts that need vs_tickets, ',
      'R14 passed 200 ran without the parts that need vs_tickets, ',
    ]);
    expect(verdicts(summaryOf(out))).toEqual(expected);
    // Said under the table, by the run and by the merge alike.
    const early = (text: string) => text.split('\n').filter((l) => /^ {2}R\d\d {2}stopped early/.test(l));
    expect(early(m.stdout)).toEqual(early(whole.stdout));
    expect(early(m.stdout)).toHaveLength(2);
  }, 120_000);
});

// Long fuzzing (about 40 s of CPU): `npm run test:long`. The pr profile's sharded run above stays in `npm test`.
describe.skipIf(!LONG_TESTS)('a sharded nightly gives the verdicts of one machine', () => {
  it("nightly (shortened to its rarest clauses) in 2 shards at the profile's own 4 workers each, merged: the verdicts and counts of one 8-worker run", async () => {
    // As the nightly CI matrix runs it: each shard takes the profile's workers (no --workers), so
    // the unsharded run has the lanes of both (8).
    expect(PROFILES.nightly.workers).toBe(4);
    const common = ['fuzz', '--profile', 'nightly', '--only', 'R06,R09,R13,S01,S02,S03,S04', '--seed', '11', '--runs', '200', '--sso-runs', '10', '--no-replay', '--no-color', '--database-url', inject('databaseUrl')];
    const run = (extra: string[]) => {
      const dir = tempDir('nightly-shard');
      return runBin([...common, ...extra, '--report-dir', dir, '--failures-dir', path.join(dir, 'f')]).then((r) => ({ ...r, dir }));
    };
    const [whole, ...shards] = await Promise.all([run(['--workers', '8']), run(['--shard', '1/2']), run(['--shard', '2/2'])]);
    expect(whole.code, whole.stdout + whole.stderr).toBe(0);
    for (const s of shards) {
      expect(s.code, s.stdout + s.stderr).toBe(0);
      expect(s.stdout).toMatch(/profile nightly, 200 runs per property, 4 worker\(s\).*shard \d\/2 \(lanes \d…\d of 8\)/);
    }
    const verdicts = (s: RunSummary) => s.properties.map((p) => [p.id, p.status, p.cases, p.counts, p.clauses]);
    const expected = verdicts(summaryOf(whole.dir));
    expect(expected.map(([id, status]) => `${id} ${status}`)).toEqual(['R06 passed', 'R09 passed', 'R13 passed', 'S01 passed', 'S02 passed', 'S03 passed', 'S04 passed']);
    const out = tempDir('nightly-merged');
    const m = await runBin(['merge-reports', ...shards.map((s) => s.dir), '--out', out]);
    expect(m.code, m.stdout + m.stderr).toBe(0);
    expect(lastLine(m.stdout)).toBe('7 passed, 0 failed (seed 11)');
    expect(verdicts(summaryOf(out))).toEqual(expected);
  }, 300_000);
});

describe('a connecting role that lacks what a run needs', () => {
  // Roles of their own on the shared test server (which has the API roles), dropped at the end.
  const suffix = `${process.pid}`;
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  const created: string[] = [];
  const urlAs = (role: string) => {
    const u = new URL(inject('databaseUrl'));
    u.username = role;
    u.password = 'pf-test-secret';
    return u.toString();
  };
  const createRole = async (name: string, options: string, ...grants: string[]) => {
    await admin.query(`create role ${name} login password 'pf-test-secret' ${options}`);
    created.push(name);
    for (const g of grants) await admin.query(g.replaceAll('$ROLE', name));
    return name;
  };
  beforeAll(async () => {
    await admin.connect();
    // The API roles, as on a Supabase server (the same script a superuser run applies).
    await admin.query(withApiRoleTimeouts(readFileSync(path.join(PROJECT_ROOT, 'engine/db/supabase/roles.sql'), 'utf8')));
  });
  afterAll(async () => {
    // A run as the role may have kept its template on the shared server (a database the role owns):
    // handed to the admin first, or the role cannot be dropped.
    for (const r of created) await admin.query(`reassign owned by ${r} to current_user; drop owned by ${r}; drop role if exists ${r}`);
    await admin.end();
  });

  const fuzzAs = (role: string) => {
    const dir = tempDir('role');
    return runBin(['fuzz', '--only', 'R02', '--seed', '3', '--runs', '20', '--workers', '1', '--no-sso', '--no-replay', '--no-color', '--database-url', urlAs(role), '--report-dir', dir, '--failures-dir', path.join(dir, 'f')]).then((r) => ({ ...r, failures: path.join(dir, 'f') }));
  };
  const expectRefused = (r: BinRun & { failures: string }, message: RegExp) => {
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).not.toMatch(/FAIL/);
    expect(existsSync(r.failures) ? readdirSync(r.failures) : []).toEqual([]);
  };

  it('CREATEDB and CREATEROLE, not a member of the API roles: exit 2 naming the grant, no finding', async () => {
    const role = await createRole(`pf_t_admin_${suffix}`, 'createdb createrole');
    expectRefused(await fuzzAs(role), new RegExp(`^policyfuzz: role ${role} cannot SET ROLE to anon, authenticated, service_role, as every request does: as a superuser, run \`grant anon, authenticated, service_role to ${role}\``, 'm'));
  });

  it('LOGIN only, or read-only: exit 2 saying it cannot create databases and what to grant', async () => {
    const login = await createRole(`pf_t_login_${suffix}`, '');
    expectRefused(await fuzzAs(login), new RegExp(`^policyfuzz: role ${login} cannot create databases.*\`alter role ${login} createdb\``, 'm'));
    const reader = await createRole(`pf_t_reader_${suffix}`, '', 'grant pg_read_all_data to $ROLE');
    expectRefused(await fuzzAs(reader), new RegExp(`^policyfuzz: role ${reader} cannot create databases`, 'm'));
  });

  it('granted the API roles, a CREATEDB BYPASSRLS role (as Supabase\'s postgres) runs and passes', async () => {
    const role = await createRole(`pf_t_granted_${suffix}`, 'createdb bypassrls', 'grant anon, authenticated, service_role to $ROLE');
    const r = await fuzzAs(role);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(lastLine(r.stdout)).toBe('1 passed, 0 failed (seed 3)');
  });

  it('without BYPASSRLS: exit 2 naming it and the grant, no finding', async () => {
    const role = await createRole(`pf_t_nobypass_${suffix}`, 'createdb', 'grant anon, authenticated, service_role to $ROLE');
    expectRefused(await fuzzAs(role), new RegExp(`^policyfuzz: role ${role} has no BYPASSRLS, which Supabase's postgres role has: .*\`alter role ${role} bypassrls\``, 'm'));
  });

  it('why: a definer function owned by a BYPASSRLS non-superuser reads a FORCE ROW LEVEL SECURITY table of another owner whole, as a superuser\'s does; without BYPASSRLS the rules filter it', async () => {
    // Supabase's postgres: NOSUPERUSER … BYPASSRLS (supabase/postgres 10000000000000_demote-postgres.sql).
    const bypass = await createRole(`pf_t_owner_bypass_${suffix}`, 'bypassrls');
    const plain = await createRole(`pf_t_owner_plain_${suffix}`, '');
    const schema = `pf_t_force_${suffix}`;
    const definer = (name: string, owner?: string) =>
      `create function ${schema}.${name}() returns int language sql security definer as 'select count(*)::int from ${schema}.t';` +
      (owner ? `alter function ${schema}.${name}() owner to ${owner};` : '') +
      `grant execute on function ${schema}.${name}() to authenticated;`;
    await admin.query(`create schema ${schema}; grant usage on schema ${schema} to authenticated, ${bypass}, ${plain};
      create table ${schema}.t (id int); insert into ${schema}.t values (1), (2);
      alter table ${schema}.t enable row level security; alter table ${schema}.t force row level security;
      create policy only_one on ${schema}.t for select using (id = 1);
      grant select on ${schema}.t to ${bypass}, ${plain};
      ${definer('as_superuser')} ${definer('as_bypassrls', bypass)} ${definer('as_plain', plain)}`);
    try {
      await admin.query('begin; set local role authenticated');
      const { rows } = await admin.query(`select ${schema}.as_superuser() as superuser, ${schema}.as_bypassrls() as bypassrls, ${schema}.as_plain() as plain`);
      expect(rows[0]).toEqual({ superuser: 2, bypassrls: 2, plain: 1 });
    } finally {
      await admin.query('rollback');
      await admin.query(`drop schema ${schema} cascade`);
    }
  });
});

describe('a failure folder that cannot be written', () => {
  it('prints the verdict and the failure, warns naming the folder, keeps the exit code, leaves no empty file', async () => {
    const broken = tempDir('broken');
    for (const f of readdirSync(BUNDLED_MIGRATIONS)) copyFileSync(path.join(BUNDLED_MIGRATIONS, f), path.join(broken, f));
    copyFileSync(path.join(BUNDLED_MUTANTS, 'R02-users-role', 'mutants', 'R02-guard-trigger-dropped.sql'), path.join(broken, '9999_mutant.sql'));
    const fuzz = (failures: string) =>
      // 30 cases: seed 5 finds both of R02's findings within them (as at 200), and the same on every run.
      runBin(['fuzz', '--migrations', broken, '--only', 'R02', '--seed', '5', '--runs', '30', '--workers', '1', '--no-replay', '--no-color', '--report-dir', tempDir('reports'), '--failures-dir', failures, '--database-url', inject('databaseUrl')]);
    // The names this seed's failures take, then the same run where each is a full disk (/dev/full:
    // the file opens, the write fails with ENOSPC).
    const first = tempDir('failures');
    expect((await fuzz(first)).code).toBe(1);
    const names = readdirSync(first).filter((f) => f.endsWith('.json'));
    expect(names.length).toBeGreaterThan(0);
    const full = tempDir('full');
    for (const n of names) symlinkSync('/dev/full', path.join(full, n));
    const r = await fuzz(full);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stdout).toMatch(/R02 FAILED/);
    expect(r.stdout).toContain(`warning: could not save this failure in ${full} (ENOSPC)`);
    expect(lastLine(r.stdout)).toBe('0 passed, 1 failed (seed 5)');
    expect(readdirSync(full)).toEqual([]);
  });
});

describe('as root with a private temp folder (TMPDIR of mode 0700)', () => {
  // The server runs as an unprivileged account, which cannot enter root's private TMPDIR: its
  // folders and caches go where it can reach them, and nothing is left in TMPDIR.
  it.runIf(process.getuid?.() === 0)('the run passes, and leaves nothing in TMPDIR', async () => {
    const tmp = tempDir('private-tmp');
    chmodSync(tmp, 0o700);
    const reports = tempDir('private-tmp-reports');
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    delete env.DATABASE_URL;
    const r = await runBin(['fuzz', '--reference', '--only', 'R01', '--runs', '5', '--no-sso', '--no-replay', '--no-color', '--provider', 'local', '--report-dir', reports, '--failures-dir', path.join(reports, 'f')], { env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(lastLine(r.stdout)).toMatch(/^1 passed, 0 failed/);
    expect(readdirSync(tmp)).toEqual([]);
  }, 180_000);
});
