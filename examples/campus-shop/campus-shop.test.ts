/**
 * The worked example: policyfuzz on a project's own Supabase schema (examples/campus-shop), not
 * on the reference database. Its schema differs from db/migrations in the ways real projects
 * do — extra NOT NULL columns without defaults, a signup trigger on auth.users that creates the
 * public.users row, its own names for the staff role (moderator) and the first order status
 * (awaiting_payment), no identity_conflicts table — and its users owner guard is a deny-list.
 *
 * Expected verdicts: R02 (users.role) and R04 (shop buyers) hold, R16 (grants) holds on the two
 * tables it has, R01 catches the deny-list (it names the users column the list forgot), R17,
 * R05 and R08 are not applicable; the run exits 1.
 */
import { referencePack } from '../../packs/reference/index.ts';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzz } from '../../cli/fuzz-command.ts';
import { defaultMigrationsOption } from '../../cli/paths.ts';
import { inspectMigrations, type InitReport } from '../../engine/config/init.ts';
import type { DatabaseServer } from '../../engine/db/providers/server.ts';
import type { RunSummary } from '../../engine/report/summary.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { dataProperties } from '../../packs/reference/properties.ts';
import { tempDir } from '../../testing/temp-dir.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CONFIG = path.join(HERE, 'policyfuzz.config.json');
const MIGRATIONS = path.join(HERE, 'supabase', 'migrations');
const SEED = 7;
/** The columns the example's deny-list guard (protect_profile_fields) compares. */
const DENY_LIST = ['email', 'role', 'department', 'permissions', 'managed_permissions'];
/** Columns the model lets a users owner change, or never compares (model/settings.ts defaults). */
const OWNER_EDITABLE = ['display_name', 'avatar_url', 'phone', 'updated_at'];

let server: DatabaseServer;
let tmp: string;

