/**
 * The oracle's entry point: what the data layer must answer to one request from one caller,
 * given the world, and the world after it. The pack's models say what each table and function
 * does; the engine applies them with PostgreSQL's and PostgREST's semantics.
 */
import { apiRoleOf, type Caller } from './caller.ts';
import { predictTableRequest, type Prediction } from './engine.ts';
import { withBranches } from './branches.ts';
import { executeDenied } from './function-model.ts';
import { sqlError } from './outcome.ts';
import { targetName, type ApiRequest } from './request.ts';
import type { Oracle } from '../pack.ts';
import type { World } from './world.ts';

export type { Prediction } from './engine.ts';

/** The model's answer, with the branches it took on the way (branches.ts). */
export function predict(oracle: Oracle, world: World, caller: Caller, request: ApiRequest): Prediction {
  const { value, branches } = withBranches(() => predictRequest(oracle, world, caller, request));
  return { ...value, branches };
}

function predictRequest(oracle: Oracle, world: World, caller: Caller, request: ApiRequest): Prediction {
  const { model, settings } = oracle;
  if (request.kind === 'rpc') {
    const name = targetName(request);
    const fn = model.functions[name];
    if (!fn) return { outcome: sqlError('PGRST202', `the model has no function ${name}`), world };
    const denied = executeDenied(fn, apiRoleOf(caller));
    if (denied) return { outcome: denied, world };
    return fn.predict(world, caller, request.args, settings);
  }
  const name = targetName(request);
  const table = model.tables[name];
  if (!table) return { outcome: sqlError('42P01', `the model has no table ${name}`), world };
  return predictTableRequest(table, world, caller, request, settings);
}
