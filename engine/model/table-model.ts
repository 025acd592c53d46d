/**
 * How the model describes one table: its columns, the privileges the API roles hold, and the
 * row rules per command as plain predicates over model rows. Each table's file states its own
 * rules; model/engine applies them with the semantics of PostgreSQL row security.
 */
import type { Caller } from './caller.ts';
import type { ForeignKey } from './embed.ts';
import type { Json, Row } from './json.ts';
import type { ComparedAsReading } from './function-model.ts';
import type { Outcome } from './outcome.ts';
import type { World } from './world.ts';
import type { ProjectRole } from './project-role.ts';

export type { ProjectRole } from './project-role.ts';

export const COLUMN_TYPES = ['uuid', 'text', 'text[]', 'boolean', 'integer', 'numeric', 'timestamptz', 'jsonb'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** `S`: the pack's settings type (a pack's rules read its own settings). */
export interface ColumnSpec<S = any> {
  name: string;
  type: ColumnType;
  nullable: boolean;
  /** Value when an insert omits the column. */
  default?: Json;
  /** Set by the server (now(), generated): present in answers but not predictable, so not compared. */
  serverAssigned?: boolean;
  /** CHECK constraint on the column (23514 when false). */
  check?: (value: Json, settings: S) => boolean;
  /** What the column's text is when a target's CHECK or domain may hold it to a format (`phone`: drawn as a pack's phone style says; `email`: in a pack's e-mail domain), whatever its name. */
  format?: 'phone' | 'email';
  /**
   * Other names the spec gives the column's kind (`kkumail` for team_members' "kkumail-type e-mail
   * column"): `policyfuzz init` matches a target column named by them as it does one named like the column.
   */
  aliases?: string[];
  /**
   * Where the spec states a limit but not how it is enforced (a cap "in number"): the refusal a
   * project enforcing `check` in a BEFORE trigger or a function raises instead. It is then as
   * correct as the 23514, and, a trigger firing before the row rules and constraints, as correct
   * as any later failure of a row breaking the limit.
   */
  checkRefusal?: (settings: S) => Outcome;
  /**
   * GENERATED ALWAYS AS (…) STORED: computed from the stored row, never written. World rows
   * (fixtures) omit the column; reads, filters and RETURNING see the computed value; a body
   * naming it is refused (428C9).
   */
  generated?: (row: Row, settings: S) => Json;
  /**
   * Under these settings the target draws this generated column's value itself, at insert (a
   * random default: `public_ref uuid default gen_random_uuid()`), where the model computes it.
   * The fixtures then write the model's value into each world row, so both hold the same; a row
   * a request inserts holds the target's own draw, so table reads do not compare the column.
   */
  targetDraws?: (settings: S) => boolean;
}

export interface RuleContext<S = any> {
  world: World;
  caller: Caller;
  uid: string | null;
  settings: S;
}

export type Privilege = 'select' | 'insert' | 'update' | 'delete';
export type ApiRole = 'anon' | 'authenticated';
/**
 * Table-level privileges per role: the API roles always, and each project role the request may
 * run as (`app_admin: ['select', 'delete']`; a project role not named holds nothing, as Postgres
 * grants it nothing, but what the roles it inherits from hold: `memberOf`). And
 * `columnSelect`: the columns a role may SELECT through
 * column-level grants (`grant select (id, title) on t to authenticated`) where it holds no
 * table-level SELECT. Postgres then refuses (42501) only a statement that reads a column outside
 * them: a `select=`, a filter, or a write's RETURNING (PostgREST adds the primary key there).
 * Read a role's privileges with privilegesOf, never by indexing: the one reading of this shape.
 */
export type Grants = {
  anon: readonly Privilege[];
  authenticated: readonly Privilege[];
  /**
   * What service_role holds, where not everything (it bypasses row security, not grants): a schema
   * the API exposes without `grant usage … to service_role` refuses it (pgflow's demo grants anon
   * only). Absent: every privilege, as Supabase grants it on public.
   */
  service_role?: readonly Privilege[];
  columnSelect?: Partial<Record<ApiRole | ProjectRole, readonly string[]>>;
  /** The columns a role may UPDATE through column-level grants (`grant update (title) on t to authenticated`) where it holds no table-level UPDATE: a PATCH setting another column is refused (42501). */
  columnUpdate?: Partial<Record<ApiRole | ProjectRole, readonly string[]>>;
  /** The columns a role may INSERT through column-level grants (`grant insert (title, body) on t to authenticated`) where it holds no table-level INSERT: a body naming another column is refused (42501). */
  columnInsert?: Partial<Record<ApiRole | ProjectRole, readonly string[]>>;
  /**
   * The roles a project role is a member of with INHERIT (Postgres' default: `grant authenticated to
   * app_admin`): it holds what they hold, table-level and column-level, as has_table_privilege and
   * every statement read it. A membership without INHERIT (`with inherit false`, a NOINHERIT role)
   * gives nothing until SET ROLE: leave it out.
   */
  memberOf?: Partial<Record<ProjectRole, readonly (ApiRole | 'service_role' | ProjectRole)[]>>;
  /** A project role's privileges, by its name (GRANT_KEYS are not role names here). */
  [projectRole: ProjectRole]: readonly Privilege[] | Partial<Record<string, readonly string[]>> | undefined;
};

