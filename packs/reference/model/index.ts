/** The reference application's model: its tables and functions, as the engine's oracle reads them. */
import type { Oracle, PackModel } from '../../../engine/pack.ts';
import { referenceBranches } from './branches.ts';
import { functionModels, privateFunctions } from './functions/index.ts';
import { defaultSettings, tokensFromWorld, type ModelSettings } from './settings.ts';
import { fixtureOrder, tableModels } from './tables/index.ts';

export const referenceModel: PackModel<ModelSettings> = { tables: tableModels, functions: functionModels, privateFunctions, fixtureOrder, branches: referenceBranches.catalog, claimsSetting: 'claims.appMetadataRole', claimsFromWorld: tokensFromWorld };

/** The reference model with its default settings. */
export const referenceOracle: Oracle<ModelSettings> = { model: referenceModel, settings: defaultSettings };

/** The reference model with other settings (a test of a setting's meaning). */
export function referenceOracleWith(settings: ModelSettings): Oracle<ModelSettings> {
  return { model: referenceModel, settings };
}
