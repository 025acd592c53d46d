/**
 * A worked example's project (examples/<name>: supabase/migrations, policyfuzz.config.json, a
 * pack) run as `fuzz` runs it, and its config with the migrations stopped before a fix: how the
 * examples show a historical bug caught before its fix and not after.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fuzz } from '../cli/fuzz-command.ts';
import type { DatabaseServer } from '../engine/db/providers/server.ts';
import { sharedServer } from './shared-server.ts';
import { tempDir } from './temp-dir.ts';
import type { Pack } from '../engine/pack.ts';
import type { RunSummary } from '../engine/report/summary.ts';

export interface ExampleProject {
  dir: string;
  pack: Pack;
  seed: number;
  /** Where runs write their reports and configs (the test's temp dir, once made). */
  tmp: () => string;
  databaseUrl: () => string;
}

export interface ExampleRun {
  code: number;
  summary: RunSummary;
  lines: string[];
}

export function exampleConfig(project: Pick<ExampleProject, 'dir'>): string {
  return path.join(project.dir, 'policyfuzz.config.json');
}

export function exampleMigrations(project: Pick<ExampleProject, 'dir'>): string {
  return path.join(project.dir, 'supabase', 'migrations');
}

/**
 * Every case of a run (a 10-minute budget: a loaded machine cuts none short, so no verdict is
 * PARTIAL) on one worker, the example's migrations under `config`.
 */
export async function runExample(project: ExampleProject, config: string, name: string, only?: string[], runs = 100): Promise<ExampleRun> {
  const lines: string[] = [];
  const reportDir = path.join(project.tmp(), name, 'report');
  const code = await fuzz(
    { config, migrations: exampleMigrations(project), pack: project.pack, databaseUrl: project.databaseUrl(), seed: project.seed, runs, workers: 1, timeBudget: 10 * 60_000, reportDir, failuresDir: path.join(project.tmp(), name, 'failures'), replay: false, ...(only ? { only } : {}) },
    (line) => lines.push(line),
  );
  return { code, lines, summary: JSON.parse(readFileSync(path.join(reportDir, 'summary.json'), 'utf8')) as RunSummary };
}

/** The project's config with the migrations stopped just before `fix` (it and every later file skipped). */
export function stoppedBefore(project: ExampleProject, fix: string): string {
  const migrations = exampleMigrations(project);
  const files = readdirSync(migrations).filter((f) => f.endsWith('.sql')).sort();
  const at = files.indexOf(fix);
  if (at < 0) throw new Error(`no migration ${fix}`);
  // Paths the config gives relative to itself, made absolute for the copy.
  const config = { ...JSON.parse(readFileSync(exampleConfig(project), 'utf8')), pack: path.join(project.dir, 'policyfuzz.pack.ts'), migrations, skip: files.slice(at) };
  const file = path.join(project.tmp(), `before-${fix}.json`);
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** An example's test file's project: the shared server and a temp dir (taken and given back by the file's hooks), its runs and stopped configs. */
export interface ExampleFile {
  readonly server: DatabaseServer;
  readonly tmp: string;
  config: string;
  migrations: string;
  run(config: string, name: string, only?: string[], runs?: number): Promise<ExampleRun>;
  stoppedBefore(fix: string): string;
}

/** Call at a test file's top level (it registers the file's beforeAll/afterAll). */
export function exampleFile(dir: string, pack: Pack, seed: number, name: string): ExampleFile {
  let server: DatabaseServer | undefined;
  let tmp: string | undefined;
  beforeAll(async () => {
    server = await sharedServer();
    tmp = tempDir(name);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const project: ExampleProject = { dir, pack, seed, tmp: () => tmp!, databaseUrl: () => server!.adminUrl };
  return {
    get server() {
      return server!;
    },
    get tmp() {
      return tmp!;
    },
    config: exampleConfig(project),
    migrations: exampleMigrations(project),
    run: (config, runName, only, runs) => runExample(project, config, runName, only, runs),
    stoppedBefore: (fix) => stoppedBefore(project, fix),
  };
}
