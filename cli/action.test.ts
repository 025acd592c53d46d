/**
 * action.yml run locally on the example project (examples/campus-shop, a user's Supabase
 * project): its `run:` steps execute in bash as GitHub runs them (`bash -eo pipefail`), with
 * the GitHub environment files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY), step outputs and `if:`
 * conditions; its `uses:` steps are GitHub's own actions (setup-node, cache, upload) and are
 * not run here (the cache is taken as a hit: node_modules is present). The pull-request comment
 * goes to a local stand-in for GitHub's REST API.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from './paths.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { tempDir } from '../testing/temp-dir.ts';
import { BIN } from '../testing/run-bin.ts';

const exec = promisify(execFile);
const EXAMPLE = path.join(PROJECT_ROOT, 'examples', 'campus-shop');

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
const action = parse(readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { steps: Step[] } };

// Removed at the end of the file (testing/remove-temp-dirs.ts).
const tmp = tempDir;

interface Context {
  inputs: Record<string, string>;
  github: Record<string, string>;
  runner: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string> }>;
}

/** GitHub's expression language, as much of it as action.yml uses. */
function evaluate(expression: string, ctx: Context): string | boolean {
  const lookup = (ref: string): string => {
    const [scope, ...rest] = ref.split('.');
    if (scope === 'steps') return ctx.steps[rest[0]]?.outputs[rest[2]] ?? '';
    return (ctx as unknown as Record<string, Record<string, string>>)[scope][rest.join('.')] ?? '';
  };
  const js = expression
    .replace(/\balways\(\)/g, 'true')
    .replace(/\b(inputs|steps|github|runner)((?:\.[A-Za-z_][\w-]*)+)/g, (_m, scope: string, rest: string) => JSON.stringify(lookup(scope + rest)))
    .replace(/==/g, '===')
    .replace(/!===/g, '!==');
  return new Function(`return (${js});`)() as string | boolean;
}
const substitute = (text: string, ctx: Context) => text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_m, e: string) => String(evaluate(e, ctx)));

interface StepRun {
  step: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the action's steps; `uses:` steps are skipped (their outputs taken from `simulated`). */
async function runAction(inputs: Record<string, string>, env: Record<string, string>, simulated: Context['steps'] = { modules: { outputs: { 'cache-hit': 'true' } } }, skip: string[] = []): Promise<{ runs: StepRun[]; outputs: Record<string, string>; summary: string }> {
  const home = tmp('action');
  const files = { GITHUB_OUTPUT: path.join(home, 'output'), GITHUB_STEP_SUMMARY: path.join(home, 'summary.md') };
  writeFileSync(files.GITHUB_STEP_SUMMARY, '');
  const defaults = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, String(v.default ?? '')]));
  const ctx: Context = { inputs: { ...defaults, 'github-token': 'test-token', ...inputs }, github: { token: 'test-token', action_path: PROJECT_ROOT, run_id: '1', ref_name: 'main', head_ref: 'feature' }, runner: { os: 'Linux', temp: home }, steps: { ...simulated } };
  const runs: StepRun[] = [];
  for (const step of action.runs.steps) {
    if (step.uses || skip.includes(step.id ?? '')) continue;
    if (step.if && !evaluate(step.if, ctx)) continue;
    writeFileSync(files.GITHUB_OUTPUT, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
    const script = path.join(home, `step-${runs.length}.sh`);
    writeFileSync(script, step.run!);
    const cwd = path.resolve(env.GITHUB_WORKSPACE, substitute(step['working-directory'] ?? '.', ctx));
    // Asynchronously: the stand-in for GitHub's API answers from this process.
    const r = await exec('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env: { ...process.env, NO_COLOR: '1', ...env, ...files, RUNNER_TEMP: home, GITHUB_ACTION_PATH: PROJECT_ROOT, ...stepEnv }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).then(
      (ok) => ({ code: 0, ...ok }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
    runs.push({ step: step.id ?? step.name ?? '?', ...r });
    const outputs = Object.fromEntries(readFileSync(files.GITHUB_OUTPUT, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    if (step.id) ctx.steps[step.id] = { outputs };
  }
  return { runs, outputs: ctx.steps.run?.outputs ?? {}, summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') };
}

/** A stand-in for GitHub's REST API: the comments of issue 7 of acme/shop. */
function fakeGithub() {
  const comments: Array<{ id: number; body: string }> = [];
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls.push(`${req.method} ${req.url}`);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== 'Bearer test-token') return json(401, { message: 'Bad credentials' });
      if (req.method === 'GET' && req.url?.startsWith('/repos/acme/shop/issues/7/comments')) return json(200, comments);
      if (req.method === 'POST' && req.url === '/repos/acme/shop/issues/7/comments') {
        const c = { id: 100 + comments.length, body: JSON.parse(body).body as string };
        comments.push(c);
        return json(201, c);
      }
      const m = /^\/repos\/acme\/shop\/issues\/comments\/(\d+)$/.exec(req.url ?? '');
      const existing = m && comments.find((c) => c.id === Number(m[1]));
      if (req.method === 'PATCH' && existing) {
        existing.body = JSON.parse(body).body as string;
        return json(200, existing);
      }
      json(404, { message: 'Not Found' });
    });
  });
  return { server, comments, calls };
}

