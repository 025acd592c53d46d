/**
 * `policyfuzz/vitest`: run a pack's properties inside your own vitest suite, one test each, in
 * the style of @fast-check/vitest. The target is resolved as `policyfuzz fuzz` resolves it (the
 * same engine entry, engine/run/session.ts): a config file or object (folders, settings, rules,
 * fixtures, mapping), or migration folders. The database is a throwaway Postgres (DATABASE_URL,
 * else testcontainers, else the embedded one), opened once for the file and closed after it.
 *
 *   import { describePack } from 'policyfuzz/vitest';
 *   import pack from './policyfuzz.pack.ts';
 *   describePack(pack, { config: 'policyfuzz.config.json' });
 *   // or: describePack(pack, { migrations: 'supabase/migrations' });
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { chooseRecordedTarget, refineTarget, resolveTarget, ruleAllowed, type Target, type TargetOverrides } from '../engine/config/target.ts';
import { packSource, type Pack } from '../engine/pack.ts';
import { withCasesBlamingItsPack, withCasesBlamingThePack } from '../engine/config/pack-module.ts';
import { loadFailure, targetOfRecord } from '../engine/failures/store.ts';
import { describeOutcome } from '../engine/failures/describe.ts';
import { referencePack } from '../packs/reference/index.ts';
import { openSession, sessionOn, type DataProperty, type Fitted, type PropertyResult, type Session } from '../engine/run/index.ts';
import type { Environment } from '../engine/runner/environment.ts';
import { oracleOf, packSettings } from '../engine/pack.ts';
import type { TargetMapping } from '../engine/mapping/mapping.ts';

export interface PackTestOptions<S = unknown> {
  /**
   * A policyfuzz config, as `fuzz --config` takes it: a file path (policyfuzz.config.json or .ts),
   * or the config object itself (its folders relative to the current folder). Its migrations,
   * skip list, settings (`model`), rules, fixtures and mapping all apply.
   */
  config?: string | Record<string, unknown>;
  /** Migration folder(s) when there is no config; default: the pack's own. */
  migrations?: string | string[];
  /** Migration file names to leave out (as `--skip`). */
  skip?: string[];
  /** Overrides of the pack's settings (over the config's `model`). */
  settings?: Partial<S> | Record<string, unknown>;
  /** The config's `fixtures` block, field by field (how users are written, triggers to bypass, tables to empty). */
  fixtures?: TargetOverrides['fixtures'];
  /** More mapping, over the pack's and the config's. */
  mapping?: TargetMapping;
  seed?: number;
  runs?: number;
  databaseUrl?: string;
  supabaseCompat?: boolean;
  /** Only these property ids. */
  only?: string[];
  /** Per test (ms). */
  timeout?: number;
}

/** The target these options name, resolved as `fuzz` resolves one. */
export async function resolvePackTarget<S>(pack: Pack<S>, options: PackTestOptions<S> = {}): Promise<Target> {
  const where = `describePack(${pack.name})`;
  let target: Target;
  if (options.config !== undefined) {
    if (options.migrations) throw new Error(`policyfuzz: ${where}: give "config" or "migrations", not both (the config lists its folders under "migrations")`);
    const config = typeof options.config === 'string' ? options.config : { object: options.config, label: `the config given to ${where}` };
    target = await resolveTarget(pack as Pack, { config, migrations: [], skip: options.skip });
  } else {
    const folders = options.migrations ? [options.migrations].flat() : pack.migrations ? [pack.migrations] : [];
    if (folders.length === 0) throw new Error(`policyfuzz: pack ${pack.name} names no migrations; pass { config: 'policyfuzz.config.json' } or { migrations: 'supabase/migrations' }`);
    target = await resolveTarget(pack as Pack, { migrations: folders, explicitMigrations: true, skip: options.skip });
  }
  const { settings, fixtures, mapping, supabaseCompat } = options;
  return refineTarget(target, pack as Pack, { ...(settings ? { settings: settings as Record<string, unknown> } : {}), ...(fixtures ? { fixtures } : {}), ...(mapping ? { mapping } : {}), ...(supabaseCompat !== undefined ? { supabaseCompat } : {}) }, where);
}