/** The keys of Grants that name no role. */
export const GRANT_KEYS: readonly string[] = ['columnSelect', 'columnUpdate', 'columnInsert', 'memberOf'];

const EVERY_PRIVILEGE: readonly Privilege[] = ['select', 'insert', 'update', 'delete'];

/** `role` and every role it inherits from under these grants (memberOf, followed through), each once. */
function rolesHeldBy(grants: Grants, role: string): string[] {
  const held = [role];
  for (let i = 0; i < held.length; i++) for (const r of grants.memberOf?.[held[i]] ?? []) if (!held.includes(r)) held.push(r);
  return held;
}

/** The table-level privileges one role holds itself: service_role every one unless named; a role not named none. */
function ownPrivileges(grants: Grants, role: string): readonly Privilege[] {
  if (role === 'service_role') return grants.service_role ?? EVERY_PRIVILEGE;
  const held = GRANT_KEYS.includes(role) ? undefined : grants[role];
  return Array.isArray(held) ? (held as readonly Privilege[]) : [];
}

/** The table-level privileges `role` holds under these grants, its own and those of the roles it inherits from (memberOf). */
export function privilegesOf(grants: Grants, role: string): readonly Privilege[] {
  const roles = rolesHeldBy(grants, role);
  if (roles.length === 1) return ownPrivileges(grants, role);
  return EVERY_PRIVILEGE.filter((p) => roles.some((r) => ownPrivileges(grants, r).includes(p)));
}

/** The columns `role` may SELECT (`columnSelect`), UPDATE (`columnUpdate`) or INSERT (`columnInsert`) through column-level grants, its own and those it inherits (memberOf); undefined where none. */
export function columnGrantsOf(grants: Grants, role: string, kind: 'columnSelect' | 'columnUpdate' | 'columnInsert'): readonly string[] | undefined {
  const columns = [...new Set(rolesHeldBy(grants, role).flatMap((r) => grants[kind]?.[r] ?? []))];
  return columns.length ? columns : undefined;
}

/** The project's own roles these grants name (every key but the API roles' and GRANT_KEYS, and every role memberOf gives roles to). */
export function projectRolesOf(grants: Grants): string[] {
  const roles = [...Object.keys(grants), ...Object.keys(grants.memberOf ?? {})];
  return [...new Set(roles)].filter((k) => k !== 'anon' && k !== 'authenticated' && k !== 'service_role' && !GRANT_KEYS.includes(k));
}

/** The table's grants under these settings. */
export function grantsOf<S>(model: TableModel<S>, settings: S): Grants {
  return typeof model.grants === 'function' ? model.grants(settings) : model.grants;
}

/** A BEFORE trigger either stores a (possibly adjusted) row or raises. */
/**
 * `undoneIsSecure`: the row passes, and row security leaving it unchanged is as secure (owners cannot update).
 * `refusalIsSecure`: the row passes, and a guard raising this refusal (or any of these) instead is as secure (an exemption the spec does not require).
 */
export type TriggerResult = { row: Row; undoneIsSecure?: boolean; refusalIsSecure?: Outcome | readonly Outcome[] } | { reject: Outcome };

/** A passing trigger's secure refusals (TriggerResult.refusalIsSecure) as a list; none for a rejection. */
export function secureRefusalsOf(r: TriggerResult): readonly Outcome[] {
  return 'row' in r ? ([] as Outcome[]).concat(r.refusalIsSecure ?? []) : [];
}

