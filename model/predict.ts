/**
 * The oracle's entry point: what the data layer must answer to one request from one caller,
 * given the world, and the world after it.
 */
import { apiRoleOf, type Caller } from './caller.ts';
import { predictTableRequest, type Prediction } from './engine.ts';
import { sqlError } from './outcome.ts';
import { targetName, type ApiRequest } from './request.ts';
import type { ModelSettings } from './settings.ts';
import { tableModels } from './tables/index.ts';
import { functionModels } from './functions/index.ts';
import { executeDenied } from './functions/helpers.ts';
import type { World } from './world.ts';

export type { Prediction } from './engine.ts';

export function predict(world: World, caller: Caller, request: ApiRequest, settings: ModelSettings): Prediction {
  if (request.kind === 'rpc') {
    const name = targetName(request);
    const fn = functionModels[name];
    if (!fn) return { outcome: sqlError('PGRST202', `the model has no function ${name}`), world };
    const denied = executeDenied(fn, apiRoleOf(caller));
    if (denied) return { outcome: denied, world };
    return fn.predict(world, caller, request.args, settings);
  }
  const name = targetName(request);
  const model = tableModels[name];
  if (!model) return { outcome: sqlError('42P01', `the model has no table ${name}`), world };
  return predictTableRequest(model, world, caller, request, settings);
}
