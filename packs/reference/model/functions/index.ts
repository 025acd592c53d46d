/** Every function the model knows: the API (by name) and the private ones (rule 15 checks both). */
import type { FunctionModel, PrivateFunction } from '../../../../engine/model/function-model.ts';
import { helperFunctions } from './helpers.ts';
import { prFunctions, prPrivateFunctions } from './pr.ts';
import { identityFunctions } from './identity.ts';
import { projectFunctions } from './projects.ts';
import { teamFunctions } from './team.ts';
import { studentFunctions } from './student.ts';
import { passportFunctions } from './passport.ts';
import { vsFunctions, vsPrivateFunctions } from './vs.ts';

export const functionModels: Record<string, FunctionModel> = Object.fromEntries([...helperFunctions, ...prFunctions, ...identityFunctions, ...projectFunctions, ...teamFunctions, ...studentFunctions, ...passportFunctions, ...vsFunctions].map((f) => [f.name, f]));

export const privateFunctions: PrivateFunction[] = [
  { name: 'private.changed_columns', executableBy: [] },
  { name: 'private.reject_outside_allow_list', executableBy: [] },
  { name: 'private.touch_updated_at', executableBy: [] },
  { name: 'private.guard_users_owner_update', executableBy: [] },
  ...prPrivateFunctions,
  ...vsPrivateFunctions,
];
