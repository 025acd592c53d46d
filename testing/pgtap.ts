/**
 * Running a generated pgTAP file under real pgTAP (Debian's, loaded from its SQL file) with psql,
 * as pg_prove does. Outside CI a machine without pgTAP skips such tests, saying how to install it;
 * in CI (CI=true, or POLICYFUZZ_REQUIRE_PGTAP=1 as .ci/run sets) pgTAP must be there.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { expect } from 'vitest';

const run = promisify(execFile);
/** `<root>/<version>/<rest>` for every Postgres version Debian installed, newest first. */
const perVersion = (root: string, rest: string) => (existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)).map((v) => path.join(root, v, rest)) : []);
const PGTAP_SQL = process.env.POLICYFUZZ_PGTAP_SQL ?? perVersion('/usr/share/postgresql', 'extension/pgtap.sql').find((p) => existsSync(p));
const PSQL = ['/usr/bin/psql', ...perVersion('/usr/lib/postgresql', 'bin/psql')].find((p) => existsSync(p));

/** What is missing to run pgTAP tests (undefined: nothing). Throws in CI, where it must be there. */
export function pgtapMissing(): string | undefined {
  const missing = !PGTAP_SQL || !existsSync(PGTAP_SQL) ? 'pgTAP (Debian: apt-get install pgtap, or set POLICYFUZZ_PGTAP_SQL to pgtap.sql)' : !PSQL ? 'psql (Debian: apt-get install postgresql-client)' : undefined;
  if (missing && (process.env.CI === 'true' || process.env.POLICYFUZZ_REQUIRE_PGTAP === '1')) throw new Error(`the pgTAP test needs ${missing}; .ci/run installs it`);
  if (missing) console.warn(`SKIPPED: the pgTAP test needs ${missing}`);
  return missing;
}

/** Loads pgTAP (its functions) into the database at `url`, once per database. */
const loaded = new Set<string>();
export async function loadPgtap(url: string): Promise<string> {
  if (loaded.has(url)) return url;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // A database cloned from one that has pgTAP already has it.
    const present = await admin.query(`select to_regprocedure('plan(integer)') is not null as present`);
    if (!present.rows[0].present) await admin.query(readFileSync(PGTAP_SQL!, 'utf8'));
  } finally {
    await admin.end();
  }
  loaded.add(url);
  return url;
}

/** The file as pg_prove runs it: psql, TAP on stdout; no SQL error, one result line per planned test. */
export async function prove(url: string, file: string): Promise<{ tap: string; ok: boolean }> {
  const r = await run(PSQL!, ['-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', '-d', url, '-f', file]).catch((e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: e.stderr }));
  expect(r.stderr.replace(/^psql:.*NOTICE.*\n?/gm, '')).not.toMatch(/ERROR/);
  const tap = r.stdout;
  const plan = /^1\.\.(\d+)$/m.exec(tap);
  expect(plan, tap).not.toBeNull();
  const results = tap.split('\n').filter((l) => /^(not )?ok \d+/.test(l));
  expect(results).toHaveLength(Number(plan![1]));
  return { tap, ok: results.every((l) => l.startsWith('ok')) };
}

/**
 * pgTAP in an environment's first worker database (never in its template: a kept template is
 * shared with later runs, engine/db/template-cache.ts), after its last case has ended.
 */
export async function withPgtap(env: { template: { url: string }; workers: Array<{ client: { database?: string }; tx: { flush(): Promise<void> } }> }): Promise<string> {
  await env.workers[0].tx.flush(); // the last case's rollback, still pending, holds its rows
  const url = new URL(env.template.url);
  url.pathname = `/${env.workers[0].client.database}`;
  return loadPgtap(url.toString());
}
