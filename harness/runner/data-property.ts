/**
 * A data-layer property: a rule of the spec (R01…R20), the tables it needs, and a generator of
 * cases aimed at it. Checking is the same for all: the model predicts, the database answers,
 * they must agree (check-case.ts).
 */
import type fc from 'fast-check';
import type { ModelSettings } from '../../model/settings.ts';
import type { DataCase } from './data-case.ts';

export interface DataProperty {
  id: string;
  rule: number;
  title: string;
  /** Tables (and functions) the rule is about; a target without them makes the rule not applicable. */
  tables: string[];
  functions?: string[];
  cases: (settings: ModelSettings) => fc.Arbitrary<DataCase>;
}
