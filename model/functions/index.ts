/** Every function the model knows: the API (by name) and the private ones (rule 15 checks both). */
import type { FunctionModel, PrivateFunction } from '../function-model.ts';
import { helperFunctions } from './helpers.ts';

export const functionModels: Record<string, FunctionModel> = Object.fromEntries([...helperFunctions].map((f) => [f.name, f]));

export const privateFunctions: PrivateFunction[] = [
  { name: 'private.changed_columns', executableBy: [] },
  { name: 'private.touch_updated_at', executableBy: [] },
  { name: 'private.guard_users_owner_update', executableBy: [] },
];
