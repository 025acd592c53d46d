/**
 * The one engine entry: a pack on a target. `openSession` makes the target real (server, template
 * from its migrations, workers, schema cache, fixture plan from its catalog); the session then
 * fits properties to it (applicability under the mapping, vocabulary and settings fit), replays
 * saved failures, runs properties, observes cases for a diff and runs catalog properties.
 *
 * Every front-end goes through here — `fuzz`, `replay`, `diff`, `mutants` (hand-written and
 * `--auto`), `init` and `policyfuzz/vitest` — so they cannot disagree on what a target is or on
 * how a case is judged.
 */
import type { Target } from '../config/target.ts';
import type { MigrationFile } from '../db/migrations.ts';
import type { DatabaseServer } from '../db/providers/server.ts';
import type { ServerChoice } from '../db/providers/index.ts';
import type { FailureRecord } from '../failures/schema.ts';
import { replayDataCaseOnce } from '../failures/replay.ts';
import { observeCases, type SideRecord } from '../diff/behaviour-diff.ts';
import type { Oracle, Pack } from '../pack.ts';
import { fitToTarget, mappedNamesMissing, missingMappedNamesError, notApplicable, partialNote, unexposedFunctionSchema } from '../runner/applicability.ts';
import { withForeignKeyActions } from '../target/foreign-key-actions.ts';
import { withCallerFilled } from '../target/caller-filled.ts';
import { runCatalogProperty, type CatalogProperty } from '../runner/catalog-property.ts';
import type { StepMismatch } from '../runner/check-case.ts';
import { applyCoverageGate } from '../runner/coverage.ts';
import type { DataCase } from '../runner/data-case.ts';
import type { DataProperty } from '../runner/data-property.ts';
import { openEnvironment, type Environment, type Worker } from '../runner/environment.ts';
import { writtenSchemas } from '../mapping/mapping.ts';
import type { PropertyResult } from '../runner/result.ts';
import { runDataProperty, type DataRunOptions } from '../runner/run-data-property.ts';
import { misfitResult, misfitsInPlay, tableVocabularyMisfits } from '../runner/vocabulary-fit.ts';

/** What a session needs of a target (engine/config/target.ts resolveTarget, chooseTarget make whole ones). */
export type SessionTarget = Pick<Target, 'migrations' | 'oracle' | 'supabaseCompat' | 'fixtures' | 'api'> & Partial<Pick<Target, 'config' | 'label' | 'migrationTimeoutMs' | 'maxRows' | 'tokenAppMetadata'>>;

export interface SessionOptions extends ServerChoice {
  /** What to run on. */
  target: SessionTarget;
  /** The pack, for its settings check (settingsMisfits); absent: none. */
  pack?: Pack;
  /** The model as judged (default: the target's, with its settings). */
  oracle?: Oracle;
  /** Migrations other than the target's own (a diff's base state, a mutant's edited files). */
  migrations?: MigrationFile[];
  /** How many of `migrations` are the target's own, unedited: their template is kept and started from (a mutant's). */
  keptPrefix?: number;
  /** SQL applied after the migrations (a mutant's extra statements). */
  extra?: MigrationFile[];
  workers?: number;
  /** A server someone else owns (diff and mutants build several states on one); not stopped on close. */
  server?: DatabaseServer;
  log?: (line: string) => void;
}

/** A property as it stands on this target: to generate (narrowed to what the target has), or settled without generating. */
export type Fitted =
  | { listed: DataProperty; property: DataProperty; runnable: true; partial?: string }
  | { listed: DataProperty; runnable: false; result: PropertyResult };

export interface Session {
  readonly target: SessionTarget;
  readonly oracle: Oracle;
  readonly env: Environment;
  /** Each property fitted to the target, in order; `seed` goes into the settled results. */
  fit(properties: readonly DataProperty[], seed: number): Fitted[];
  /** Generates and checks a property's cases (DataRunOptions; the oracle is the session's). */
  run(property: DataProperty, options: Omit<DataRunOptions, 'oracle'>): Promise<PropertyResult>;
  /** run(), then the coverage gate: the verdict a property gets on its own. */
  verdict(property: DataProperty, options: Omit<DataRunOptions, 'oracle'>): Promise<PropertyResult>;
  /** A saved data-layer failure replayed once: its disagreement, or undefined when model and database agree. */
  replay(record: FailureRecord): Promise<StepMismatch | undefined>;
  /** Every case run on the first worker, each step's answer recorded (a behaviour diff). */
  observe(cases: readonly DataCase[]): Promise<SideRecord[]>;
  /** A catalog property (grants of every function and table). */
  catalog(property: CatalogProperty, seed: number): Promise<PropertyResult>;
  close(): Promise<void>;
}

