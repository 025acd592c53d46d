/**
 * Runs properties against each mutant, on a fresh database built from the migrations plus the
 * mutant (a scratch copy of the kept template of the migrations it leaves unedited, with the rest
 * applied on top), and records which properties killed it and how long the first kill took.
 */
import type { DatabaseServer } from '../db/providers/server.ts';
import type { DataProperty } from '../runner/data-property.ts';
import type { CatalogProperty } from '../runner/catalog-property.ts';
import { openSession, type SessionTarget } from '../run/session.ts';
import type { PropertyResult, PropertyStatus } from '../runner/result.ts';
import { applyEdits, extraSql, unchangedPrefix, type Mutant } from './mutant-files.ts';

export interface KillResult {
  mutant: string;
  bug: string;
  /** property id → killed? */
  verdicts: Record<string, 'killed' | 'survived' | 'error'>;
  killedBy: string[];
  /** Time from the start of the first property run until the first kill (ms). */
  timeToKillMs?: number;
  notes: string[];
  /** A signal cut its properties short before any killed it: no verdict (neither killed nor survived). */
  interrupted?: true;
}

export interface KillOptions {
  server: DatabaseServer;
  /** The unmutated target: its migrations, model, compatibility switch and fixture plan. */
  target: SessionTarget;
  properties: DataProperty[];
  seed: number;
  runs: number;
  /** Catalog properties (rules 15, 16): checked before the data properties, when the mutant names them. */
  catalogProperties?: CatalogProperty[];
  /** Run every property on every mutant (the kill matrix) or only the ones the mutant names. */
  all?: boolean;
  /** Every data property's result on the mutant (a measurement of its findings, e.g. shrunk sizes). */
  onResult?: (mutant: Mutant, result: PropertyResult) => void;
  /** false: a kill's finding is reported unshrunk (the test suite only needs the kill). Default true. */
  shrink?: boolean;
  /** True once the run is interrupted (a signal): the properties stop after the cases in flight. */
  stop?: () => boolean;
}

export async function killMutant(mutant: Mutant, options: KillOptions): Promise<KillResult> {
  const session = await openSession({ target: options.target, server: options.server, migrations: applyEdits(mutant, options.target.migrations), keptPrefix: unchangedPrefix(mutant, options.target.migrations), extra: extraSql(mutant) });
  const result: KillResult = { mutant: mutant.name, bug: mutant.bug, verdicts: {}, killedBy: [], notes: [] };
  try {
    const targets = headerFirst(options.properties, mutant.rules, options.all);
    const started = Date.now();
    const catalog = headerFirst(options.catalogProperties ?? [], mutant.rules, options.all);
    // One catalog query each: checked first, it kills a catalog defect in milliseconds.
    for (const property of catalog) {
      const r = await session.catalog(property, options.seed);
      const key = `${property.id}:catalog`;
      if (r.status === 'failed') {
        result.verdicts[key] = 'killed';
        result.killedBy.push(key);
        result.timeToKillMs ??= Date.now() - started;
        if (!options.all) break;
      } else if (judgedAndHeld(r.status)) {
        result.verdicts[key] = 'survived';
      } else {
        result.verdicts[key] = 'error';
        result.notes.push(`${key}: ${r.note ?? r.status}`);
      }
    }
    // Narrowed to the target's tables; a property the target cannot run is skipped.
    for (const fitted of result.killedBy.length && !options.all ? [] : session.fit(targets, options.seed)) {
      if (!fitted.runnable) {
        // Not run on this target (not applicable, a misfit): it judged nothing, and the notes say why.
        result.notes.push(`${fitted.listed.id}: not run on this target (${fitted.result.note?.split('\n')[0] ?? fitted.result.status})`);
        continue;
      }
      if (options.stop?.()) {
        result.interrupted = true;
        break;
      }
      const { property } = fitted;
      const before = Date.now();
      const r = await session.run(property, { seed: options.seed, runs: options.runs, stopAtFirst: true, ...(options.shrink === false ? { shrink: false } : {}), ...(options.stop ? { stop: options.stop } : {}) });
      options.onResult?.(mutant, r);
      // Cut short before a kill: the cases it did not run might have killed it.
      if (r.status !== 'failed' && (r.stopped === 'interrupted' || options.stop?.())) {
        result.interrupted = true;
        break;
      }
      if (r.status === 'failed') {
        result.verdicts[property.id] = 'killed';
        result.killedBy.push(property.id);
        // Time to kill: until the first disagreement, not including shrinking it.
        result.timeToKillMs ??= before - started + (r.firstFailureMs ?? Date.now() - before);
        if (!options.all) break;
      } else if (judgedAndHeld(r.status)) {
        result.verdicts[property.id] = 'survived';
      } else {
        // Every case dropped, a harness error, not reached or not applicable: this property judged
        // nothing of the mutant, and says why in the notes. A mutant no property judged has no
        // verdict (killVerdict), never a survivor.
        result.verdicts[property.id] = 'error';
        result.notes.push(`${property.id}: ${r.note ?? r.status}`);
      }
    }
  } finally {
    await session.close();
  }
  if (result.killedBy.length) delete result.interrupted;
  return result;
}

/**
 * A run mutant's verdict: killed by some property; survived, when at least one property ran its
 * cases on it and held; otherwise no verdict (every case of each property dropped, a harness error,
 * or none could run on this target): it was never judged, so it is no survivor.
 */
/** A property that ran its cases on the mutant and held (all of them, or a budget's share): the only ground for 'survived'. */
export function judgedAndHeld(status: PropertyStatus): boolean {
  return status === 'passed' || status === 'partial';
}

export function killVerdict(r: KillResult): 'killed' | 'survived' | 'no-verdict' {
  if (r.killedBy.length) return 'killed';
  return Object.values(r.verdicts).includes('survived') ? 'survived' : 'no-verdict';
}

/** Why a mutant has no verdict (killVerdict): what each property it names said. */
export function noVerdictReason(r: KillResult): string {
  return `no verdict: ${r.notes.length ? r.notes.join('; ') : 'no property it names runs on this target'}`;
}

/**
 * The properties a mutant names, in its header's order (the author lists the likeliest killer
 * first, so a kill comes sooner), then with `all` every other property in list order.
 */
export function headerFirst<P extends { id: string }>(properties: readonly P[], rules: readonly string[], all?: boolean): P[] {
  const named = [...new Set(rules)].flatMap((rule) => properties.filter((p) => p.id === rule));
  return all ? [...named, ...properties.filter((p) => !rules.includes(p.id))] : named;
}