/** A property's result as the error a failing test shows: the message, the case, the replay. */
export function failureText(result: PropertyResult): string {
  if (result.status === 'failed' && result.failure) {
    const f = result.failure;
    const others = (result.findings ?? []).filter((o) => o !== f);
    const more = others.length ? `\n${others.length} other distinct finding(s):\n${others.map((o) => `  ${o.signature} (seed ${o.seed}, path ${o.path})`).join('\n')}` : '';
    return `${result.id} ${result.title}\n${f.message}\nmodel:    ${JSON.stringify(f.expected)}\ndatabase: ${JSON.stringify(f.actual)}\ncase:     ${JSON.stringify(f.counterexample)}\nreplay:   seed ${f.seed}, path ${f.path}${more}`;
  }
  return `${result.id} ${result.title}: ${result.status}${result.note ? ` (${result.note})` : ''}`;
}

/**
 * Runs one property and throws with a readable failure unless it holds. On a session (the way
 * describePack runs), the property is first fitted to the target; on a bare environment (the
 * older route), it runs as given with the pack's settings.
 */
export async function assertProperty<S>(on: Session | Environment, pack: Pack<S>, property: DataProperty<S>, options: Omit<PackTestOptions<S>, 'migrations' | 'only' | 'config'> = {}): Promise<PropertyResult> {
  const run = { seed: options.seed ?? 1, runs: options.runs ?? 100 };
  // A bare environment gets a session on it, with the pack's settings: one engine path either way.
  const session = 'fit' in on ? on : sessionOn(on, { migrations: [], oracle: oracleOf(pack, packSettings(pack, options.settings ?? {})) as never, supabaseCompat: true, fixtures: on.workers[0].tx.fixturePlan }, undefined, pack as Pack);
  const [fitted] = session.fit([withCasesBlamingItsPack(property as DataProperty, pack.name)], run.seed);
  const result = fitted.runnable ? await session.verdict(fitted.property, run) : fitted.result;
  if (result.status !== 'passed' && result.status !== 'not-applicable') throw new Error(failureText(result));
  return result;
}

/**
 * One vitest test per property of the pack that the target's rules allow; a property the target
 * cannot run (its tables are missing) is skipped with the reason, one whose settings do not fit
 * the schema fails with the harness's explanation, as in `fuzz`.
 */
export function describePack<S>(given: Pack<S>, options: PackTestOptions<S> = {}): void {
  // Its generators' mistakes (a .filter() accepting nothing) stop the draw as they do in `fuzz`.
  const pack = withCasesBlamingThePack(given);
  describe(`policyfuzz: ${pack.name}`, () => {
    let session: Session | undefined;
    const fitted = new Map<string, Fitted>();
    beforeAll(async () => {
      const target = await resolvePackTarget(pack, options);
      session = await openSession({ target, pack: pack as Pack, databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL });
      for (const f of session.fit(pack.properties as DataProperty[], options.seed ?? 1)) fitted.set(f.listed.id, f);
    }, 300_000);
    afterAll(async () => {
      await session?.close();
    });
    for (const property of pack.properties.filter((p) => !options.only || options.only.includes(p.id))) {
      it(`${property.id} ${property.title}`, async (ctx) => {
        const f = fitted.get(property.id)!;
        if (session && !ruleAllowed(session.target.config, property.id)) return ctx.skip(`left out by the config's rules`);
        if (!f.runnable) {
          if (f.result.status === 'not-applicable') return ctx.skip(f.result.note);
          throw new Error(failureText(f.result));
        }
        const result = await session!.verdict(f.property, { seed: options.seed ?? 1, runs: options.runs ?? 100 });
        if (result.status !== 'passed') throw new Error(failureText(result));
      }, options.timeout ?? 120_000);
    }
  });
}

/**
 * Replays a saved data-layer failure (`.policyfuzz/failures/<id>.json`) on the target it was found
 * on (its config, or its migration folders and pack module), as `policyfuzz replay` does once,
 * and throws while model and database still disagree on it: the body of the `.regression.ts` a
 * run writes beside each failure of a project.
 */
export async function replaySavedFailure(file: string, options: { databaseUrl?: string } = {}): Promise<void> {
  const record = loadFailure(file);
  if (record.area !== 'data') throw new Error(`policyfuzz: ${file} is an SSO failure; replay it with policyfuzz replay ${file}`);
  const { target, pack } = await chooseRecordedTarget(packSource(referencePack), { target: targetOfRecord(record, file), migrations: record.migrations, migrationsDigest: record.migrationsDigest }, {}, undefined);
  const session = await openSession({ target, pack, databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL });
  try {
    const m = await session.replay(record);
    if (m) throw new Error(`${record.property} ${record.title} still fails (${file}): step ${m.step + 1}: ${m.reason}\nmodel:    ${describeOutcome(m.expected)}\ndatabase: ${describeOutcome(m.actual)}`);
  } finally {
    await session.close();
  }
}
