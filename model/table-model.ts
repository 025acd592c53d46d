/**
 * How the model describes one table: its columns, the privileges the API roles hold, and the
 * row rules per command as plain predicates over model rows. Each table's file states its own
 * rules; model/engine applies them with the semantics of PostgreSQL row security.
 */
import type { Caller } from './caller.ts';
import type { Json, Row } from './json.ts';
import type { Outcome } from './outcome.ts';
import type { ModelSettings } from './settings.ts';
import type { World } from './world.ts';

export type ColumnType = 'uuid' | 'text' | 'text[]' | 'boolean' | 'integer' | 'numeric' | 'timestamptz' | 'jsonb';

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  nullable: boolean;
  /** Value when an insert omits the column. */
  default?: Json;
  /** Set by the server (now(), generated): present in answers but not predictable, so not compared. */
  serverAssigned?: boolean;
  /** CHECK constraint on the column (23514 when false). */
  check?: (value: Json, settings: ModelSettings) => boolean;
}

export interface RuleContext {
  world: World;
  caller: Caller;
  uid: string | null;
  settings: ModelSettings;
}

export type Privilege = 'select' | 'insert' | 'update' | 'delete';
export type ApiRole = 'anon' | 'authenticated';

/** A BEFORE trigger either stores a (possibly adjusted) row or raises. */
export type TriggerResult = { row: Row } | { reject: Outcome };

export interface RowRules {
  /** USING of the SELECT policies (OR of the permissive ones); absent: no row is visible. */
  select?: (row: Row, ctx: RuleContext) => boolean;
  insertCheck?: (row: Row, ctx: RuleContext) => boolean;
  updateUsing?: (row: Row, ctx: RuleContext) => boolean;
  updateCheck?: (row: Row, ctx: RuleContext) => boolean;
  deleteUsing?: (row: Row, ctx: RuleContext) => boolean;
}

export interface TableModel {
  /** `users`, or `schema.table` outside public. */
  table: string;
  columns: ColumnSpec[];
  primaryKey: string[];
  grants: Record<ApiRole, readonly Privilege[]>;
  /** false: row security is off and grants alone decide. */
  rowSecurity: boolean;
  rules: RowRules;
  /**
   * BEFORE UPDATE triggers, in the order Postgres fires them: return an Outcome to reject the
   * change (a guard raising), or the row to store.
   */
  beforeUpdate?: (oldRow: Row, newRow: Row, ctx: RuleContext) => TriggerResult;
  beforeInsert?: (newRow: Row, ctx: RuleContext) => TriggerResult;
}

export function column(model: TableModel, name: string): ColumnSpec | undefined {
  return model.columns.find((c) => c.name === name);
}

export function serverAssignedColumns(model: TableModel): string[] {
  return model.columns.filter((c) => c.serverAssigned).map((c) => c.name);
}
