/**
 * A pack is one application's intent: the models of its tables and functions, the settings
 * where its spec is silent, the properties that check it, and the migrations and mutants that
 * go with it. The engine runs any pack; it never imports one. The bundled reference application
 * is the first pack (packs/reference/); a project writes its own next to its migrations.
 */
import { z as zod, type z } from 'zod';
import type { BranchCatalog } from './model/branches.ts';
import type { StepChecker } from './checker/history-entry.ts';
import type { FunctionModel, PrivateFunction } from './model/function-model.ts';
import type { ForeignKeyAction } from './model/foreign-key-actions.ts';
import type { TableModel } from './model/table-model.ts';
import type { CatalogProperty } from './runner/catalog-property.ts';
import type { DataProperty } from './runner/data-property.ts';
import type { TargetMapping } from './mapping/mapping.ts';
import type { VocabularySetting } from './mapping/propose.ts';

/** What the oracle knows of an application: its tables and functions, and how fixtures are ordered. */
/** A settings misfit that matters only to the properties on `table` (Pack.settingsMisfits). */
export interface TableMisfit {
  table: string;
  text: string;
}

export interface PackModel<S = any> {
  /** By name (`schema.table` outside public). */
  tables: Record<string, TableModel<S>>;
  /** Callable functions by name (`schema.fn` outside public). */
  functions: Record<string, FunctionModel<S>>;
  /** Functions that exist but are not part of the API (rule 15 style grant checks). */
  privateFunctions?: PrivateFunction[];
  /** Foreign-key order: a row's references are written before it. */
  fixtureOrder: readonly string[];
  /**
   * Checks every step must pass besides agreeing with the model (engine/checker/history.ts): an
   * invariant of the application, e.g. no answer ever carries a secret column.
   */
  invariants?: StepChecker[];
  /**
   * The model's decisions a case can take, id → what it means (engine/model/branches.ts): ids
   * prefixed by their property (`R03.…`); the run reports, per property, which were taken.
   */
  branches?: BranchCatalog;
  /**
   * The setting that decides the claims a signed-in caller's token carries (`claims.appMetadataRole`):
   * a disagreement on such a caller's step names it and its value, since a policy reading a claim
   * answers by the token, not by the model's tables.
   */
  claimsSetting?: string;
  /**
   * Whether, under these settings, a signed-in caller's token claims are read off the world the
   * case drew (a role claim minted from their users row): the harness then makes no person row
   * for a case's caller that the world lacks (fixtures.ts callersWithTokensFromWorld), since their
   * token, already minted, would not say what the made row does.
   */
  claimsFromWorld?: (settings: S) => boolean;
}

/** The model with one choice of settings: everything a prediction needs. */
export interface Oracle<S = any> {
  model: PackModel<S>;
  settings: S;
  /** PostgREST's db-max-rows on the target (absent: none, PostgREST's default); see predict.ts maxRowsCap. */
  maxRows?: number;
  /**
   * The target sorts text in code point order (its collation is C: SchemaCache.codePointText), as
   * the model does. Otherwise an order by text is compared as any order a collation could give.
   */
  codePointText?: boolean;
  /**
   * The target's foreign keys with their ON DELETE, in model names (engine/target/foreign-key-actions.ts):
   * a DELETE's cascades, nulls and refusals (engine/model/foreign-key-actions.ts). Absent: none predicted.
   */
  foreignKeyActions?: readonly ForeignKeyAction[];
  /**
   * Columns the target fills from auth.uid() on a signed-in caller's INSERT, by model table
   * (mapping `tables.<t>.callerFilled`): the model predicts the row stored as the caller's
   * (predict.ts callerFilledRequest). Absent: none.
   */
  callerFilled?: Readonly<Record<string, readonly string[]>>;
  /**
   * Model functions the target keeps only in a schema the API does not expose (model names): a
   * call's PGRST202 is accepted as the secure reading FUNCTION_OUTSIDE_API (predict.ts). Absent: none.
   */
  unexposedFunctions?: readonly string[];
}

