/**
 * Small builders for a pack's parts. They return what they are given, typed with the pack's
 * settings, so a mistake shows in the editor rather than at run time; `extendPack` derives a
 * project's pack from another (the reference one, usually).
 */
import type { FunctionModel } from '../engine/model/function-model.ts';
import type { TableModel } from '../engine/model/table-model.ts';
import type { StepChecker } from '../engine/checker/history.ts';
import type { Pack } from '../engine/pack.ts';
import type { TargetMapping } from '../engine/mapping/mapping.ts';
import { mergeMappings } from '../engine/mapping/schema.ts';
import type { DataProperty } from '../engine/runner/data-property.ts';

export function defineTable<S = unknown>(table: TableModel<S>): TableModel<S> {
  return table;
}

export function defineFunction<S = unknown>(fn: FunctionModel<S>): FunctionModel<S> {
  return fn;
}

export function defineProperty<S = unknown>(property: DataProperty<S>): DataProperty<S> {
  return property;
}

export interface PackExtension<S> {
  name: string;
  /** Tables added, or replacing the base's of the same name. */
  tables?: TableModel<S>[];
  functions?: FunctionModel<S>[];
  /** Properties added, or replacing the base's of the same id. */
  properties?: DataProperty<S>[];
  /** Ids of the base's properties that do not apply here. */
  without?: string[];
  fixtureOrder?: readonly string[];
  migrations?: string;
  mutants?: string;
  /** The project's names for the base's tables, columns and functions, and its conventions (docs/config.md "mapping"). */
  mapping?: TargetMapping;
  /** Invariants every step must pass besides agreeing with the model, added to the base's. */
  invariants?: StepChecker[];
}

/** A pack built on another: the base's models and properties, with these added, replaced or removed. */
export function extendPack<S>(base: Pack<S>, extension: PackExtension<S>): Pack<S> {
  const tables = { ...base.model.tables, ...Object.fromEntries((extension.tables ?? []).map((t) => [t.table, t])) };
  const functions = { ...base.model.functions, ...Object.fromEntries((extension.functions ?? []).map((f) => [f.name, f])) };
  const replaced = new Set([...(extension.properties ?? []).map((p) => p.id), ...(extension.without ?? [])]);
  return {
    ...base,
    name: extension.name,
    model: { ...base.model, tables, functions, fixtureOrder: extension.fixtureOrder ?? base.model.fixtureOrder, invariants: [...(base.model.invariants ?? []), ...(extension.invariants ?? [])] },
    properties: [...base.properties.filter((p) => !replaced.has(p.id)), ...(extension.properties ?? [])],
    catalogProperties: (base.catalogProperties ?? []).filter((p) => !(extension.without ?? []).includes(p.id)),
    migrations: extension.migrations ?? base.migrations,
    mutants: extension.mutants ?? base.mutants,
    mapping: mergeMappings(base.mapping, extension.mapping),
  };
}
