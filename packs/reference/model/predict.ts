/** The engine's oracle with the reference model: what the reference's generators and tests ask. */
import type { Caller } from '../../../engine/model/caller.ts';
import { predict as predictWith, type Prediction } from '../../../engine/model/predict.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import type { World } from '../../../engine/model/world.ts';
import { referenceOracleWith } from './index.ts';
import type { ModelSettings } from './settings.ts';

export function predict(world: World, caller: Caller, request: ApiRequest, settings: ModelSettings): Prediction {
  return predictWith(referenceOracleWith(settings), world, caller, request);
}
