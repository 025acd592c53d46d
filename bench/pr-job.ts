/**
 * The main job as a user runs it: `policyfuzz fuzz --seed 1` (the pr profile on the reference,
 * data layer and SSO half) through the real binary, wall time from spawn to exit and CPU (user +
 * sys of the run, its server and the server's backends: what a loaded machine cannot blur). The
 * median of a few runs (the first, which may build and keep the template, is not counted), with
 * where the time went (summary.json timings) and the machine's load, since a shared machine's
 * wall is only as quiet as its load. Goal on a quiet 2-core machine: ≤ 7 s.
 *
 * BENCH_PR_AGAINST=<another checkout's bin/policyfuzz.mjs>: each round runs that binary, then this
 * one (alternating pairs, so both meet the same drift of the load), and prints both, each pair,
 * and whether the two gave the same cases and verdicts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../cli/paths.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { childrenCpuMs } from './cpu.ts';

const ROUNDS = Number(process.env.BENCH_PR_ROUNDS ?? 3);
const THIS_BINARY = path.join(PROJECT_ROOT, 'bin', 'policyfuzz.mjs');

interface JobRun {
  wallMs: number;
  /** The run's CPU, its server's included (ms). */
  cpuMs: number;
  code: number | null;
  timings: NonNullable<RunSummary['timings']>;
  cases: { data: number; sso: number };
  /** Each property's verdict and cases: two binaries that differ only in speed give the same. */
  verdicts: Map<string, string>;
  /** The time budget cut some property (its cases then depend on the load). */
  cut: boolean;
  load: number;
}

function runJob(dir: string, binary: string): JobRun {
  const load = os.loadavg()[0];
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const r = spawnSync(process.execPath, [binary, 'fuzz', '--seed', '1', '--no-replay', '--report-dir', dir, '--failures-dir', path.join(dir, 'f')], { cwd: path.dirname(path.dirname(binary)), encoding: 'utf8' });
  const wallMs = performance.now() - started;
  const cpuMs = childrenCpuMs() - cpuBefore;
  const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;
  const sum = (area: string) => summary.properties.filter((p) => p.area === area && !p.id.includes(':')).reduce((n, p) => n + p.cases, 0);
  const verdicts = new Map(summary.properties.map((p) => [p.id, `${p.status} ${p.cases}`]));
  const cut = summary.properties.some((p) => p.status === 'partial' || p.status === 'not-reached' || (p.note ?? '').includes('time budget'));
  return { wallMs, cpuMs, code: r.status, timings: summary.timings!, cases: { data: sum('data'), sso: sum('sso') }, verdicts, cut, load };
}

/** The properties whose verdict or cases differ between two runs: `R01 passed 100 → partial 40`. */
function differences(a: JobRun, b: JobRun): string[] {
  const ids = [...new Set([...a.verdicts.keys(), ...b.verdicts.keys()])];
  return ids.filter((id) => a.verdicts.get(id) !== b.verdicts.get(id)).map((id) => `${id} ${a.verdicts.get(id) ?? 'absent'} → ${b.verdicts.get(id) ?? 'absent'}`);
}

const seconds = (n: number) => `${(n / 1000).toFixed(1)} s`;
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The median run's lines: wall, CPU, and where the run's own clock says the time went. */
function jobLines(label: string, runs: JobRun[]): string[] {
  const mid = [...runs].sort((a, b) => a.wallMs - b.wallMs)[runs.length >> 1];
  const t = mid.timings;
  const cases = mid.cases.data + mid.cases.sso;
  return [
    `${label} (fuzz --seed 1, reference, ${mid.cases.data} data + ${mid.cases.sso} SSO cases, exit ${mid.code}): wall ${seconds(median(runs.map((r) => r.wallMs)))} median of ${runs.length} (${runs.map((r) => seconds(r.wallMs)).join(', ')}; load ${runs.map((r) => r.load.toFixed(1)).join(', ')}; goal ≤ 7 s on a quiet 2-core machine); ` +
      `CPU (Node and the server) ${seconds(median(runs.map((r) => r.cpuMs)))} median (${runs.map((r) => seconds(r.cpuMs)).join(', ')}), ${(median(runs.map((r) => r.cpuMs)) / cases).toFixed(2)} ms per case`,
    `  of which start-up ${seconds(t.startupMs)}, data properties ${seconds(t.propertiesMs)}, catalog ${seconds(t.catalogMs)}, SSO ${seconds(t.ssoMs)} (on its own thread, beside the data half); outside the run's own clock (CLI start, reports, server stop) ${seconds(mid.wallMs - t.totalMs)}`,
  ];
}

export function prJob(): string[] {
  const against = process.env.BENCH_PR_AGAINST;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-pr-'));
  try {
    // May build and keep the template: not counted (each binary once).
    if (against) runJob(dir, path.resolve(against));
    runJob(dir, THIS_BINARY);
    const runs: JobRun[] = [];
    const base: JobRun[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (against) base.push(runJob(dir, path.resolve(against)));
      runs.push(runJob(dir, THIS_BINARY));
    }
    if (!against) return jobLines('pr job', runs);
    const differing = base.map((b, i) => differences(b, runs[i]));
    const cut = [...base, ...runs].some((r) => r.cut);
    return [
      ...jobLines(`pr job, ${against}`, base),
      ...jobLines('pr job, this checkout', runs),
      `  pairs (theirs → this, wall / CPU): ${base.map((b, i) => `${seconds(b.wallMs)} → ${seconds(runs[i].wallMs)} / ${seconds(b.cpuMs)} → ${seconds(runs[i].cpuMs)}`).join('; ')}; ` +
        (differing.every((d) => !d.length)
          ? 'the same cases and verdicts in every pair'
          : `cases or verdicts differ (${differing.map((d, i) => (d.length ? `pair ${i + 1}: ${d.slice(0, 5).join(', ')}${d.length > 5 ? `, ${d.length - 5} more` : ''}` : '')).filter(Boolean).join('; ')})${cut ? ': the time budget cut some runs, which then ran what their load allowed' : ''}`),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
