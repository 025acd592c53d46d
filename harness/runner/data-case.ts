/**
 * A data-layer case as plain data: the world it starts from and the requests sent, in order.
 * Saved failures, repros and replays are built from exactly this.
 */
import type { Caller } from '../../model/caller.ts';
import type { ApiRequest } from '../../model/request.ts';
import type { World } from '../../model/world.ts';

export interface DataStep {
  caller: Caller;
  request: ApiRequest;
}

export interface DataCase {
  world: World;
  steps: DataStep[];
}
