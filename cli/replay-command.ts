/**
 * `policyfuzz replay <file>`: re-runs one saved failure. FIXED (exit 0) only after three clean
 * replays; STILL FAILING (exit 1) when every replay fails; FLAKY (exit 1) when some do. A data-layer
 * failure is replayed straight from its plain-data case (no fast-check); an SSO failure by its
 * seed and path against the bundled emulator.
 */
import { chooseRecordedTarget } from '../engine/config/target.ts';
import { openSession } from '../engine/run/index.ts';
import { actualOutcomeOf, describeOutcome } from '../engine/failures/describe.ts';
import { CLEAN_REPLAYS_FOR_FIXED, verdictOf, type ReplayVerdict } from '../engine/failures/replay.ts';
import { loadFailure, targetOfRecord } from '../engine/failures/store.ts';
import { UsageError } from '../engine/errors.ts';
import { packSource, type Pack, type PackSource } from '../engine/pack.ts';
import { runSsoAgainstEmulator, ssoPropertyIds } from './sso-integration.ts';

export interface ReplayOptions {
  /** Migration folders (default: the ones the failure was found on). */
  migrations?: string[];
  /** Migration files left out (default: the ones the failure was found without). */
  skip?: string[];
  /** A config target (default: the one the failure was saved with, when it still exists). */
  config?: string;
  /** A pack module (`--pack`; default: the one the failure was found with). */
  packModule?: string;
  databaseUrl?: string;
  /** --migration-timeout, in ms. */
  migrationTimeout?: number;
  times?: number;
  ssoConfig?: string;
}

/** `pack`: the pack the CLI was given; a `--pack` module or the config's `pack` replaces it. */
export async function replay(file: string, options: ReplayOptions & { pack: Pack | PackSource }, out: (line: string) => void = console.log): Promise<number> {
  const record = loadFailure(file);
  const source = 'load' in options.pack ? options.pack : packSource(options.pack);
  // The target it was found on: its config (settings, folders, fixtures) or folders, and its pack.
  const given = { config: options.config, migrations: options.migrations, skip: options.skip, pack: options.packModule, migrationTimeout: options.migrationTimeout };
  const chosen = record.area === 'data' ? await chooseRecordedTarget(source, { target: targetOfRecord(record, file), migrations: record.migrations, migrationsDigest: record.migrationsDigest }, given, options.packModule ? undefined : source.migrations) : undefined;
  const known = chosen ? chosen.pack.properties.map((p) => p.id) : await ssoPropertyIds();
  if (!known.includes(record.property)) {
    throw new UsageError(`${file} names property ${JSON.stringify(record.property)}, which is not a${record.area === 'data' ? ' data-layer' : 'n SSO'} property (known: ${known.join(', ')}); was the file edited?`);
  }
  const times = options.times ?? CLEAN_REPLAYS_FOR_FIXED;
  const outcomes: Array<string | undefined> = [];
  if (record.area === 'data') {
    const { target, pack } = chosen!;
    out(`policyfuzz replay ${record.id}: ${record.property} ${record.title} (found with seed ${record.seed}, path ${record.path}), ${target.config ? `config ${target.config.file}` : `migrations ${target.label}`}${pack.name !== source.name ? `, pack ${pack.name}` : ''}`);
    const session = await openSession({ target, pack, databaseUrl: options.databaseUrl, log: out });
    try {
      const digest = session.env.template.digest;
      if (record.migrationsDigest && record.migrationsDigest !== digest) {
        out(`note: the migrations changed since this failure was saved (digest ${record.migrationsDigest} then, ${digest} now); replaying anyway`);
      }
      for (let i = 0; i < times; i++) {
        const m = await session.replay(record);
        outcomes.push(m ? `step ${m.step + 1}: ${m.reason}\n    model:    ${describeOutcome(m.expected)}\n    database: ${describeOutcome(m.actual)}` : undefined);
        out(`replay ${i + 1}/${times}: ${outcomes[i] ? `fails, ${outcomes[i]}` : 'model and database agree'}`);
      }
    } finally {
      await session.close();
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
