/**
 * The reference pack: the application that shared/spec/data-layer-rules.md describes, its 20
 * rules (one folder each under rules/), its migrations and its mutants. A project's own pack
 * can extend it (`extendPack`) or stand alone.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { definePack } from '../../engine/pack.ts';
import { referenceModel } from './model/index.ts';
import { ModelSettingsSchema, roleListMisfits } from './model/settings.ts';
import { catalogProperties, dataProperties } from './properties.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export const referencePack = definePack({
  name: 'reference',
  model: referenceModel,
  settingsSchema: ModelSettingsSchema,
  settingsMisfits: roleListMisfits,
  properties: dataProperties,
  catalogProperties,
  migrations: path.join(here, 'migrations'),
  mutants: path.join(here, 'rules'),
  // Settings a target's own CHECKs and defaults pin: `policyfuzz init` proposes them from there.
  vocabularies: [
    { path: 'roles', column: 'users.role', generatedByName: ['user', 'uni_staff'] },
    { path: 'departments', column: 'users.department' },
    { path: 'pr.statuses', column: 'pr_tickets.status', initialPath: 'pr.initialStatus' },
    { path: 'shop.statuses', column: 'shop_orders.status', initialPath: 'shop.initialStatus' },
    { path: 'vs.statuses', column: 'vs_tickets.status' },
  ],
});

export { referenceModel, referenceOracle, referenceOracleWith } from './model/index.ts';
export { defaultSettings, ModelSettingsSchema, type ModelSettings } from './model/settings.ts';
