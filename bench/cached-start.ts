/**
 * Start to first case on a project with many migrations (generated here, in a temp folder): every
 * run building its template (the cache off: what each run paid before issue 27), the first run with
 * the cache (it builds and keeps), the next runs (the kept template), and a run with two new
 * migrations (applied on top of the kept one). Local server; the medians of a few runs each.
 * And what a user waits for (cachedStartThroughBinary): `policyfuzz fuzz` spawned on the
 * reference's migrations followed by generated ones (150 in all), from spawn until its first case
 * could run, the CLI's own loading included, with the whole run's CPU (Node and the server).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { keptTemplateKey } from '../engine/db/databases.ts';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { LOCAL_CACHE_ROOT } from '../engine/db/providers/local-server.ts';
import { CATALOG_CACHE_DIR, openEnvironment, type StartupPhases } from '../engine/runner/environment.ts';
import { BUNDLED_MIGRATIONS, PROJECT_ROOT } from '../cli/paths.ts';
import type { RunSummary } from '../engine/report/summary.ts';
import { childrenCpuMs } from './cpu.ts';

const MIGRATIONS = Number(process.env.BENCH_MIGRATIONS ?? 160);
const RUNS = Number(process.env.BENCH_START_RUNS ?? 3);

/** Migration `i`: a table of its own with row security and policies, an index, a function; every tenth also changes an earlier table. */
function migration(i: number): string {
  const t = `public.item_${i}`;
  const lines = [
    `create table ${t} (id uuid primary key default gen_random_uuid(), owner uuid not null references auth.users (id), title text not null, amount numeric(10, 2) default 0, created_at timestamptz not null default now());`,
    `create index item_${i}_owner on ${t} (owner);`,
    `alter table ${t} enable row level security;`,
    `create policy item_${i}_read on ${t} for select to authenticated using (owner = auth.uid());`,
    `create policy item_${i}_write on ${t} for insert to authenticated with check (owner = auth.uid());`,
    `create policy item_${i}_change on ${t} for update to authenticated using (owner = auth.uid()) with check (owner = auth.uid());`,
    `grant select, insert, update on ${t} to authenticated;`,
    `create function public.item_${i}_total(who uuid) returns numeric language sql stable security definer set search_path = '' as $$ select coalesce(sum(amount), 0) from ${t} where owner = who $$;`,
  ];
  if (i % 10 === 9) lines.push(`alter table public.item_${i - 5} add column note text;`, `comment on table public.item_${i - 5} is 'changed by migration ${i}';`);
  return lines.join('\n') + '\n';
}

function project(count: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-migrations-'));
  for (let i = 0; i < count; i++) writeFileSync(path.join(dir, `${String(i).padStart(4, '0')}_item_${i}.sql`), migration(i));
  return dir;
}

/** Removes the kept data directories of these digests (the bench's own) and their kept catalogs, so its first cached run is a cold one. */
function forget(digests: string[]): void {
  if (!existsSync(LOCAL_CACHE_ROOT)) return;
  if (existsSync(CATALOG_CACHE_DIR)) for (const name of readdirSync(CATALOG_CACHE_DIR)) if (digests.some((d) => name.startsWith(`${d}-`))) rmSync(path.join(CATALOG_CACHE_DIR, name), { force: true });
  for (const version of readdirSync(LOCAL_CACHE_ROOT)) {
    if (version === path.basename(CATALOG_CACHE_DIR)) continue;
    for (const templates of readdirSync(path.join(LOCAL_CACHE_ROOT, version)).filter((n) => n.startsWith('templates-'))) {
      for (const digest of digests) {
        for (const entry of [digest, `${digest}.spare`]) rmSync(path.join(LOCAL_CACHE_ROOT, version, templates, entry), { recursive: true, force: true });
      }
    }
  }
}

async function start(dir: string, cacheTemplate: boolean): Promise<{ ms: number; note: string; phases: StartupPhases }> {
  const started = performance.now();
  const env = await openEnvironment({ provider: 'local', migrations: loadMigrationFolder(dir), workers: 1, cacheTemplate });
  const ms = performance.now() - started;
  await env.close();
  return { ms, note: env.readyNote, phases: env.startup };
}

function medianOf<T extends { ms: number }>(runs: T[]): T {
  return [...runs].sort((a, b) => a.ms - b.ms)[runs.length >> 1];
}

const phasesText = (p: StartupPhases) => `server ${p.serverMs}, template ${p.templateMs}, clone ${p.cloneMs}, workers ${p.workersMs} ms`;

