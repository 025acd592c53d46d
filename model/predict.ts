/**
 * The oracle's entry point: what the data layer must answer to one request from one caller,
 * given the world, and the world after it.
 */
import type { Caller } from './caller.ts';
import { predictTableRequest, type Prediction } from './engine.ts';
import { sqlError } from './outcome.ts';
import type { ApiRequest } from './request.ts';
import type { ModelSettings } from './settings.ts';
import { tableModels } from './tables/index.ts';
import type { World } from './world.ts';

export type { Prediction } from './engine.ts';

export function predict(world: World, caller: Caller, request: ApiRequest, settings: ModelSettings): Prediction {
  if (request.kind === 'rpc') {
    return { outcome: sqlError('42883', `the model has no function ${request.fn}`), world };
  }
  const name = request.schema && request.schema !== 'public' ? `${request.schema}.${request.table}` : request.table;
  const model = tableModels[name];
  if (!model) return { outcome: sqlError('42P01', `the model has no table ${name}`), world };
  return predictTableRequest(model, world, caller, request, settings);
}
