/**
 * The engine's one way in for front-ends (the CLI's commands, policyfuzz/vitest, the bench):
 * a session on a target (session.ts), the data half of a run (data-run.ts) and what ends a run
 * early (control.ts), with the result types they hand back.
 */
export { openSession, sessionOn, type Fitted, type Session, type SessionOptions } from './session.ts';
export { runDataProperties, type DataHalf, type DataRunPlan, type SavedCase } from './data-run.ts';
export { RunControl } from './control.ts';
export type { PropertyResult } from '../runner/result.ts';
export type { DataProperty } from '../runner/data-property.ts';
export type { CatalogProperty } from '../runner/catalog-property.ts';
export { catalogPropertiesOf } from '../runner/security-lints-property.ts';
export { notReached } from '../runner/budget.ts';
export { applyCoverageGate } from '../runner/coverage.ts';
export { placeOfPath } from '../runner/replay-path.ts';