export async function cachedStart(): Promise<string[]> {
  const dir = project(MIGRATIONS);
  const files = loadMigrationFolder(dir);
  const digests = [keptTemplateKey(files).digest];
  forget(digests);
  try {
    const uncached: Awaited<ReturnType<typeof start>>[] = [];
    for (let i = 0; i < RUNS; i++) uncached.push(await start(dir, false));
    const first = await start(dir, true);
    const cached: Awaited<ReturnType<typeof start>>[] = [];
    for (let i = 0; i < RUNS; i++) cached.push(await start(dir, true));
    for (const i of [MIGRATIONS, MIGRATIONS + 1]) writeFileSync(path.join(dir, `${String(i).padStart(4, '0')}_item_${i}.sql`), migration(i));
    digests.push(keptTemplateKey(loadMigrationFolder(dir)).digest);
    const extended = await start(dir, true);
    const before = medianOf(uncached);
    const after = medianOf(cached);
    const each = (runs: { ms: number }[]) => runs.map((r) => r.ms.toFixed(0)).join(', ');
    return [
      `start to first case, ${MIGRATIONS} generated migrations, local server (medians of ${RUNS}; goal: cached < 1000 ms):`,
      `  every run builds (cache off, as before): ${before.ms.toFixed(0)} ms (${phasesText(before.phases)}; runs: ${each(uncached)})`,
      `  first run with the cache (builds, keeps): ${first.ms.toFixed(0)} ms (${phasesText(first.phases)})`,
      `  next runs (kept template): ${after.ms.toFixed(0)} ms (${phasesText(after.phases)}; runs: ${each(cached)}) — ${(before.ms / after.ms).toFixed(1)}× faster`,
      `  two new migrations on top of the kept template: ${extended.ms.toFixed(0)} ms (${phasesText(extended.phases)}; ${extended.note})`,
    ];
  } finally {
    forget(digests);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Migrations in all of the project the binary runs on: the reference's, then generated ones. */
const BINARY_MIGRATIONS = Number(process.env.BENCH_BINARY_MIGRATIONS ?? 150);

interface BinaryStart {
  /** From spawn until the first case could run (summary.json startedAt + timings.startupMs). */
  ms: number;
  /** Of it, the CLI's own start: spawn until the run began (loading its modules, config, pack). */
  loadMs: number;
  wallMs: number;
  cpuMs: number;
  note: string;
}

function binaryStart(dir: string, report: string): BinaryStart {
  const cpuBefore = childrenCpuMs();
  const spawned = Date.now();
  // Its own local server (as cachedStart): on a lent DATABASE_URL the kept template would stay behind, and the CPU leave out the server.
  const r = spawnSync(
    process.execPath,
    [path.join(PROJECT_ROOT, 'bin', 'policyfuzz.mjs'), 'fuzz', '--migrations', dir, '--only', 'R02', '--runs', '1', '--seed', '1', '--no-sso', '--no-replay', '--provider', 'local', '--report-dir', report, '--failures-dir', path.join(report, 'f')],
    { cwd: dir, encoding: 'utf8' },
  );
  const wallMs = Date.now() - spawned;
  if (r.status !== 0) throw new Error(`the binary's run on ${BINARY_MIGRATIONS} migrations exited ${r.status}: ${r.stdout}${r.stderr}`);
  const summary = JSON.parse(readFileSync(path.join(report, 'summary.json'), 'utf8')) as RunSummary;
  const loadMs = Date.parse(summary.startedAt) - spawned;
  return { ms: loadMs + summary.timings!.startupMs, loadMs, wallMs, cpuMs: childrenCpuMs() - cpuBefore, note: /ready in [^\n]*/.exec(r.stdout)?.[0] ?? '' };
}

/** `policyfuzz fuzz --only R02 --runs 1` on a 150-migration project with its template kept: what a second run on an unchanged project waits for. */
export function cachedStartThroughBinary(): string[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-binary-start-'));
  const report = path.join(dir, 'report');
  const reference = readdirSync(BUNDLED_MIGRATIONS).filter((n) => n.endsWith('.sql'));
  for (const name of reference) copyFileSync(path.join(BUNDLED_MIGRATIONS, name), path.join(dir, name));
  for (let i = 0; i < BINARY_MIGRATIONS - reference.length; i++) writeFileSync(path.join(dir, `${1000 + i}_item_${i}.sql`), migration(i));
  const digests = [keptTemplateKey(loadMigrationFolder(dir)).digest];
  forget(digests);
  try {
    // Builds and keeps the template (not counted).
    binaryStart(dir, report);
    const runs: BinaryStart[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(binaryStart(dir, report));
    const mid = medianOf(runs);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    return [
      `cached second start through the binary (fuzz --only R02 --runs 1 --no-sso, ${BINARY_MIGRATIONS} migrations: the reference's and generated ones; medians of ${RUNS}; goal < 1000 ms):`,
      `  spawn to first case ${mid.ms} ms, of which the CLI's own start ${mid.loadMs} ms (${mid.note}; runs: ${runs.map((r) => r.ms).join(', ')}); whole run ${median(runs.map((r) => r.wallMs))} ms wall, ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms CPU (Node and the server)`,
    ];
  } finally {
    forget(digests);
    rmSync(dir, { recursive: true, force: true });
  }
}
