/**
 * An rpc-heavy user pack through the real binary: examples/student-union (47 migrations of its
 * own, the reference rules through a mapping, fixtures completed from its catalog) with R07 and
 * R14, whose requests are mostly `rpc` (about 55% and 90%). Its cases per second on 1 and 2
 * workers (cases over the properties' own time, from summary.json), and its start to first case
 * with its template kept (the second and later runs). The first run builds and keeps the template
 * and is not counted; the medians of a few runs each are printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../cli/paths.ts';

const PROPERTIES = process.env.BENCH_USER_PACK_ONLY ?? 'R07,R14';
const RUNS = Number(process.env.BENCH_USER_PACK_RUNS ?? 1200);
const ROUNDS = Number(process.env.BENCH_USER_PACK_ROUNDS ?? 3);
const SEED = 20261126;
const EXAMPLE = path.join(PROJECT_ROOT, 'examples', 'student-union');

interface PackRun {
  casesPerSecond: number;
  /** From the run's start until its first case could run (summary.json timings), when the summary has it. */
  startupMs?: number;
  rpcShare: number;
  wallMs: number;
}

interface SummaryLike {
  properties: { id: string; status: string; cases: number; durationMs: number; access?: Record<string, number> }[];
  timings?: { startupMs: number };
}

function packRun(workers: number, seed: number): PackRun {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-user-pack-'));
  try {
    const args = ['fuzz', '--config', 'policyfuzz.config.json', '--only', PROPERTIES, '--runs', String(RUNS), '--workers', String(workers), '--seed', String(seed), '--no-sso', '--no-replay', '--time-budget', '10m', '-q', '--report-dir', dir, '--failures-dir', path.join(dir, 'failures'), '--report', 'json'];
    const started = performance.now();
    const r = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'policyfuzz.mjs'), ...args], { cwd: EXAMPLE, encoding: 'utf8' });
    const wallMs = performance.now() - started;
    if (r.status !== 0) throw new Error(`student-union run exited ${r.status}: ${r.stdout}${r.stderr}`);
    const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as SummaryLike;
    const props = summary.properties.filter((p) => PROPERTIES.split(',').includes(p.id));
    const cases = props.reduce((n, p) => n + p.cases, 0);
    const ms = props.reduce((n, p) => n + p.durationMs, 0);
    let rpc = 0;
    let steps = 0;
    for (const p of props) for (const [cell, n] of Object.entries(p.access ?? {})) ((steps += n), cell.startsWith('rpc ') && (rpc += n));
    return { casesPerSecond: cases / (ms / 1000), ...(summary.timings ? { startupMs: summary.timings.startupMs } : {}), rpcShare: steps ? rpc / steps : 0, wallMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function userPack(): string[] {
  // Builds and keeps the template (not counted).
  packRun(1, SEED);
  const byWorkers = new Map<number, PackRun[]>([
    [1, []],
    [2, []],
  ]);
  // Interleaved, so a drift in the machine's load reaches both alike.
  for (let round = 0; round < ROUNDS; round++) for (const w of [1, 2]) byWorkers.get(w)!.push(packRun(w, SEED + round));
  const lines = [`rpc-heavy user pack (examples/student-union, ${PROPERTIES}, ${RUNS} cases each; medians of ${ROUNDS} runs, the template kept):`];
  for (const [w, runs] of byWorkers) {
    const startups = runs.flatMap((r) => (r.startupMs !== undefined ? [r.startupMs] : []));
    lines.push(
      `  ${w} worker(s): ${median(runs.map((r) => r.casesPerSecond)).toFixed(0)} cases/s (${(100 * median(runs.map((r) => r.rpcShare))).toFixed(0)}% of requests rpc; runs: ${runs.map((r) => r.casesPerSecond.toFixed(0)).join(', ')})` +
        (startups.length ? `, start to first case ${median(startups).toFixed(0)} ms (cached template)` : '') +
        `, whole run ${median(runs.map((r) => r.wallMs)).toFixed(0)} ms`,
    );
  }
  return lines;
}
