/**
 * Shell completion through the real binary: the script it prints is loaded into a real bash,
 * which is asked for completions as the shell would ask (COMP_WORDS, COMP_CWORD).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';

async function completions(script: string, line: string[]): Promise<string[]> {
  const file = path.join(tempDir('completion'), 'policyfuzz.bash');
  writeFileSync(file, script);
  const words = line.map((w) => `'${w}'`).join(' ');
  const out = execFileSync('bash', ['-c', `source ${file}; COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}; _policyfuzz; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

describe('policyfuzz completion', () => {
  it('bash: commands, each command\'s own options, sso subcommands and option values', async () => {
    const run = await runBin(['completion', 'bash']);
    expect(run.code).toBe(0);
    expect(await completions(run.stdout, ['policyfuzz', 'mer'])).toEqual(['merge-reports']);
    expect(await completions(run.stdout, ['policyfuzz', 'fuzz', '--max-'])).toEqual(['--max-failures']);
    // fuzz is the default command: its options complete without naming it.
    expect(await completions(run.stdout, ['policyfuzz', '--seed', '5', '--fail-'])).toEqual(['--fail-on-partial']);
    expect(await completions(run.stdout, ['policyfuzz', 'sso', ''])).toEqual(['serve', 'check']);
    expect(await completions(run.stdout, ['policyfuzz', 'sso', 'check', '--real'])).toEqual(['--real-time']);
    expect(await completions(run.stdout, ['policyfuzz', 'replay', '--max-'])).toEqual([]);
    expect(await completions(run.stdout, ['policyfuzz', 'fuzz', '--profile', ''])).toEqual(['pr', 'nightly']);
    expect(await completions(run.stdout, ['policyfuzz', 'fuzz', '--report', 's'])).toEqual(['sarif']);
  });

  it('zsh: the same function through bashcompinit', async () => {
    const run = await runBin(['completion', 'zsh']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('autoload -U +X bashcompinit && bashcompinit');
    expect(run.stdout).toContain('complete -o default -F _policyfuzz policyfuzz');
  });

  it('an unknown shell: exit 2 naming the shells it knows', async () => {
    const run = await runBin(['completion', 'fish']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no completion for shell "fish" (known: bash, zsh)');
  });
});
