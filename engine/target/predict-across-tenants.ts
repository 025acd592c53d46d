/**
 * The model's answer to a step on a world holding a second tenant's copy (second-tenant.ts): the
 * one path every prediction of a case takes (runner/case-predictions.ts, the repros). Apart from
 * second-tenant.ts because it calls the model (model/predict.ts reaches the fixtures, which read
 * that file). Pure.
 */
import type { World } from '../model/world.ts';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { Outcome } from '../model/outcome.ts';
import { predict, type Prediction } from '../model/predict.ts';
import type { Oracle } from '../pack.ts';
import { holdsSecondTenant, joined, splitByTenant } from './second-tenant.ts';

/** The secure reading a caller's answer holding the copy's rows anon may reach is accepted as (named in the run's note and near a failure). */
export const PUBLIC_IN_EVERY_TENANT = 'another-tenant-public-rows';

/** The rows of `second` anon may read, table by table, by the model's rules: what is public in every tenant. */
function publicRows(oracle: Oracle, second: World): World {
  let kept = publicRowsOf.get(oracle)?.get(second);
  if (kept) return kept;
  kept = {};
  for (const table of Object.keys(second)) {
    if (!oracle.model.tables[table]) continue;
    try {
      const read = predict(oracle, second, { kind: 'anon' }, { kind: 'select', table, columns: '*', filters: [] } as unknown as ApiRequest).outcome;
      const keys = oracle.model.tables[table].primaryKey;
      if ((read.kind === 'allowed' || read.kind === 'filtered') && read.rows?.length) kept[table] = second[table].filter((r) => read.rows!.some((v) => keys.every((k) => JSON.stringify(v[k] ?? null) === JSON.stringify(r[k] ?? null))));
    } catch {
      // A table the model cannot read as anon: nothing of it is public.
    }
  }
  if (!publicRowsOf.has(oracle)) publicRowsOf.set(oracle, new WeakMap());
  publicRowsOf.get(oracle)!.set(second, kept);
  return kept;
}

const publicRowsOf = new WeakMap<Oracle, WeakMap<World, World>>();

/**
 * The model's answer to a step on a world holding a second tenant's copy: a signed-in caller's
 * from their tenant's rows (the copy kept as it was), also accepting the answer that holds the
 * copy's public rows (anon's reach) or anon's own answer on the copy where that changes nothing;
 * anon's and the server's from the whole world. Without a copy, the model's answer.
 */
export function predictAcrossTenants(oracle: Oracle, world: World, caller: Caller, request: ApiRequest): Prediction {
  if (caller.kind !== 'user' || !holdsSecondTenant(world)) return predict(oracle, world, caller, request);
  const { caller: own, second } = splitByTenant(world);
  const made = predict(oracle, own, caller, request);
  const alternatives: Outcome[] = [];
  const open = publicRows(oracle, second);
  if (Object.keys(open).length) {
    const withPublic = predict(oracle, joined(own, open), caller, request);
    if (JSON.stringify(withPublic.outcome) !== JSON.stringify(made.outcome)) alternatives.push({ ...withPublic.outcome, reading: PUBLIC_IN_EVERY_TENANT });
  }
  if (request.kind === 'rpc') {
    const anon = predict(oracle, second, { kind: 'anon' }, request);
    if (anon.world === second && (anon.outcome.kind === 'allowed' || anon.outcome.kind === 'filtered')) alternatives.push({ ...anon.outcome, reading: PUBLIC_IN_EVERY_TENANT });
  }
  const outcome = alternatives.length ? ({ ...made.outcome, orElse: [...(made.outcome.orElse ?? []), ...alternatives] } as Outcome) : made.outcome;
  return { ...made, outcome, world: joined(made.world, second) };
}
