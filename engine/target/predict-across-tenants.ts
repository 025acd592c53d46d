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
import { holdsSecondTenant, joined, namesSecondTenant, splitByTenant } from './second-tenant.ts';

/** The secure reading a caller's answer holding the copy's rows anon may reach is accepted as (named in the run's note and near a failure). */
export const PUBLIC_IN_EVERY_TENANT = 'another-tenant-public-rows';

/** The rows of `second` anon may read, table by table, by the model's rules: what is public in every tenant. Kept per world predicted from. */
function publicRows(oracle: Oracle, world: World, second: World): World {
  let kept = publicRowsOf.get(oracle)?.get(world);
  if (kept) return kept;
  kept = {};
  for (const table of Object.keys(second)) {
    const model = oracle.model.tables[table];
    if (!model || model.view) continue;
    try {
      const read = predict(oracle, second, { kind: 'anon' }, { kind: 'select', table, columns: '*', filters: [] }).outcome;
      const keys = model.primaryKey;
      if ((read.kind === 'allowed' || read.kind === 'filtered') && read.rows?.length) kept[table] = second[table].filter((r) => read.rows!.some((v) => keys.every((k) => JSON.stringify(v[k] ?? null) === JSON.stringify(r[k] ?? null))));
    } catch {
      // A table the model cannot read as anon: nothing of it is public.
    }
  }
  if (!publicRowsOf.has(oracle)) publicRowsOf.set(oracle, new WeakMap());
  publicRowsOf.get(oracle)!.set(world, kept);
  return kept;
}

const publicRowsOf = new WeakMap<Oracle, WeakMap<World, World>>();

const reads = (o: Outcome): o is Extract<Outcome, { kind: 'allowed' | 'filtered' }> => o.kind === 'allowed' || o.kind === 'filtered';

/**
 * The model's answer to a step on a world holding a second tenant's copy: a signed-in caller's
 * from their tenant's rows (the copy kept as it was); also accepted, as the secure reading
 * PUBLIC_IN_EVERY_TENANT, the answer holding the copy's rows anon may read; and for a function anon
 * may call on the copy, the caller's answer as if one tenant held every row (the public board, the
 * org chart) and anon's own (a ticket by id); where anon's call changes the copy (a public comment),
 * the caller's as if one tenant held every row, or the refusal. Anon's and the server's answers
 * from the whole world. Without a copy, the model's answer.
 */
export function predictAcrossTenants(oracle: Oracle, world: World, caller: Caller, request: ApiRequest): Prediction {
  if (caller.kind !== 'user' || !holdsSecondTenant(world)) return predict(oracle, world, caller, request);
  const { caller: own, second } = splitByTenant(world);
  const made = predict(oracle, own, caller, request);
  const alternatives: Outcome[] = [];
  const open = publicRows(oracle, world, second);
  if (Object.keys(open).length) {
    const withPublic = predict(oracle, joined(own, open), caller, request);
    if (JSON.stringify(withPublic.outcome) !== JSON.stringify(made.outcome)) alternatives.push({ ...withPublic.outcome, reading: PUBLIC_IN_EVERY_TENANT });
  }
  if (request.kind === 'rpc') {
    // A call anon may make on the copy reaches nothing a tenant keeps: what anon may reach, anyone may.
    const anon = predict(oracle, second, { kind: 'anon' }, request);
    if (reads(anon.outcome)) {
      // As if one tenant held every row (the board, the org chart of both): the caller's answer, blind to tenants.
      const blind = predict(oracle, world, caller, request);
      if (anon.world !== second) {
        // A write anon may make on the copy's row (a public comment): the caller may make it too, or be refused.
        if (namesSecondTenant(request)) return { ...blind, outcome: { ...blind.outcome, orElse: [...(blind.outcome.orElse ?? []), { ...made.outcome, reading: PUBLIC_IN_EVERY_TENANT }] } as Outcome };
      } else {
        if (JSON.stringify(blind.outcome) !== JSON.stringify(made.outcome)) alternatives.push({ ...blind.outcome, reading: PUBLIC_IN_EVERY_TENANT });
        const mine = made.outcome;
        if (reads(mine) && mine.rows && anon.outcome.rows) alternatives.push({ kind: 'allowed', rows: [...mine.rows, ...anon.outcome.rows], affected: mine.affected + anon.outcome.affected, reading: PUBLIC_IN_EVERY_TENANT });
        // Instead of the caller's: only a call naming the copy's row (a twin), as anon may make it.
        if (namesSecondTenant(request)) alternatives.push({ ...anon.outcome, reading: PUBLIC_IN_EVERY_TENANT });
      }
    }
  }
  const outcome = alternatives.length ? ({ ...made.outcome, orElse: [...(made.outcome.orElse ?? []), ...alternatives] } as Outcome) : made.outcome;
  return { ...made, outcome, world: joined(made.world, second) };
}
