/**
 * How fast the real CLI answers before it runs anything: `policyfuzz --help`, and a config
 * error (a config naming a folder that does not exist). Median of a few child-process runs of
 * bin/policyfuzz.mjs, which runs the compiled dist/ (built by `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../cli/paths.ts';

function medianMs(args: string[], cwd: string, times = 5): { ms: number; status: number | null } {
  const samples: number[] = [];
  let status: number | null = null;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'policyfuzz.mjs'), ...args], { cwd, encoding: 'utf8' });
    samples.push(performance.now() - started);
    status = r.status;
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[Math.floor(samples.length / 2)], status };
}

export function cliStartup(): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-cli-'));
  try {
    writeFileSync(path.join(dir, 'policyfuzz.config.json'), JSON.stringify({ migrations: 'no-such-folder' }));
    const help = medianMs(['--help'], dir);
    const bad = medianMs(['fuzz', '--config', 'policyfuzz.config.json'], dir);
    return [
      `CLI start-up: --help ${help.ms.toFixed(0)} ms (exit ${help.status}; goal < 500 ms)`,
      `CLI start-up: config error ${bad.ms.toFixed(0)} ms (exit ${bad.status}; goal < 1000 ms)`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
