/**
 * A data-layer property: a rule of the spec (R01…R20), the tables it needs, and a generator of
 * cases aimed at it. Checking is the same for all: the model predicts, the database answers,
 * they must agree (check-case.ts).
 */
import fc from 'fast-check';
import type { DataCase } from './data-case.ts';

export interface DataProperty<S = any> {
  id: string;
  rule: number;
  title: string;
  /** Tables (and functions) the rule is about; a target without them makes the rule not applicable. */
  tables: string[];
  functions?: string[];
  cases: (settings: S) => fc.Arbitrary<DataCase>;
  /**
   * For a property generic over several tables (R01 over every owner-guarded table): the same
   * property restricted to the tables a target has, or undefined when it has none of them.
   * Absent: every table in `tables` is needed.
   */
  narrow?: (has: (table: string) => boolean) => DataProperty<S> | undefined;
}

/** One source of cases of a property, with the tables and functions it needs. */
export interface CasePart<S = any> {
  tables: string[];
  functions?: string[];
  cases: (settings: S) => fc.Arbitrary<DataCase>;
}

/**
 * A property drawing its cases from several parts (R07 over PR and VS tickets): on a target,
 * only the parts whose tables exist run; with none, the property is not applicable.
 */
export function fromParts<S>(base: Pick<DataProperty<S>, 'id' | 'rule' | 'title'>, parts: CasePart<S>[]): DataProperty<S> {
  const build = (chosen: CasePart<S>[]): DataProperty<S> => ({
    ...base,
    tables: [...new Set(chosen.flatMap((p) => p.tables))],
    functions: [...new Set(chosen.flatMap((p) => p.functions ?? []))],
    cases: (settings) => (chosen.length === 1 ? chosen[0].cases(settings) : fc.oneof(...chosen.map((p) => p.cases(settings)))),
    narrow: (has) => {
      const present = chosen.filter((p) => [...p.tables, ...(p.functions ?? [])].every(has));
      return present.length ? build(present) : undefined;
    },
  });
  return build(parts);
}