export interface Pack<S = any> {
  /** Short name, shown in reports (`reference`). */
  name: string;
  model: PackModel<S>;
  /** Validates a config's `model` overrides; defaults fill in what is not given. */
  settingsSchema: z.ZodType<S>;
  properties: DataProperty<S>[];
  catalogProperties?: CatalogProperty<S>[];
  /**
   * Settings that contradict each other (a role named as staff that the role vocabulary lacks):
   * one line each. A run whose settings have any gives harness errors, never verdicts, since
   * its cases would test a meaning nobody gave. One that matters only where a table is in play (a
   * handler list of the shop's orders) is given with its table: it stops the properties on it.
   */
  settingsMisfits?: (settings: S) => (string | TableMisfit)[];
  /** Absolute folder of the migrations this pack is written for (a project usually gives its own). */
  migrations?: string;
  /** Absolute folder of the pack's mutants (a rules folder with `<rule>/mutants/*.sql`, or flat). */
  mutants?: string;
  /**
   * The target's names for the model's tables, columns and functions, and its conventions
   * (engine/mapping/): a project pack built on the reference one maps its own schema here, and
   * a config's `mapping` refines it.
   */
  mapping?: TargetMapping;
  /** Settings a target's CHECK vocabularies and defaults pin (`policyfuzz init` proposes them). */
  vocabularies?: VocabularySetting[];
  /**
   * Settings naming the columns of a model table the pack's generators then draw without null:
   * `policyfuzz init` writes into each those of `columns` the target holds NOT NULL, so no case is
   * drawn that the target cannot store (and dropped).
   */
  notNullDraws?: NotNullDraws[];
  /**
   * Settings naming the columns of a model table the pack's generators draw as a value's variants
   * (a person's e-mail case-flipped or padded): `policyfuzz init` writes into each those of
   * `columns` whose CHECK (or domain) refuses such a variant of `sample`, and the generators then
   * draw the value as stored (engine/config/normalized-draws.ts).
   */
  normalizedDraws?: NormalizedDraws[];
  /**
   * Settings (dotted paths under `model`) that take how the target keeps a model table's ids
   * (`model` as the model does, `uuid`, `bigint`: mapping bigintIds / uuidIds), for a value the
   * model computes from an id (the reference's public handle): `policyfuzz init` writes them.
   */
  targetIdSettings?: { path: string; table: string; column: string }[];
  /**
   * Settings (dotted paths under `model`) `policyfuzz init` sets to `value` where the target draws
   * a model generated column's value at insert (a plain column with a random default:
   * `public_ref uuid default gen_random_uuid()`): the column is then mapped (whatever its type)
   * and the model's draws are written into the rows (ColumnSpec.targetDraws).
   */
  targetDrawSettings?: { path: string; table: string; column: string; value: string }[];
  /**
   * Settings (dotted paths under `model`) `policyfuzz init` sets to `value` where the target keys
   * a model table by its user: the table's `column` is a foreign key to the users table, and its
   * `unlessColumn` (the e-mail the model would link by otherwise) is not mapped.
   */
  userKeySettings?: { path: string; table: string; column: string; unlessColumn: string; value: string }[];
  /**
   * Settings (dotted paths under `model`) `policyfuzz init` reads off a target function's body:
   * where the body of `fn` (the model's name, as the mapping names it on the target) matches
   * `pattern` (a case-insensitive regular expression), `path` is set to `value`, or to the
   * pattern's first group; `why` is said in the note to confirm. With `policy` in place of `fn`:
   * off the row policies of that model table (as mapped) for that command.
   */
  sourceSettings?: SourceSetting[];
  /**
   * Settings `policyfuzz init` writes for every project (nested, as under `model`): the pack's
   * generation choices a schema it was not written for needs, its own run keeping the defaults.
   * Each with the note that says why.
   */
  projectSettings?: { settings: Record<string, unknown>; note: string };
}

/** A setting (dotted path under `model`) listing which of a model table's `columns` are drawn without null. */
export interface NotNullDraws {
  path: string;
  table: string;
  columns: string[];
}

