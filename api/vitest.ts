/**
 * `policyfuzz/vitest`: run a pack's properties inside your own vitest suite, one test each, in
 * the style of @fast-check/vitest. The database is a throwaway Postgres (DATABASE_URL, else
 * testcontainers, else the embedded one), opened once for the file and closed after it.
 *
 *   import { describePack } from 'policyfuzz/vitest';
 *   import pack from './policyfuzz.pack.ts';
 *   describePack(pack, { migrations: 'supabase/migrations' });
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { loadMigrationFolder } from '../engine/db/migrations.ts';
import { oracleOf, packSettings, type Pack } from '../engine/pack.ts';
import { applyCoverageGate } from '../engine/runner/coverage.ts';
import type { DataProperty } from '../engine/runner/data-property.ts';
import { openEnvironment, type Environment } from '../engine/runner/environment.ts';
import type { PropertyResult } from '../engine/runner/result.ts';
import { runDataProperty } from '../engine/runner/run-data-property.ts';

export interface PackTestOptions<S = unknown> {
  /** Migration folder(s); default: the pack's own. */
  migrations?: string | string[];
  /** Overrides of the pack's settings. */
  settings?: Partial<S> | Record<string, unknown>;
  seed?: number;
  runs?: number;
  databaseUrl?: string;
  supabaseCompat?: boolean;
  /** Only these property ids. */
  only?: string[];
  /** Per test (ms). */
  timeout?: number;
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

/** Runs one property against an open environment; throws with a readable failure unless it holds. */
export async function assertProperty<S>(env: Environment, pack: Pack<S>, property: DataProperty<S>, options: Omit<PackTestOptions<S>, 'migrations' | 'only'> = {}): Promise<PropertyResult> {
  const oracle = oracleOf(pack, packSettings(pack, options.settings ?? {}));
  const result = applyCoverageGate(await runDataProperty(env, property, { seed: options.seed ?? 1, runs: options.runs ?? 100, oracle }));
  if (result.status !== 'passed') throw new Error(failureText(result));
  return result;
}

/** One vitest test per property of the pack (narrowed to what the schema has). */
export function describePack<S>(pack: Pack<S>, options: PackTestOptions<S> = {}): void {
  describe(`policyfuzz: ${pack.name}`, () => {
    let env: Environment | undefined;
    beforeAll(async () => {
      const folders = options.migrations ? [options.migrations].flat() : pack.migrations ? [pack.migrations] : [];
      if (folders.length === 0) throw new Error(`policyfuzz: pack ${pack.name} names no migrations; pass { migrations: 'supabase/migrations' }`);
      env = await openEnvironment({
        databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL,
        migrations: folders.flatMap((f) => loadMigrationFolder(f)),
        workers: 1,
        supabaseCompat: options.supabaseCompat ?? true,
      });
    }, 120_000);
    afterAll(async () => {
      await env?.close();
    });
    for (const property of pack.properties.filter((p) => !options.only || options.only.includes(p.id))) {
      it(`${property.id} ${property.title}`, async () => {
        await assertProperty(env!, pack, property, options);
      }, options.timeout ?? 120_000);
    }
  });
}
