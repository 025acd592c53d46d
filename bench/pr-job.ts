/**
 * The main job as a user runs it: `policyfuzz fuzz --seed 1` (the pr profile on the reference,
 * data layer and SSO half) through the real binary, wall time from spawn to exit. The median of a
 * few runs (the first, which may build and keep the template, is not counted), with where the
 * time went (summary.json timings) and the machine's load, since a shared machine's figure is
 * only as quiet as its load. Goal on a quiet 2-core machine: ≤ 7 s.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../cli/paths.ts';
import type { RunSummary } from '../engine/report/summary.ts';

const ROUNDS = Number(process.env.BENCH_PR_ROUNDS ?? 3);

interface JobRun {
  wallMs: number;
  code: number | null;
  timings: NonNullable<RunSummary['timings']>;
  cases: { data: number; sso: number };
}

function runJob(dir: string): JobRun {
  const started = performance.now();
  const r = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'policyfuzz.mjs'), 'fuzz', '--seed', '1', '--no-replay', '--report-dir', dir, '--failures-dir', path.join(dir, 'f')], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  const wallMs = performance.now() - started;
  const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;
  const sum = (area: string) => summary.properties.filter((p) => p.area === area && !p.id.includes(':')).reduce((n, p) => n + p.cases, 0);
  return { wallMs, code: r.status, timings: summary.timings!, cases: { data: sum('data'), sso: sum('sso') } };
}

export function prJob(): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-pr-'));
  try {
    runJob(dir);
    const runs: JobRun[] = [];
    const loads: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      loads.push(os.loadavg()[0]);
      runs.push(runJob(dir));
    }
    const mid = [...runs].sort((a, b) => a.wallMs - b.wallMs)[runs.length >> 1];
    const t = mid.timings;
    const ms = (n: number) => `${(n / 1000).toFixed(1)} s`;
    return [
      `pr job (fuzz --seed 1, reference, ${mid.cases.data} data + ${mid.cases.sso} SSO cases, exit ${mid.code}): wall ${ms(mid.wallMs)} median of ${ROUNDS} (${runs.map((r) => ms(r.wallMs)).join(', ')}; load ${loads.map((l) => l.toFixed(1)).join(', ')}; goal ≤ 7 s on a quiet 2-core machine)`,
      `  of which start-up ${ms(t.startupMs)}, data properties ${ms(t.propertiesMs)}, catalog ${ms(t.catalogMs)}, SSO ${ms(t.ssoMs)} (on its own thread, beside the data half); outside the run's own clock (CLI start, reports, server stop) ${ms(mid.wallMs - t.totalMs)}`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
