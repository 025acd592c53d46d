/**
 * The GitHub Actions examples in docs/ are valid YAML, and every policyfuzz command they run
 * exists with the options they pass (so a renamed option cannot silently break them).
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
  with?: Record<string, unknown>;
}
interface Workflow {
  on: unknown;
  jobs: Record<string, { steps: Step[]; strategy?: { matrix?: { shard?: number[] } } }>;
}

const examples = ['policyfuzz-pr.yml', 'policyfuzz-nightly.yml'].map((name) => ({
  name,
  workflow: parse(readFileSync(path.join(PROJECT_ROOT, 'docs', 'examples', 'github', name), 'utf8')) as Workflow,
}));

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

describe.each(examples)('docs/examples/github/$name', ({ workflow }) => {
  const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);

  it('runs only policyfuzz commands and options that exist', async () => {
    const calls = steps.flatMap((s) => (s.run ?? '').split('\n')).filter((l) => l.includes('bin/policyfuzz.mjs'));
    expect(calls.length).toBeGreaterThan(0);
    for (const line of calls) {
      const [command, ...args] = line.split('bin/policyfuzz.mjs')[1].trim().split(/\s+/);
      const help = await helpOf(command);
      expect(help, `${command} --help`).toMatch(/^Usage: policyfuzz /m);
      for (const option of args.filter((a) => a.startsWith('--'))) expect(help, `${line}: ${option}`).toContain(option);
    }
  });

  it('uploads the hidden .policyfuzz folder explicitly and pins every action to a major version', () => {
    for (const s of steps) {
      if (s.uses) expect(s.uses).toMatch(/@v\d+$/);
      if (s.uses?.startsWith('actions/upload-artifact') && String(s.with?.path).includes('.policyfuzz')) expect(s.with?.['include-hidden-files']).toBe(true);
    }
  });
});

it('the nightly matrix and the --shard argument agree', () => {
  const nightly = examples.find((e) => e.name === 'policyfuzz-nightly.yml')!.workflow;
  const shards = nightly.jobs.fuzz.strategy!.matrix!.shard!;
  const run = nightly.jobs.fuzz.steps.find((s) => s.run?.includes('--shard'))!.run!;
  expect(run).toContain(`--shard \${{ matrix.shard }}/${shards.length}`);
  expect(shards).toEqual(shards.map((_, i) => i + 1));
});