export interface NormalizedDraws extends NotNullDraws {
  /** A value as the target would store it (`ann@uni.ac`): its case-flipped and padded forms are what the generators also draw. */
  sample: string;
  /**
   * The setting (dotted path under `model`) naming the one domain these e-mails are drawn in, where
   * a CHECK of the column holds that domain only (engine/config/email-domain.ts).
   */
  domainSetting?: string;
  /**
   * The column is the sign-in e-mail's copy, made by a trigger on auth.users (`fixtures.users:
   * "auth-trigger"`) from `new.email` as signed up: proposed only where such a trigger copies it
   * unchanged, so that the sign-in e-mail itself must meet the column's CHECKs.
   */
  copiedAtSignup?: boolean;
}

/**
 * zod's parse options for what a run parses once (a pack's settings, a config): without zod's
 * compiled fast path, whose build costs more than one parse saves (the reference's settings took
 * 35-42 ms of CPU with it and under 1 ms without, in every run that loads the pack).
 */
export const PARSED_ONCE = { jitless: true } as const;

/** The pack's settings with `overrides` applied (errors are zod's, named by the caller). */
export function packSettings<S>(pack: Pack<S>, overrides: unknown = {}): S {
  return pack.settingsSchema.parse(overrides, PARSED_ONCE);
}

export function oracleOf<S>(pack: Pack<S>, settings: S = packSettings(pack)): Oracle<S> {
  return { model: pack.model, settings };
}

/**
 * `export default definePack({...})` keeps the settings type. A pack with no settings of its own
 * may leave `settingsSchema` out: it is then an empty strict object (a config's `model` overrides
 * are refused by name).
 */
/**
 * A setting read off a function's body (Pack.sourceSettings), off the row policies of a
 * table for a command (`policy`: their USING and WITH CHECK as pg_policies prints them), off
 * the bodies of the trigger functions on a table (`trigger`: a guard, whatever its name), or off
 * a table's CHECK constraints (`check`: as pg_get_constraintdef prints them). `number`: the
 * captured value is a number (a cap).
 */
/**
 * `sqlstate`: the pattern's group is a RAISE's ERRCODE (a condition name or a code), written as
 * its SQLSTATE; P0001 (a plain RAISE's, the model's own) proposes nothing.
 */
/**
 * `columns`: the group is a list of quoted column names of the target's `table` (a guard's
 * `array['display_name', 'avatar_url']`), written as the model's names of them (those the model
 * has; the others left out, and those of the list at the settings path `leaveOut`).
 * `every`: the value holds only where every source matches (each INSERT policy pins the owner),
 * and there is at least one; else the first source matching decides.
 */
export type SourceSetting = { path: string; pattern: string; value?: string; number?: true; sqlstate?: true; every?: true; columns?: { table: string; leaveOut?: string; /** A list naming one of these proposes nothing (an insecure allow-list stays a finding). */ privileged?: string[] }; why: string } & (
  | { fn: string }
  | { policy: { table: string; command: 'select' | 'insert' | 'update' | 'delete' } }
  | { trigger: { table: string } }
  | { check: { table: string } }
);

/** A pack whose model has no functions (a tables-only app) may leave `functions` out. */
export function definePack<S = Record<string, never>>(
  pack: Omit<Pack<S>, 'settingsSchema' | 'model'> & { settingsSchema?: z.ZodType<S>; model: Omit<PackModel<S>, 'functions'> & { functions?: PackModel<S>['functions'] } },
): Pack<S> {
  // A misshapen argument (JavaScript, or TypeScript nobody type-checked: `tables` beside `name`) is
  // left as given: the loader names what it lacks (engine/config/pack-module.ts), never a TypeError here.
  const model = pack.model && typeof pack.model === 'object' ? { ...pack.model, functions: pack.model.functions ?? {} } : pack.model;
  return { ...pack, model, settingsSchema: pack.settingsSchema ?? (zod.object({}).strict() as unknown as z.ZodType<S>) };
}

export { packSource } from './pack-source.ts';
import type { LoadablePack } from './pack-source.ts';
/** A pack as the CLI first sees it (engine/pack-source.ts): its name and folders, and how to load it. */
export type PackSource = LoadablePack<Pack>;
