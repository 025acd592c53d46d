/** What the model predicts for one request: its outcome and the world after it. */
import type { Outcome } from './outcome.ts';
import type { World } from './world.ts';

export interface Prediction {
  outcome: Outcome;
  /** The world after the request (unchanged unless the request was allowed to write). */
  world: World;
  /** The model's branches this prediction took (branches.ts), set by predict(). */
  branches?: readonly string[];
}