export async function openSession(options: SessionOptions): Promise<Session> {
  const { target } = options;
  const oracle = options.oracle ?? target.oracle;
  const env = await openEnvironment({
    databaseUrl: options.databaseUrl,
    provider: options.provider,
    server: options.server,
    migrations: options.migrations ?? target.migrations,
    extra: options.extra,
    workers: options.workers ?? 1,
    log: options.log,
    supabaseCompat: target.supabaseCompat,
    ...(target.migrationTimeoutMs ? { migrationTimeoutMs: target.migrationTimeoutMs } : {}),
    fixtures: target.fixtures,
    ...(target.fixtures ? { writtenSchemas: writtenSchemas(oracle.model, target.fixtures.mapping) } : {}),
    api: target.api,
    ...(target.maxRows !== undefined ? { maxRows: target.maxRows } : {}),
    ...(target.tokenAppMetadata ? { tokenAppMetadata: target.tokenAppMetadata } : {}),
    // The target's own migrations are kept for the next run; a diff's base or a mutant's edits are not.
    cacheTemplate: !options.migrations || options.keptPrefix !== undefined,
    // A diff's base starts from a kept template of its migrations when there is one (main's, kept by a run there).
    reuseKeptTemplate: options.migrations !== undefined && options.keptPrefix === undefined,
    ...(options.keptPrefix !== undefined ? { keptPrefix: options.keptPrefix } : {}),
  });
  // The mapping's names are the target's own migrations' (a mutant's edits on them too); a diff's
  // base state may not have them yet, which is its state, not a mistake (engine/diff/run-diff.ts).
  const missing = !options.migrations || options.keptPrefix !== undefined ? mappedNamesMissing(env.cache, target.fixtures?.mapping) : [];
  if (missing.length) {
    await env.close();
    throw missingMappedNamesError(missing, target.config?.file ?? (options.pack ? `the mapping of pack ${options.pack.name}` : 'the mapping'));
  }
  return sessionOn(env, target, oracle, options.pack);
}

/**
 * A session on an environment already open (the older `openEnvironment` + `assertProperty` route
 * of policyfuzz/vitest): the same fit, run and verdict as openSession's. Closing it closes `env`.
 */
export function sessionOn(env: Environment, target: SessionTarget, given: Oracle = target.oracle, pack?: Pack): Session {
  // The model caps reads at the db-max-rows the executor applies (predict.ts maxRowsCap), and
  // predicts a DELETE's cascades by the target's foreign keys, and the owners its insert triggers fill.
  const capped: Oracle = { ...(env.cache.maxRows === undefined ? given : { ...given, maxRows: env.cache.maxRows }), codePointText: env.cache.codePointText === true };
  const mapping = target.fixtures?.mapping;
  const unexposedIn = unexposedFunctionSchema(env.cache, mapping);
  const unexposed = Object.keys(given.model.functions).filter((f) => unexposedIn(f) !== undefined);
  const oracle = withCallerFilled(withForeignKeyActions(unexposed.length ? { ...capped, unexposedFunctions: unexposed } : capped, env.workers[0].tx.fixturePlan), env.workers[0].tx.fixturePlan);
  const first = (): Worker => env.workers[0];
  return {
    target,
    oracle,
    env,
    fit(properties, seed) {
      const fromPack = pack?.settingsMisfits?.(oracle.settings) ?? [];
      const vocabulary = tableVocabularyMisfits(oracle, first().tx.fixturePlan.shapes, mapping);
      return properties.map((listed): Fitted => {
        const { property, missing, leftOut } = fitToTarget(listed, env.cache, mapping);
        if (missing.length) return { listed, runnable: false, result: notApplicable(listed, missing, seed) };
        // A table's misfit where that table is in play on this target (not among the parts left out).
        const misfits = misfitsInPlay(property, leftOut, [...vocabulary, ...fromPack.map((m) => (typeof m === 'string' ? { table: '', everywhere: true, text: m } : { ...m, everywhere: false }))]);
        if (misfits.length) return { listed, runnable: false, result: misfitResult(listed, misfits, seed, target.config?.file ?? 'the config') };
        const partial = partialNote(leftOut);
        return { listed, property, runnable: true, ...(partial ? { partial } : {}) };
      });
    },
    run: (property, runOptions) => runDataProperty(env, property, { ...runOptions, oracle }),
    async verdict(property, runOptions) {
      return applyCoverageGate(await runDataProperty(env, property, { ...runOptions, oracle }));
    },
    replay: (record) => replayDataCaseOnce(first(), record, oracle),
    observe: (cases) => observeCases(first(), cases, oracle),
    catalog: (property, seed) => runCatalogProperty(env, property, { seed, settings: oracle.settings, model: oracle.model }),
    close: () => env.close(),
  };
}
