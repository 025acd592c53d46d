/**
 * `policyfuzz`: the public API. Define your application's tables and functions as models, the
 * rules as properties that generate cases, gather them in a pack, and let the engine generate,
 * execute (as PostgREST would, against real Postgres), compare, shrink and report.
 * See docs/write-your-own-rule.md.
 */
export { default as fc } from 'fast-check';
export { z } from 'zod';

// The pack: one application's intent.
export { definePack, oracleOf, packSettings, type Oracle, type Pack, type PackModel } from '../engine/pack.ts';
export { extendPack, defineTable, defineFunction, defineProperty, type PackExtension } from './define.ts';
// A project's names for the model's things (docs/config.md "Mapping").
export type { Conventions, FunctionMapping, RefusalConvention, ReturnShape, TableMapping, TargetMapping } from '../engine/mapping/mapping.ts';

// The model's vocabulary: who calls, what they send, what the answer must be.
export type { Aal, Caller } from '../engine/model/caller.ts';
export { apiRoleOf, appMetadataOf, callerAal, callerUid, describeCaller, requestHeaderOf } from '../engine/model/caller.ts';
export { withClaims, type ClaimsInUse } from '../engine/runner/caller-claims.ts';
export type { Json, Row } from '../engine/model/json.ts';
export type { ApiRequest, Embed, Filter, FilterOp, Returning } from '../engine/model/request.ts';
export { describeRequest, targetName } from '../engine/model/request.ts';
export type { World } from '../engine/model/world.ts';
export { rowsOf, withRows } from '../engine/model/world.ts';
export { tiedInAnyOrder } from '../engine/model/ties.ts';
export type { Outcome, OutcomeClass } from '../engine/model/outcome.ts';
export { allowed, anyOf, filtered, outcomeClass, raised, rejectedByGrant, rejectedByPolicy, secureReading, sqlError } from '../engine/model/outcome.ts';
export type { ApiRole, ColumnSpec, ColumnType, Grants, Privilege, ProjectRole, RowRules, RuleContext, TableModel, TriggerResult } from '../engine/model/table-model.ts';
export { privilegesOf } from '../engine/model/table-model.ts';
export type { ExecuteGrantee, FunctionGrantee, FunctionModel, PrivateFunction } from '../engine/model/function-model.ts';
export { executeDenied } from '../engine/model/function-model.ts';
export { applyOwnerGuard, changedColumns, type OwnerGuard } from '../engine/model/owner-guard.ts';
export { predict, type Prediction } from '../engine/model/predict.ts';
export { predictTableRequest } from '../engine/model/engine.ts';
// Model-branch coverage: the decisions a model declares (PackModel.branches) and records.
export { branch, branchesOf, type BranchCatalog } from '../engine/model/branches.ts';

// Properties and running them.
export type { DataCase, DataStep } from '../engine/runner/data-case.ts';
export { fromParts, type CasePart, type DataProperty, type Guide } from '../engine/runner/data-property.ts';
export type { CatalogProperty } from '../engine/runner/catalog-property.ts';
export { checkCase, type CaseVerdict } from '../engine/runner/check-case.ts';
export { modelAgreement, type HistoryEntry, type StepChecker } from '../engine/checker/history.ts';
export { runDataProperty, type DataRunOptions } from '../engine/runner/run-data-property.ts';
export { applyCoverageGate } from '../engine/runner/coverage.ts';
export type { PropertyResult } from '../engine/runner/result.ts';
export { RunEvents, type RunEvent, type RunReporter, type RunVerdict } from '../engine/report/run-events.ts';
export { openEnvironment, type Environment, type EnvironmentOptions } from '../engine/runner/environment.ts';
export { loadMigrationFolder, type MigrationFile } from '../engine/db/migrations.ts';
export { startDatabaseServer, type DatabaseServer } from '../engine/db/providers/index.ts';

// The bundled reference application: the first pack, and a base to extend.
export { referencePack, referenceModel, referenceOracle, defaultSettings as referenceSettings, type ModelSettings as ReferenceSettings } from '../packs/reference/index.ts';
