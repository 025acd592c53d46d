/** Every function the model knows: the API (by name) and the private ones (rule 15 checks both). */
import type { FunctionModel, PrivateFunction } from '../../../../engine/model/function-model.ts';
import { REFERENCE_FUNCTION_COLUMNS, type ModelSettings } from '../settings.ts';
import { helperFunctions } from './helpers.ts';
import { prFunctions, prPrivateFunctions } from './pr.ts';
import { identityFunctions } from './identity.ts';
import { projectFunctions } from './projects.ts';
import { teamFunctions } from './team.ts';
import { studentFunctions } from './student.ts';
import { passportFunctions } from './passport.ts';
import { vsFunctions, vsPrivateFunctions } from './vs.ts';

/**
 * A function that returns a table answers with the columns settings.functionColumns names for
 * it (default: the reference's), in that order.
 */
function columnsFromSettings(f: FunctionModel<ModelSettings>): FunctionModel<ModelSettings> {
  if (!(f.name in REFERENCE_FUNCTION_COLUMNS)) return f;
  return {
    ...f,
    columnsSetting: `functionColumns.${f.name}`,
    predict(world, caller, args, settings) {
      const p = f.predict(world, caller, args, settings);
      const names = settings.functionColumns[f.name] ?? REFERENCE_FUNCTION_COLUMNS[f.name];
      if ((p.outcome.kind !== 'allowed' && p.outcome.kind !== 'filtered') || !p.outcome.rows) return p;
      const rows = p.outcome.rows.map((r) => Object.fromEntries(names.map((n) => [n, r[n] ?? null])));
      return { ...p, outcome: { ...p.outcome, rows } };
    },
  };
}

export const functionModels: Record<string, FunctionModel> = Object.fromEntries(
  [...helperFunctions, ...prFunctions, ...identityFunctions, ...projectFunctions, ...teamFunctions, ...studentFunctions, ...passportFunctions, ...vsFunctions].map((f) => [f.name, columnsFromSettings(f)]),
);

export const privateFunctions: PrivateFunction[] = [
  { name: 'private.changed_columns', executableBy: [] },
  { name: 'private.reject_outside_allow_list', executableBy: [] },
  { name: 'private.touch_updated_at', executableBy: [] },
  { name: 'private.guard_users_owner_update', executableBy: [] },
  ...prPrivateFunctions,
  ...vsPrivateFunctions,
];
