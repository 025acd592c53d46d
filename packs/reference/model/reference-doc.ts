/**
 * docs/reference-model.md, made from the model itself: every table of the reference pack with
 * its columns (type, null, default, who assigns it) and the values the generic generators draw
 * for a column with a CHECK (the settings' words its check accepts, under the default settings),
 * its grants and row security; every function with its arguments and who may execute it. A
 * mapping can be written from it without reading the source. `node scripts/reference-model-doc.mjs`
 * writes it; packs/reference/model/reference-doc.test.ts fails when it has drifted.
 */
import type { Json } from '../../../engine/model/json.ts';
import { grantsOf, type ColumnSpec } from '../../../engine/model/table-model.ts';
import { vocabulary } from '../generators/patches.ts';
import { functionModels } from './functions/index.ts';
import { ModelSettingsSchema, type ModelSettings } from './settings.ts';
import { ownerGuardedTables, tableModels } from './tables/index.ts';

/** What the generators draw for a column, in words (packs/reference/generators/patches.ts freshValue). */
function drawn(col: ColumnSpec<ModelSettings>, settings: ModelSettings): string {
  if (col.generated) return 'computed by the database (never written)';
  switch (col.type) {
    case 'uuid':
      return "a case's people (auth.users ids), or a fresh uuid for a key";
    case 'text': {
      if (!col.check) return 'words, a URL, or tricky text (quotes, %, _, unicode, empty)';
      const ok = vocabulary(settings).filter((v) => col.check!(v, settings));
      return ok.length ? ok.map((v) => `\`${v}\``).join(', ') : 'words (no setting names a value its CHECK accepts)';
    }
    case 'text[]':
      return `URLs and \`permissions\` (${settings.permissions.map((p) => `\`${p}\``).join(', ')})`;
    case 'boolean':
      return 'true, false';
    case 'integer':
    case 'numeric':
      return col.check ? '0 to 5000 its CHECK accepts (and -1 in invalid writes)' : '0 to 5000';
    case 'timestamptz':
      return '`2024-01-01T00:00:00+00:00`, `2025-06-30T12:30:00+00:00`';
    case 'jsonb':
      return 'a list of `{ event, by }` objects';
  }
}

const cell = (v: Json | undefined) => (v === undefined ? '' : `\`${JSON.stringify(v)}\``);

export function referenceModelDoc(): string {
  const settings = ModelSettingsSchema.parse({});
  const guarded = new Map(ownerGuardedTables.map((g) => [g.table, g.guard]));
  const out: string[] = [
    '# The reference model: tables, columns, values, functions',
    '',
    '<!-- Generated from packs/reference/model by `node scripts/reference-model-doc.mjs`; a test fails when it drifts. Do not edit. -->',
    '',
    'What the bundled reference pack (`packs/reference/`) speaks of, in its own names: the names a',
    "`mapping` translates from (docs/config.md, Mapping). Values are the default settings'; a",
    "config's `model` block changes them (roles, statuses, departments, permissions, …).",
    '',
    '- **type**: the model\'s column type; map a column only to a target column of a compatible type.',
    '- **null**: whether the model writes null there. A target column that is NOT NULL where the model',
    '  says yes holds only the model\'s non-null rows.',
    '- **assigned**: `server` (a default such as now(): present in answers, never compared),',
    '  `generated` (computed, never written).',
    '- **drawn**: what the generic generators write (rule properties aim at the same values, mostly).',
    '  A target vocabulary spelled otherwise: `mapping.tables.<t>.values.<column>`.',
    '',
    '## Tables',
    '',
  ];
  for (const [name, model] of Object.entries(tableModels).sort(([a], [b]) => a.localeCompare(b))) {
    const grants = grantsOf(model, settings);
    const guard = guarded.get(name);
    out.push(`### \`${name}\``, '');
    out.push(`Primary key \`${model.primaryKey.join(', ')}\`; row security ${model.rowSecurity ? 'on' : 'off'}; grants: anon ${grants.anon.join(', ') || 'none'}, authenticated ${grants.authenticated.join(', ') || 'none'}${model.view ? '; a view (computed, never written)' : ''}.`);
    if (guard) out.push(`Owner guard (rule 1): an owner may change only ${guard.editable({ world: {}, caller: { kind: 'anon' }, uid: null, settings }).map((c) => `\`${c}\``).join(', ')}.`);
    out.push('', '| column | type | null | default | assigned | drawn |', '|---|---|---|---|---|---|');
    for (const col of model.columns) {
      const assigned = col.generated ? 'generated' : col.serverAssigned ? 'server' : '';
      out.push(`| \`${col.name}\` | ${col.type} | ${col.nullable ? 'yes' : 'no'} | ${cell(col.default)} | ${assigned} | ${drawn(col, settings)} |`);
    }
    out.push('');
  }
  out.push('## Functions', '', 'Arguments by name as a caller passes them; executable by: the roles holding EXECUTE (rule 15). Answers and how they are compared: [function-models.md](function-models.md).', '');
  out.push('| function | arguments | executable by | server-assigned output |', '|---|---|---|---|');
  for (const [name, fn] of Object.entries(functionModels).sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`| \`${name}\` | ${fn.args.map((a) => `\`${a}\``).join(', ') || '(none)'} | ${fn.executableBy.join(', ') || 'nobody'} | ${(fn.serverAssigned ?? []).map((c) => `\`${c}\``).join(', ')} |`);
  }
  out.push('');
  return out.join('\n');
}
