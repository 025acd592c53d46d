/**
 * The GitHub Actions examples in docs/ (a user's workflow files) and the action they call
 * (action.yml at the root) agree: valid YAML, every `with:` is an input of the action, every
 * policyfuzz option passed exists in the commands it goes to (`args` in pr mode: fuzz and diff
 * both), every action is pinned to a major version, and the
 * nightly matrix and its --shard agree. (cli/action.test.ts runs the action's steps.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { main } from './main.ts';
import { referencePack } from '../packs/reference/index.ts';
import { PROJECT_ROOT } from './paths.ts';

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string>;
}
interface Workflow {
  on: unknown;
  permissions?: Record<string, string>;
  jobs: Record<string, { steps: Step[]; strategy?: { matrix?: { shard?: number[] } } }>;
}
interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as Action;
const examples = ['policyfuzz-pr.yml', 'policyfuzz-nightly.yml'].map((name) => ({
  name,
  workflow: parse(readFileSync(path.join(PROJECT_ROOT, 'docs', 'examples', 'github', name), 'utf8')) as Workflow,
}));
const isPolicyfuzz = (s: Step) => s.uses?.startsWith('policyfuzz/policyfuzz@') ?? false;

async function helpOf(command: string): Promise<string> {
  let text = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((text += String(s)), true));
  try {
    await main(['node', 'policyfuzz', command, '--help'], { pack: referencePack });
  } finally {
    spy.mockRestore();
  }
  return text;
}

describe('action.yml', () => {
  it('is a composite action whose steps use only its own inputs and pinned actions', async () => {
    expect(action.runs.using).toBe('composite');
    const text = readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8');
    for (const [, name] of text.matchAll(/inputs\.([a-z][\w-]*)/g)) expect(Object.keys(action.inputs), name).toContain(name);
    for (const s of action.runs.steps) if (s.uses) expect(s.uses).toMatch(/@v\d+$/);
    // The commands it runs exist with the options it passes.
    const fuzzHelp = await helpOf('fuzz');
    for (const option of ['--profile', '--shard', '--report', '--report-dir']) expect(fuzzHelp).toContain(option);
    const mergeHelp = await helpOf('merge-reports');
    for (const option of ['--out', '--report']) expect(mergeHelp).toContain(option);
    const diffHelp = await helpOf('diff');
    for (const option of ['--base', '--markdown']) expect(diffHelp).toContain(option);
  });
});

describe.each(examples)('docs/examples/github/$name', ({ workflow }) => {
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);

  it('calls the action with inputs it has and policyfuzz options that exist', async () => {
    const calls = steps.filter(isPolicyfuzz);
    expect(calls.length).toBeGreaterThan(0);
    const help = { fuzz: await helpOf('fuzz'), diff: await helpOf('diff') };
    const options = (text = '') => text.split(/\s+/).filter((a) => a.startsWith('--'));
    for (const call of calls) {
      for (const key of Object.keys(call.with ?? {})) expect(Object.keys(action.inputs), key).toContain(key);
      const mode = call.with?.mode;
      expect(['pr', 'fuzz', 'merge']).toContain(mode);
      // pr mode hands `args` to both `fuzz` and `diff`.
      const takers = mode === 'pr' ? [help.fuzz, help.diff] : mode === 'fuzz' ? [help.fuzz] : [];
      for (const option of options(call.with?.args)) for (const h of takers) expect(h, option).toContain(option);
      for (const option of options(call.with?.['fuzz-args'])) expect(help.fuzz, option).toContain(option);
      for (const option of options(call.with?.['diff-args'])) expect(help.diff, option).toContain(option);
    }
  });

  it('pins every action to a major version', () => {
    for (const s of steps) if (s.uses) expect(s.uses).toMatch(/@v\d+$/);
  });
});

it('the pull-request workflow grants what the comment and the SARIF upload need', () => {
  const pr = examples.find((e) => e.name === 'policyfuzz-pr.yml')!.workflow;
  expect(pr.permissions).toMatchObject({ 'pull-requests': 'write', 'security-events': 'write' });
});

it('the nightly matrix and the shard input agree; the merge reads what the shards upload', () => {
  const nightly = examples.find((e) => e.name === 'policyfuzz-nightly.yml')!.workflow;
  const shards = nightly.jobs.fuzz.strategy!.matrix!.shard!;
  const fuzz = nightly.jobs.fuzz.steps.find(isPolicyfuzz)!;
  expect(fuzz.with?.shard).toBe(`\${{ matrix.shard }}/${shards.length}`);
  expect(shards).toEqual(shards.map((_, i) => i + 1));
  const download = nightly.jobs.report.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))!;
  expect(fuzz.with?.['artifact-name']).toMatch(new RegExp(`^${download.with!.pattern.replace('*', '')}`));
  // upload-artifact keeps the paths below .policyfuzz/: <artifact>/reports/summary.json.
  expect(nightly.jobs.report.steps.find(isPolicyfuzz)!.with?.['merge-inputs']).toBe(`${download.with!.path}/*/reports/summary.json`);
});