export interface RowRules<S = any> {
  /** USING of the SELECT policies (OR of the permissive ones); absent: no row is visible. */
  select?: (row: Row, ctx: RuleContext<S>) => boolean;
  insertCheck?: (row: Row, ctx: RuleContext<S>) => boolean;
  updateUsing?: (row: Row, ctx: RuleContext<S>) => boolean;
  /** WITH CHECK of the UPDATE policies, on the new row; absent: `updateUsing`, as PostgreSQL checks with an UPDATE policy's USING when it has no WITH CHECK. */
  updateCheck?: (row: Row, ctx: RuleContext<S>) => boolean;
  deleteUsing?: (row: Row, ctx: RuleContext<S>) => boolean;
  /**
   * A row the UPDATE policy keeps out (USING on the old row, WITH CHECK on the new) for a reason a
   * project may enforce in a BEFORE UPDATE trigger instead (rule 4's buyer window): that
   * trigger's refusal, as secure as the policy's answer (left undone, or 42501). Else undefined.
   */
  updateRefusableByGuard?: (row: Row, ctx: RuleContext<S>) => Outcome | undefined;
}

export interface TableModel<S = any> {
  /** `users`, or `schema.table` outside public. */
  table: string;
  /** Rows as compared, applied alike to both sides (see FunctionModel.comparedAs). */
  comparedAs?: (rows: Row[], world: World, settings: S) => Row[];
  /** comparedAs holding a secure reading (see FunctionModel.comparedAsReading). */
  comparedAsReading?: ComparedAsReading<S>;
  columns: ColumnSpec<S>[];
  primaryKey: string[];
  /** The privileges each API role holds; a function of the settings where a pack makes them a setting. */
  grants: Grants | ((settings: S) => Grants);
  /** The setting that holds this table's grants (`tableGrants.users`), named when grants disagree. */
  grantsSetting?: string;
  /** Columns whose values a setting decides (column → setting path), named when they differ. */
  valueSettings?: Record<string, string>;
  /** The setting that decides which rows its policies let a caller reach (`vs.submitterTableAccess`), named with its value when the rows touched differ. */
  rowsSetting?: string;
  /** false: row security is off and grants alone decide. */
  rowSecurity: boolean;
  rules: RowRules<S>;
  /**
   * BEFORE UPDATE triggers, in the order Postgres fires them: return an Outcome to reject the
   * change (a guard raising), or the row to store.
   */
  beforeUpdate?: (oldRow: Row, newRow: Row, ctx: RuleContext<S>) => TriggerResult;
  beforeInsert?: (newRow: Row, ctx: RuleContext<S>) => TriggerResult;
  /**
   * A view: its rows are computed from the world (fixtures never write it). With
   * security_invoker the base table's row rules apply to the reader; state them in rules.select.
   */
  view?: (world: World, settings: S) => Row[];
  /**
   * Foreign keys to other model tables (`project_id` → `projects.id`, or several columns): the
   * relationships a read may embed across (request.ts Embed), many-to-many through a table whose
   * two keys lie in its primary key (embed.ts). A pair with none is not embedded.
   */
  foreignKeys?: ForeignKey[];
  /**
   * UNIQUE constraints besides the primary key (`[['email']]`): a foreign key over exactly one of
   * them (or over the primary key) embeds its table one-to-one, an object, as PostgREST does
   * (embed.ts). A unique index is not a constraint: PostgREST does not count it, leave it out.
   */
  uniqueKeys?: string[][];
}

export function column(model: TableModel, name: string): ColumnSpec | undefined {
  return model.columns.find((c) => c.name === name);
}

/** The row as a reader sees it: generated columns computed from the stored ones. */
export function materialize<S>(model: TableModel<S>, row: Row, settings: S): Row {
  const generated = model.columns.filter((c) => c.generated);
  if (generated.length === 0) return row;
  const out: Row = { ...row };
  for (const c of generated) out[c.name] = c.generated!(row, settings);
  return out;
}

/** The generated columns whose values the target draws under these settings (ColumnSpec.targetDraws). */
export function targetDrawnColumns<S, C extends DrawnColumnFacts<S>>(model: { columns: readonly C[] }, settings: S): C[] {
  return model.columns.filter((c) => c.generated && c.targetDraws?.(settings));
}

/** What targetDrawnColumns reads of a column. */
export type DrawnColumnFacts<S = any> = Pick<ColumnSpec<S>, 'name' | 'generated' | 'targetDraws'>;

const serverAssigned = new WeakMap<TableModel, readonly string[]>();

/** The columns the server assigns (read on every step of every case: listed once per table). */
export function serverAssignedColumns(model: TableModel): readonly string[] {
  let names = serverAssigned.get(model);
  if (!names) serverAssigned.set(model, (names = model.columns.filter((c) => c.serverAssigned).map((c) => c.name)));
  return names;
}