let github: ReturnType<typeof fakeGithub>;
let apiUrl: string;
beforeAll(async () => {
  github = fakeGithub();
  await new Promise<void>((resolve) => github.server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(github.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => github?.server.close(() => resolve())));

function project(): string {
  const dir = tmp('project');
  cpSync(EXAMPLE, dir, { recursive: true });
  return dir;
}
function githubEnv(workspace: string, event: object): Record<string, string> {
  const eventPath = path.join(tmp('event'), 'event.json');
  writeFileSync(eventPath, JSON.stringify(event));
  return { GITHUB_WORKSPACE: workspace, GITHUB_EVENT_PATH: eventPath, GITHUB_REPOSITORY: 'acme/shop', GITHUB_API_URL: apiUrl };
}
const policyfuzz = `${process.execPath} ${BIN}`;
const prArgs = `--config policyfuzz.config.json --database-url ${inject('databaseUrl')} --seed 5 --only R02,R04 --runs 30`;
const args = (more: string) => `--config policyfuzz.config.json --database-url ${inject('databaseUrl')} --seed 5 --no-replay ${more}`;

describe('action.yml, run locally on the example project', () => {
  it('fuzz mode, two shards and a merge: verdict, SARIF on the migration, access matrix in the job summary', async () => {
    const workspace = project();
    const env = githubEnv(workspace, { schedule: '17 2 * * *' });
    const shard = (i: number) => runAction({ mode: 'fuzz', shard: `${i}/2`, 'report-dir': `shards/s${i}/reports`, args: args('--only R01,R02 --runs 40'), policyfuzz }, env);
    const one = await shard(1);
    expect(one.runs.map((r) => [r.step, r.code])).toEqual([
      ['run', 0],
      ['job summary', 0],
      ['verdict', 1],
    ]);
    expect(one.outputs['exit-code'], one.runs[0].stdout + one.runs[0].stderr).toBe('1'); // R01 fails on the campus shop (its README says why)
    const sarif = JSON.parse(readFileSync(one.outputs.sarif, 'utf8')) as { runs: Array<{ results: Array<{ ruleId: string; locations?: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }> }> }> };
    const r01 = sarif.runs[0].results.find((r) => r.ruleId === 'R01')!;
    expect(r01.locations?.[0].physicalLocation.artifactLocation.uri).toMatch(/^supabase\/migrations\/\d+_\w+\.sql$/);
    expect(one.summary).toContain('### policyfuzz access matrix');
    expect(one.summary).toMatch(/^\| `users` \| update \|/m);

    const two = await shard(2);
    expect(two.outputs['exit-code']).toMatch(/^[01]$/);
    const merged = await runAction({ mode: 'merge', 'merge-inputs': 'shards/*/reports/summary.json', 'report-dir': 'merged', policyfuzz }, env);
    expect(merged.outputs['exit-code'], merged.runs[0].stdout + merged.runs[0].stderr).toBe('1');
    const summary = JSON.parse(readFileSync(path.join(workspace, 'merged', 'summary.json'), 'utf8')) as RunSummary;
    const shards = [1, 2].map((i) => JSON.parse(readFileSync(path.join(workspace, 'shards', `s${i}`, 'reports', 'summary.json'), 'utf8')) as RunSummary);
    expect(summary.totals.cases).toBe(shards[0].totals.cases + shards[1].totals.cases);
    expect(summary.shards).toEqual([{ index: 1, count: 2 }, { index: 2, count: 2 }]);
    expect(existsSync(path.join(workspace, 'merged', 'policyfuzz.sarif'))).toBe(true);
  });

  it('the pull-request comment is posted once and then updated in place', async () => {
    const workspace = project();
    const env = githubEnv(workspace, { pull_request: { number: 7 } });
    const comment = path.join(tmp('comment'), 'comment.md');
    const post = async (text: string) => {
      writeFileSync(comment, text);
      return runAction({ mode: 'pr' }, env, { modules: { outputs: { 'cache-hit': 'true' } }, run: { outputs: { comment, 'exit-code': '0' } } }, ['run']);
    };
    // The steps after `run`, given its outputs: `run` itself needs `policyfuzz diff` (below).
    const only = (r: Awaited<ReturnType<typeof runAction>>, step: string) => r.runs.find((s) => s.step === step)!;
    github.comments.length = 0;
    const first = await post('### policyfuzz: 1 behaviour change\n- `users` update as authenticated: refused → allowed');
    expect(only(first, 'comment').code, only(first, 'comment').stderr).toBe(0);
    const second = await post('### policyfuzz: no behaviour change');
    expect(only(second, 'comment').stdout).toMatch(/updated comment 100 on #7/);
    expect(github.comments).toEqual([{ id: 100, body: '<!-- policyfuzz:pr-comment -->\n### policyfuzz: no behaviour change\n' }]);
    expect(second.summary).toContain('### policyfuzz: no behaviour change');
  });
});


describe('action.yml pr mode end to end', () => {
  it('fuzzes the head, comments the diff against the base commit, and updates that comment on the next push', async () => {
    const workspace = project();
    const git = (...a: string[]) => exec('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...a], { cwd: workspace });
    await git('init', '-q');
    await git('add', '-A');
    await git('commit', '-qm', 'base');
    const base = (await git('rev-parse', 'HEAD')).stdout.trim();
    const migration = path.join(workspace, 'supabase', 'migrations', '20240915083000_shop_orders.sql');
    const original = readFileSync(migration, 'utf8');
    // The pull request's change: every signed-in user sees every order (R04 says buyers see their own).
    writeFileSync(migration, `${original}\ndrop policy "Buyers see their orders, shop staff see all" on public.shop_orders;\ncreate policy "Signed-in users see every order" on public.shop_orders for select to authenticated using (true);\n`);
    await git('commit', '-qam', 'head');
    github.comments.length = 0;
    // `args` go to both fuzz and diff (the project's config among them); `fuzz-args` to fuzz alone.
    const push = () => runAction({ mode: 'pr', 'base-ref': base, args: prArgs, 'fuzz-args': '--no-replay', policyfuzz }, githubEnv(workspace, { pull_request: { number: 7 } }));
    const step = (r: Awaited<ReturnType<typeof runAction>>, name: string) => r.runs.find((s) => s.step === name)!;

    const first = await push();
    const run = step(first, 'run');
    expect(run.stdout, run.stderr).toContain('policyfuzz diff: ');
    expect(run.stdout).toContain('(config policyfuzz.config.json)');
    expect(first.outputs['exit-code'], run.stdout + run.stderr).toBe('1'); // R04 fails at the head, and the diff calls it a regression
    const markdown = readFileSync(first.outputs.comment, 'utf8');
    expect(markdown).toMatch(/^\| \*\*regression\*\* \| R04 \| rows or columns changed \| \d+ \| R04 \\\| GET shop_orders \\\| signed-in \\\| visible-not-filtered \|$/m);
    expect(step(first, 'comment').stdout).toMatch(/posted comment 100 on #7/);
    expect(github.comments).toEqual([{ id: 100, body: `<!-- policyfuzz:pr-comment -->\n${markdown.trim()}\n` }]);
    expect(first.summary).toContain(markdown.trim());
    expect(step(first, 'verdict').code).toBe(1);
    // What the upload steps (GitHub's own actions, not run here) are given.
    expect(first.outputs.sarif).toBe(path.join(workspace, '.policyfuzz', 'reports', 'policyfuzz.sarif'));
    for (const report of ['policyfuzz.sarif', 'summary.json', 'report.html', 'junit.xml', 'matrix.md']) expect(existsSync(path.join(workspace, '.policyfuzz', 'reports', report)), report).toBe(true);

    // The next push takes the grant back: the same comment now says so.
    writeFileSync(migration, original);
    await git('commit', '-qam', 'take the grant back');
    const second = await push();
    expect(second.outputs['exit-code'], step(second, 'run').stdout + step(second, 'run').stderr).toBe('0');
    const again = readFileSync(second.outputs.comment, 'utf8');
    expect(again).toContain('No behaviour change.');
    expect(step(second, 'comment').stdout).toMatch(/updated comment 100 on #7/);
    expect(github.comments).toEqual([{ id: 100, body: `<!-- policyfuzz:pr-comment -->\n${again.trim()}\n` }]);
  });
});
