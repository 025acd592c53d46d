/**
 * Issue 27: what the database runs per case, counted, not timed. Each property of
 * BENCH_PROPERTIES (default R01,R03,R07,R14) runs through the binary (`fuzz --seed 1 --no-replay
 * --no-sso --only <id>`) against BENCH_DATABASE_URL, a server started with
 * `-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top`; its
 * top-level statements in the run's worker databases (dropped at the run's end: their stats are
 * what no live database owns) are sorted by kind, per case. pg_stat_statements counts only
 * statements that completed: a request the database refused is in none of the kinds.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:55731/postgres npx tsx bench/statements-per-case.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../cli/paths.ts';
import type { RunSummary } from '../engine/report/summary.ts';

/** Each kind by the statement text's start, first match wins (a PREPARE's text is its statement's). */
const KINDS: [string, RegExp][] = [
  ['pre-request settings', /^(prepare \S+ as )?select 1 as pf_settings/i],
  ['fixture insert', /^(prepare \S+ as )?insert into .* json_populate_recordset/is],
  ['savepoint', /^savepoint/i],
  ['rollback to savepoint', /^rollback to savepoint/i],
  ['release savepoint', /^release savepoint/i],
  ['set constraints all immediate', /^set constraints all immediate/i],
  ['set constraints … deferred', /^set constraints/i],
  ['reset role', /^reset role/i],
  ['reset all', /^reset all/i],
  ['reset session authorization', /^reset session/i],
  ['begin', /^begin/i],
  ['rollback', /^rollback/i],
  ['vacuum', /^vacuum/i],
  ['deallocate', /^deallocate/i],
  ['single-object / max-affected check', /^do /i],
  ['session-state probe', /pf_left/],
];

const kindOf = (query: string): string => KINDS.find(([, re]) => re.test(query.trim()))?.[0] ?? 'request (and the run\'s own catalog reads)';

async function countProperty(client: pg.Client, url: string, id: string): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-statements-'));
  try {
    await client.query('select pg_stat_statements_reset()');
    const args = ['fuzz', '--seed', '1', '--no-replay', '--no-sso', '--only', id, '--database-url', url, '--report-dir', dir, '--failures-dir', path.join(dir, 'f'), '-q'];
    const r = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'policyfuzz.mjs'), ...args], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    if (r.status !== 0) return [`${id}: the run exited ${r.status}: ${r.stderr.trim().split('\n').at(-1)}`];
    const summary = JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')) as RunSummary;
    const cases = summary.properties.reduce((n, p) => n + p.cases, 0);
    const { rows } = await client.query<{ query: string; calls: string }>(`select query, calls from pg_stat_statements where dbid not in (select oid from pg_database)`);
    const byKind = new Map<string, number>();
    for (const row of rows) byKind.set(kindOf(row.query), (byKind.get(kindOf(row.query)) ?? 0) + Number(row.calls));
    const total = [...byKind.values()].reduce((n, k) => n + k, 0);
    const perCase = (n: number) => (n / cases).toFixed(2);
    return [
      `${id}: ${perCase(total)} top-level statements per case (${cases} cases)`,
      ...[...byKind].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `  ${perCase(n).padStart(6)} ${kind}`),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const url = process.env.BENCH_DATABASE_URL;
if (!url) {
  console.error('BENCH_DATABASE_URL is not set: give the URL of a server started with -c shared_preload_libraries=pg_stat_statements');
  process.exit(2);
}
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  await client.query('create extension if not exists pg_stat_statements');
  for (const id of (process.env.BENCH_PROPERTIES ?? 'R01,R03,R07,R14').split(',')) console.log((await countProperty(client, url, id)).join('\n'));
} finally {
  await client.end();
}
