/**
 * What `policyfuzz init` reads of a target's catalog, as data: the shapes propose.ts and its
 * helpers (tenant-column.ts) read, kept apart so a helper needs no import of propose.ts.
 */
import type { Privilege } from '../model/table-model.ts';

export interface TargetColumnFacts {
  name: string;
  /** format_type() */
  type: string;
  /** The domain it is declared with (`email_address`): a name of its kind, matched as its own name is. */
  domain?: string;
  references?: { table: string; column: string };
  vocabulary?: string[];
  /** An enum array's labels (`permissions app_permission[]`): a model text[] of words fits it. */
  elementVocabulary?: string[];
  /** The column default as Postgres prints it (`'new'::text`). */
  defaultExpr?: string;
  primaryKey?: boolean;
  /** One of the columns of a primary key of several (`primary key (buyer_id, order_no)`); `primaryKey` marks a key of one column only. */
  keyPart?: true;
  notNull?: boolean;
  /** Filled by the server: an identity (a sequence number such as `order_no`) or a generated column. */
  serverFilled?: 'identity' | 'generated';
  /** The target's tenant column (tenant-column.ts): the harness's to fill, never a model column's. */
  tenant?: true;
}

/** What init reads of the target's catalog. */
export interface TargetFacts {
  tables: TargetTableFacts[];
  functions: TargetFunctionFacts[];
  /** Supabase's default privileges still grant anon SELECT on new tables in public (no `alter default privileges … revoke`). */
  defaultPrivilegesKept?: boolean;
  /** Every table and view of the schemas read, `tables`' shapes or not (a view joining tables has none). */
  relations?: string[];
}

export interface TargetTableFacts {
  /** Model-style name: `table`, `schema.table` outside public. */
  name: string;
  columns: TargetColumnFacts[];
  /** anon holds SELECT on it (Supabase's default privileges left in place). */
  anonCanSelect: boolean;
  /** The API roles' table-level privileges, and the columns a role may UPDATE by column grants only (none: not read). */
  /** The project's own roles' privileges on it (a role granted to authenticator a token's role claim may name: supasheet's x-admin), those holding any. */
  projectRoleGrants?: Record<string, Privilege[]>;
  grants?: Record<'anon' | 'authenticated', Privilege[]> & { columnUpdate?: Partial<Record<'anon' | 'authenticated', string[]>>; columnSelect?: Partial<Record<'anon' | 'authenticated', string[]>>; columnInsert?: Partial<Record<'anon' | 'authenticated', string[]>> };
  /** A projection view's table (`private.student_records` behind `api.student_records`): a function reading that table reads this. */
  viewOf?: string;
}

export interface TargetFunctionFacts {
  name: string;
  /** `optional`: the parameter has a DEFAULT (a caller may leave it out). */
  /** Input parameters; one without a name is `$n` (its place) and marked `unnamed`. */
  args: { name: string; type: string; optional?: true; unnamed?: true }[];
  returns: 'void' | 'scalar' | 'setof-scalar' | 'composite' | 'setof-composite';
  /** OUT / TABLE column names, or the returned table's columns for `RETURNS <table>`. */
  outColumns: string[];
  /** The table a `RETURNS <table>` / `SETOF <table>` function returns. */
  returnsTable?: string;
  readOnly: boolean;
  trigger: boolean;
  /** Tables whose BEFORE INSERT row triggers call this (trigger) function. */
  beforeInsertOn?: string[];
  source: string;
}