beforeAll(async () => {
  server = await sharedServer();
  tmp = tempDir('campus-shop');
});
afterAll(async () => {
  await server?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Run {
  code: number;
  lines: string[];
  summary: RunSummary;
  status: (id: string) => string | undefined;
}

async function run(config: string, name: string): Promise<Run> {
  const lines: string[] = [];
  const reportDir = path.join(tmp, name, 'report');
  const code = await fuzz(
    {
      config,
      migrations: defaultMigrationsOption(referencePack),
      pack: referencePack,
      databaseUrl: server.adminUrl,
      seed: SEED,
      runs: 200,
      workers: 1,
      // Every case of every property (pr would stop a saturated one at 100): R04 runs its 200 below.
      earlyStop: false,
      reportDir,
      failuresDir: path.join(tmp, name, 'failures'),
      replay: false,
    },
    (line) => lines.push(line),
  );
  const summary = JSON.parse(readFileSync(path.join(reportDir, 'summary.json'), 'utf8')) as RunSummary;
  return { code, lines, summary, status: (id) => summary.properties.find((p) => p.id === id)?.status };
}

/** The users columns named in R01's failure message (`users: <columns>` from the model's guard). */
function guardedColumnsNamed(message: string): string[] {
  const m = /users: ([a-z_, ]+)/.exec(message);
  return m ? m[1].split(',').map((c) => c.trim()) : [];
}

describe('campus shop, with its config', () => {
  let result: Run;
  beforeAll(async () => {
    result = await run(CONFIG, 'config');
  });

  it('R02 and R04 hold; R16 holds on the tables the project has; no security lint trips', () => {
    for (const id of ['R02', 'R04', 'R16', 'R16:catalog', 'LINT01:catalog']) {
      const p = result.summary.properties.find((x) => x.id === id);
      expect({ id, status: p?.status, note: p?.note, failure: p?.failures[0]?.message }).toEqual({ id, status: 'passed', note: null, failure: undefined });
    }
    // They really ran against this schema: the model's answers and the database's agreed on
    // allowed and refused writes alike.
    const r04 = result.summary.properties.find((p) => p.id === 'R04')!;
    expect(r04.cases).toBe(200);
    expect(r04.counts.allowed).toBeGreaterThan(0);
    expect(r04.counts.rejected + r04.counts.filtered).toBeGreaterThan(0);
  });

  it('R01 catches the deny-list guard on users and names the column it forgot', () => {
    expect(result.status('R01')).toBe('failed');
    const failure = result.summary.properties.find((p) => p.id === 'R01')!.failures[0];
    // The model's guard (an allow-list over the whole row) refuses the owner's change; the
    // project's deny-list lets it through.
    expect(failure.message).toMatch(/model expected error P0001/);
    const named = guardedColumnsNamed(JSON.stringify(failure.expected));
    expect(named.length).toBeGreaterThan(0);
    for (const column of named) {
      expect(DENY_LIST).not.toContain(column);
      expect(OWNER_EDITABLE).not.toContain(column);
    }
    // The shrunk case is an owner's PATCH of users naming that column.
    const request = (failure.case as { steps: { request: { table: string; patch: Record<string, unknown> } }[] }).steps[failure.step ?? 0].request;
    expect(request.table).toBe('users');
    expect(Object.keys(request.patch)).toEqual(expect.arrayContaining(named));
  });

  it('R17 (no identity_conflicts), R05 and R08 (no pr_tickets) are not applicable, never passing', () => {
    expect(result.status('R17')).toBe('not-applicable');
    expect(result.summary.properties.find((p) => p.id === 'R17')!.note).toMatch(/identity_conflicts/);
    expect(result.status('R05')).toBe('not-applicable');
    expect(result.status('R08')).toBe('not-applicable');
  });

  it('exits 1 and ends with the counts line', () => {
    expect(result.code).toBe(1);
    expect(result.lines.at(-1)).toBe(`\n5 passed, 1 failed, 3 not applicable (seed ${SEED})`);
    // The replay line names the config, so the failure re-runs against this schema.
    expect(result.lines.join('\n')).toContain(`--config ${CONFIG} --only R01 --seed `);
  });
});

describe('policyfuzz init on the campus shop migrations', () => {
  let report: InitReport;
  beforeAll(async () => {
    report = await inspectMigrations(server, MIGRATIONS, dataProperties, tmp, referencePack.model);
  });

  it('detects the signup trigger, the columns to fill and the rules that do not apply', () => {
    expect(report.config.fixtures).toEqual({ users: 'auth-trigger', bypassTriggers: false });
    expect(report.filledColumns.sort()).toEqual(
      ['shop_orders.item_count', 'shop_orders.order_code', 'shop_orders.pickup_campus', 'users.home_campus', 'users.student_code'].sort(),
    );
    expect(report.applicable).toEqual(['R01', 'R02', 'R04', 'R16']);
    expect(report.notApplicable.find((n) => n.id === 'R17')?.missing).toContain('identity_conflicts');
    expect(report.notApplicable.map((n) => n.id)).toEqual(expect.arrayContaining(['R05', 'R08', 'R17', 'R19', 'R20']));
    expect(report.config.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^R17 not applicable: missing identity_conflicts/)]));
  });

  it('writes a config that runs unedited except for the model settings it cannot infer', async () => {
    // What init cannot infer: the project's names for what the spec leaves open. They live in
    // function bodies and policies (moderator is staff, awaiting_payment is the first status,
    // which statuses a buyer may edit), not in anything init reads; it writes `model: {}` and
    // a note. Everything else it writes (migrations path, fixtures, rules) is used as written.
    const example = JSON.parse(readFileSync(CONFIG, 'utf8')) as { model: Record<string, unknown> };
    const written = path.join(tmp, 'init', 'policyfuzz.config.json');
    mkdirSync(path.dirname(written), { recursive: true });
    const proposed = (await inspectMigrations(server, MIGRATIONS, dataProperties, path.dirname(written), referencePack.model)).config;
    writeFileSync(written, JSON.stringify({ ...proposed, model: example.model }, null, 2));

    const result = await run(written, 'init');
    expect(result.status('R01')).toBe('failed');
    for (const id of ['R02', 'R04', 'R16', 'R16:catalog', 'LINT01:catalog']) expect({ id, status: result.status(id) }).toEqual({ id, status: 'passed' });
    expect(result.summary.properties.map((p) => p.id).sort()).toEqual(['LINT01:catalog', 'R01', 'R02', 'R04', 'R16', 'R16:catalog']);
    expect(result.code).toBe(1);

    // Unedited but for the project's error wording (a named setting, refusals.messages, that a
    // failure names; init cannot read it either), the fixtures use the reference role names and
    // the project's CHECK refuses them: a harness error that names the constraint, not a verdict.
    writeFileSync(written, JSON.stringify({ ...proposed, model: { refusals: example.model.refusals } }, null, 2));
    const raw = await run(written, 'init-raw');
    expect(raw.code).toBe(1);
    expect(raw.status('R02')).toBe('error');
    expect(raw.summary.properties.find((p) => p.id === 'R02')!.note).toMatch(/users_role_check/);
  });
});
