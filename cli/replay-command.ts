/**
 * `policyfuzz replay <file>`: re-runs one saved failure. FIXED (exit 0) only after three clean
 * replays; STILL FAILING (exit 1) when every replay fails; FLAKY (exit 1) when some do. A data-layer
 * failure is replayed straight from its plain-data case (no fast-check); an SSO failure by its
 * seed and path against the bundled emulator.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { resolveTarget } from '../engine/config/target.ts';
import { openEnvironment } from '../engine/runner/environment.ts';
import { actualOutcomeOf, describeOutcome } from '../engine/failures/describe.ts';
import { CLEAN_REPLAYS_FOR_FIXED, replayDataCaseOnce, verdictOf, type ReplayVerdict } from '../engine/failures/replay.ts';
import { loadFailure } from '../engine/failures/store.ts';
import { UsageError } from '../engine/errors.ts';
import type { Pack, PackSource } from '../engine/pack.ts';
import { positiveInt } from './options.ts';
import { runSsoAgainstEmulator, ssoPropertyIds } from './sso-integration.ts';

export interface ReplayOptions {
  migrations?: string;
  /** A config target (default: the one the failure was saved with, when it still exists). */
  config?: string;
  databaseUrl?: string;
  times?: number;
  ssoConfig?: string;
}

export async function replay(file: string, options: ReplayOptions & { pack: Pack }, out: (line: string) => void = console.log): Promise<number> {
  const record = loadFailure(file);
  const known = record.area === 'data' ? options.pack.properties.map((p) => p.id) : await ssoPropertyIds();
  if (!known.includes(record.property)) {
    throw new UsageError(`${file} names property ${JSON.stringify(record.property)}, which is not a${record.area === 'data' ? ' data-layer' : 'n SSO'} property (known: ${known.join(', ')}); was the file edited?`);
  }
  const times = options.times ?? CLEAN_REPLAYS_FOR_FIXED;
  const outcomes: Array<string | undefined> = [];
  if (record.area === 'data') {
    // The target it was found on: its config (settings, folders, fixtures) when it had one.
    const config = options.config ?? (!options.migrations && record.target?.config && existsSync(record.target.config) ? record.target.config : undefined);
    const folder = options.migrations ?? (record.migrations && existsSync(record.migrations) ? record.migrations : record.target?.migrations && existsSync(record.target.migrations) ? record.target.migrations : path.relative(process.cwd(), options.pack.migrations ?? '.') || options.pack.migrations || '.');
    const target = await resolveTarget(options.pack, { config, migrations: folder, explicitMigrations: true });
    out(`policyfuzz replay ${record.id}: ${record.property} ${record.title} (found with seed ${record.seed}, path ${record.path}), ${config ? `config ${config}` : `migrations ${folder}`}`);
    const env = await openEnvironment({ databaseUrl: options.databaseUrl, migrations: target.migrations, workers: 1, log: out, supabaseCompat: target.supabaseCompat, fixtures: target.fixtures });
    try {
      if (record.migrationsDigest && record.migrationsDigest !== env.template.digest) {
        out(`note: the migrations changed since this failure was saved (digest ${record.migrationsDigest} then, ${env.template.digest} now); replaying anyway`);
      }
      for (let i = 0; i < times; i++) {
        const m = await replayDataCaseOnce(env.workers[0], record, target.oracle);
        outcomes.push(m ? `step ${m.step + 1}: ${m.reason}\n    model:    ${describeOutcome(m.expected)}\n    database: ${describeOutcome(m.actual)}` : undefined);
        out(`replay ${i + 1}/${times}: ${outcomes[i] ? `fails, ${outcomes[i]}` : 'model and database agree'}`);
      }
    } finally {
      await env.close();
    }
  } else {
    out(`policyfuzz replay ${record.id}: ${record.property} ${record.title} (seed ${record.seed}, path ${record.path}) against the bundled SSO emulator`);
    for (let i = 0; i < times; i++) {
      const [r] = await runSsoAgainstEmulator({ seed: record.seed, numRuns: 1, only: [record.property], path: record.path, config: options.ssoConfig });
      const actual = actualOutcomeOf(r.failure?.actual);
      outcomes.push(r.status === 'failed' ? `${r.failure?.message ?? r.note}${actual ? ` (${describeOutcome(actual)})` : ''}` : r.status === 'error' ? `error: ${r.note}` : undefined);
      out(`replay ${i + 1}/${times}: ${outcomes[i] ? `fails, ${outcomes[i]}` : 'holds'}`);
    }
  }
  const verdict: ReplayVerdict = verdictOf(outcomes);
  const failing = outcomes.filter(Boolean).length;
  out(`\n${verdict}${verdict === 'FIXED' ? ` (${times} clean replays)` : ` (${failing} of ${times} replays failed)`}: ${file}`);
  return verdict === 'FIXED' ? 0 : 1;
}

export function registerReplayCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>, pack: PackSource): void {
  program
    .command('replay <file>')
    .description(`re-run one saved failure (.policyfuzz/failures/*.json): FIXED after ${CLEAN_REPLAYS_FOR_FIXED} clean replays (exit 0), STILL FAILING or FLAKY (exit 1)`)
    .option('--migrations <dir>', 'folder of .sql migrations (default: the one the failure was found on, else the bundled one)')
    .option('--config <file>', 'a project config (default: the one the failure was found with)')
    .option('--database-url <url>', 'use this Postgres server')
    .option('--times <n>', 'replays (all must be clean for FIXED)', positiveInt('--times'), CLEAN_REPLAYS_FOR_FIXED)
    .option('--sso-config <file>', 'emulator config for an SSO failure')
    .action((file: string, opts: ReplayOptions) => run(async () => replay(file, { ...opts, pack: await pack.load() })));
}
