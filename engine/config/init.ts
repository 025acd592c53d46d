/**
 * `policyfuzz init`: applies an existing migrations folder to a scratch database, reads what
 * is there, and writes a starting config: the rules whose tables and functions exist, the
 * rules that do not apply (and why), and the columns the fixture filler will complete.
 */
import { raisesMessageFirst } from '../introspection/raise-forms.ts';
import { defaultDrawsAtRandom } from './random-default.ts';
import path from 'node:path';
import type { DatabaseServer } from '../db/providers/server.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { openEnvironment } from '../runner/environment.ts';
import type { DataProperty } from '../runner/data-property.ts';
import { readSeededTables, readTableShapes, relationsReadBy } from '../introspection/table-shapes.ts';
import { seededModelTablesNote } from '../target/fixtures.ts';
import type { NormalizedDraws, NotNullDraws, PackModel, SourceSetting } from '../pack.ts';
import { copiesSignInEmailUnchanged, proposeNormalizedDraws } from './normalized-draws.ts';
import { proposeEmailDomain } from './email-domain.ts';
import { withDomain } from '../model/email-address.ts';
import { answersVoidOf } from '../model/function-model.ts';
import { fitToTarget, unexposedFunctionSchema } from '../runner/applicability.ts';
import { FUNCTION_OUTSIDE_API } from '../model/predict.ts';
import { readTargetFacts } from '../introspection/target-facts.ts';
import { MANAGED_SCHEMAS } from '../db/supabase/managed-schemas.ts';
import { defaultsSpelledAsTarget, targetSpelling } from '../mapping/target-spelling.ts';
import { quotedColumnsAsModel } from '../mapping/source-in-model-names.ts';
import { proposeMapping, proposeVocabularySubsets, refusalConventions, sqlstateOf, type Proposal, type TargetFacts, type VocabularySetting } from '../mapping/propose.ts';
import { setPath, valueAtPath } from '../mapping/dotted-path.ts';
import { mergeMappings } from '../mapping/schema.ts';
import { computedViews, writtenSchemas, writtenTables, type TargetMapping } from '../mapping/mapping.ts';
import { escapeRegExp } from '../regexp.ts';
import { serverMustWrite } from '../target/fill-row.ts';
import { apiSchemasOf } from './supabase-project.ts';
import { conventionsWithoutCodedRefusals, type CodedRefusal } from './coded-refusals.ts';
import { standInNote, standInsInstalled } from '../db/supabase/stand-ins.ts';
import { appSettingsNote, appSettingsReadByPolicies, requestHeadersNote } from '../introspection/app-settings.ts';
import { appMetadataMirrorNote, readAppMetadataMirror } from '../introspection/app-metadata-mirror.ts';

export interface InitReport {
  config: Record<string, unknown>;
  applicable: string[];
  notApplicable: { id: string; missing: string[] }[];
  filledColumns: string[];
  /** The mapping and settings proposed from the catalog, with what each guess rests on. */
  proposal: Proposal;
}

export interface InspectOptions {
  /** Migration file names left out (written to the config's `skip`). */
  skip?: string[];
  /** The pack module to name in the config's `pack` (absolute). */
  packModule?: string;
  /** The ids of the pack's own catalog properties, rules the config may name; default the reference's (R15, R16). */
  catalogIds?: string[];
  /** The pack's default settings: where a function's output columns are a setting (FunctionModel.columnsSetting), init proposes the target's. */
  defaultSettings?: unknown;
  /** Pack.projectSettings: settings written for every project, with their note. */
  projectSettings?: { settings: Record<string, unknown>; note: string };
  /** The pack's model settings (its settings schema's keys); none: the config's `model` has nothing to set, and no note says it has. Absent: the reference's. */
  settingsKeys?: string[];
  /** Pack.notNullDraws: settings init fills with the columns this target holds NOT NULL. */
  notNullDraws?: NotNullDraws[];
  /** Pack.normalizedDraws: settings init fills with the columns whose CHECK refuses a value case-flipped or padded. */
  normalizedDraws?: NormalizedDraws[];
  /** Pack.targetIdSettings: settings init sets to the form this target keeps the ids in. */
  targetIdSettings?: { path: string; table: string; column: string }[];
  /** Pack.targetDrawSettings: settings init sets where the target draws a model generated column at random. */
  targetDrawSettings?: { path: string; table: string; column: string; value: string }[];
  /** Pack.sourceSettings: settings read off the target's function bodies. */
  sourceSettings?: SourceSetting[];
  /** Pack.userKeySettings: settings init sets where the target keys a model table by its user. */
  userKeySettings?: { path: string; table: string; column: string; unlessColumn: string; value: string }[];
  /** The pack's own mapping (a table sent as SQL, its names): what the run refines with the config's, so applicability reads both. */
  packMapping?: TargetMapping;
}

/**
 * A PL/pgSQL body that can refuse: RAISE at its default level (EXCEPTION), or said so, with a
 * message, USING, SQLSTATE or a condition name (`raise insufficient_privilege;`); never a NOTICE.
 */
export const RAISES = /\braise\s+(?:exception\b|sqlstate\b|using\b|'|(?!(?:debug|log|info|notice|warning)\b)[a-z_]+\s*(?:;|using\b))/i;

/** A setting under a group, its key whole (`functionColumns.passport.admin_leaderboard`: group functionColumns, key passport.admin_leaderboard). */
function groupAndKey(dotted: string): [string, string] {
  const dot = dotted.indexOf('.');
  return [dotted.slice(0, dot), dotted.slice(dot + 1)];
}

function valueAt(settings: unknown, dotted: string): unknown {
  const [group, key] = groupAndKey(dotted);
  return (settings as Record<string, Record<string, unknown> | undefined> | undefined)?.[group]?.[key];
}

/**
 * A pack's config may set only its own settings (its settings schema's keys: a `definePack` pack
 * has no reference `tableGrants`, and its config would be refused). Proposals under other keys are
 * taken out of the settings, and their notes say where that choice goes instead: the pack's model.
 * Returns the keys taken out. `settingsKeys` absent: the reference's settings, all kept.
 */
export function dropSettingsThePackLacks(proposal: Pick<Proposal, 'settings' | 'notes'>, settingsKeys: readonly string[] | undefined): string[] {
  if (!settingsKeys) return [];
  const lacking = Object.keys(proposal.settings).filter((k) => !settingsKeys.includes(k));
  for (const key of lacking) delete proposal.settings[key];
  if (lacking.length) {
    const lacks = new RegExp(`^(confirm: )?model\\.(${lacking.map(escapeRegExp).join('|')})\\.`);
    proposal.notes = proposal.notes.map((n) => {
      const m = lacks.exec(n);
      return m ? `${n} (not written: the pack's settings have no ${m[2]}; state it in the pack's table model${m[2] === 'tableGrants' ? ', grants.columnUpdate' : ''})` : n;
    });
  }
  return lacking;
}

function setAt(settings: Record<string, unknown>, dotted: string, value: unknown): void {
  const [group, key] = groupAndKey(dotted);
  ((settings[group] ??= {}) as Record<string, unknown>)[key] = value;
}

/**
 * A target vocabulary (a CHECK list or enum) beside the model's check of the same column: the
 * values the model refuses, and, where the model's default is not among the target's values and
 * the target's own default is one the model refuses, that pair as a `values` mapping (the open
 * sign request: the model's `pending`, stranger-app-5's `requested`). A vocabulary the model
 * takes whole needs nothing. Pure.
 */
export function defaultsPaired(values: readonly string[], accepts: (v: string) => boolean, modelDefault: unknown, targetDefault: unknown): { pairs?: Record<string, string>; spellings?: Record<string, string>; unknown: string[] } {
  const spellings = caseSpellings(values, accepts);
  const refused = values.filter((v) => !accepts(v) && !Object.values(spellings ?? {}).includes(v));
  const spelled = spellings ? { spellings } : {};
  if (typeof modelDefault !== 'string' || typeof targetDefault !== 'string' || values.includes(modelDefault) || !refused.includes(targetDefault)) return { ...spelled, unknown: refused };
  return { pairs: { [modelDefault]: targetDefault }, ...spelled, unknown: refused.filter((v) => v !== targetDefault) };
}

/**
 * The target's words the model takes in lower case (an ORM's enum: Prisma's `APPROVED` for the
 * model's `approved`): each paired with the model's spelling, none where there is no such word.
 */
export function caseSpellings(values: readonly string[], accepts: (v: string) => boolean): Record<string, string> | undefined {
  // targetSpelling: the target's one word equal to the model's but for case (none where it has two, `Paid` and `PAID`).
  const pairs = values.flatMap((v) => { const word = v.toLowerCase(); return word !== v && !accepts(v) && accepts(word) && targetSpelling(word, values) === v ? [[word, v] as const] : []; });
  return pairs.length ? Object.fromEntries(pairs) : undefined;
}

/**
 * A pack's project settings over the ones init proposed, a group merged key by key: a group both
 * set (notNullColumns, a vocabulary group) keeps what init read from the target beside the pack's.
 */
export function mergeSettings(into: Record<string, unknown>, from: Record<string, unknown>): void {
  const isGroup = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  for (const [key, value] of Object.entries(from)) {
    const held = into[key];
    into[key] = isGroup(held) && isGroup(value) ? { ...held, ...value } : value;
  }
}

/** The tables (target names, `schema.table` outside public) a trigger function's body inserts into. */
/**
 * A target column's default as the catalog read it (target-facts.ts), the table named as a request
 * names it (bare: in the first exposed schema). A view the API writes through has its table's
 * defaults there: stranger-app-9's `api.vs_tickets` shows `public_ref`, whose `gen_random_uuid()`
 * default `app.vs_tickets` holds (looked up as `public.vs_tickets`, init called it not found).
 * A generated column's expression is no default.
 */
export function columnDefaultOf(facts: Pick<TargetFacts, 'tables'>, firstSchema: string, table: string, column: string): string | undefined {
  // The facts name a table of `public` bare: a mapping's `public.vs_tickets` is that one.
  const name = table.startsWith('public.') ? table.slice('public.'.length) : table.includes('.') || firstSchema === 'public' ? table : `${firstSchema}.${table}`;
  const c = facts.tables.find((t) => t.name === name)?.columns.find((x) => x.name === column);
  return c?.serverFilled === 'generated' ? undefined : c?.defaultExpr;
}

export function insertTargets(source: string): string[] {
  // As Postgres reads names: a quoted one keeps its case (public."Profile"), an unquoted one folds to lower case.
  const name = (part: string) => (part.startsWith('"') ? part.slice(1, -1) : part.toLowerCase());
  const found = [...source.matchAll(/\binsert\s+into\s+(?:("[^"]+"|[A-Za-z_][\w$]*)\s*\.\s*)?("[^"]+"|[A-Za-z_][\w$]*)/gi)].map((m) => (m[1] ? `${name(m[1])}.` : '') + name(m[2]));
  return [...new Set(found.map((t) => (t.startsWith('public.') ? t.slice('public.'.length) : t)))];
}

/** What init's proposal reads of the model's functions: names, arguments, answer rows, and whether each answers nothing (answersVoidOf). */
export function modelFunctionFacts(functions: PackModel['functions']): { name: string; args: string[]; answerRows?: Record<string, readonly string[]>; answersVoid?: true }[] {
  return Object.values(functions).map((f) => ({ name: f.name, args: f.args, ...(f.answerRows ? { answerRows: f.answerRows } : {}), ...(answersVoidOf(f) ? { answersVoid: true as const } : {}) }));
}

export async function inspectMigrations(server: DatabaseServer, migrationDirs: string | string[], properties: DataProperty[], configDir: string, model: PackModel, vocabularies: VocabularySetting[] = [], options: InspectOptions = {}): Promise<InitReport> {
  const tableModels = model.tables;
  const folders = [migrationDirs].flat();
  const skip = options.skip ?? [];
  // A Supabase project's config.toml says which schemas its API exposes.
  const api = apiSchemasOf(folders);
  const env = await openEnvironment({ server, migrations: folders.flatMap((f) => loadMigrationFolder(f, skip)), workers: 1, ...(api ? { api } : {}) });
  try {
    const client = env.workers[0].client;
    // A model table in a schema the API does not expose (views in public over it) is found by its name there.
    const written = writtenSchemas(model, options.packMapping);
    const facts = await readTargetFacts(client, [...new Set([...env.cache.exposedSchemas, ...written])]);
    const modelFacts = {
        tables: Object.values(tableModels)
          .filter((t) => !t.view)
          .map((t) => ({
            name: t.table,
            columns: t.columns.map((c) => ({ name: c.name, type: c.type, primaryKey: t.primaryKey.length === 1 && t.primaryKey[0] === c.name, vocabulary: !!c.check, hasDefault: c.default !== undefined && c.default !== null, ...(typeof c.default === 'string' ? { textDefault: c.default } : {}), nullable: c.nullable, generated: c.generated !== undefined, references: t.foreignKeys?.find((f) => ('column' in f ? f.column === c.name : f.columns.length === 1 && f.columns[0] === c.name))?.references, ...(c.aliases ? { aliases: c.aliases } : {}) })),
            guarded: !!(t.beforeInsert || t.beforeUpdate),
          })),
        functions: modelFunctionFacts(model.functions),
        views: Object.values(tableModels).filter((t) => t.view).map((t) => t.table),
      };
    const proposal = proposeMapping(
      modelFacts,
      facts,
      vocabularies,
      env.cache.exposedSchemas[0],
    );
    const mapping = proposal.mapping;
    const shapes = await readTableShapes(client, [...new Set(['public', 'passport', 'auth', ...env.cache.exposedSchemas, ...written])]);
    // A trigger on auth.users usually creates the profile row: fixtures then complete it instead.
    // One that also makes rows of other model tables (a home workspace, a personal org) would put
    // rows in every case no world has: it is switched off while fixtures are written instead. So
    // is one on any other table the fixtures write and the model does not (storage.objects: an
    // upload trigger making a documents row), and one on a model table that makes rows of a model
    // table (Capgo: a new org makes its creator's org_users row, which the worlds state themselves).
    const modelTargets = new Map(Object.keys(tableModels).map((t) => [mapping.tables?.[t]?.name ?? t, t]));
    const fixtureOnly = [...new Set(['auth.users', ...model.fixtureOrder.filter((t) => !tableModels[t] && !modelTargets.has(t))])];
    const writerTriggers = await client.query<{ on: string; name: string; source: string }>(
      `select case when n.nspname = 'public' then c.relname else n.nspname || '.' || c.relname end as on, t.tgname as name, p.prosrc as source
         from pg_trigger t join pg_proc p on p.oid = t.tgfoid join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where not t.tgisinternal and t.tgname not like 'policyfuzz\\_%' and (case when n.nspname = 'public' then c.relname else n.nspname || '.' || c.relname end) = any($1) order by 1, 2`,
      [[...fixtureOnly, ...modelTargets.keys()]],
    );
    const authTriggers = { rows: writerTriggers.rows.filter((t) => t.on === 'auth.users') };
    const usersTarget = tableModels.users ? (mapping.tables?.users?.name ?? 'users') : undefined;
    // A guard there (raising on a verified MFA factor unless an email OTP was seen) would refuse rows the worlds state as they are.
    // A signup trigger reading raw_app_meta_data (an org or role an admin sets when inviting: stranger-app-10's
    // `(new.raw_app_meta_data ->> 'org_id')::uuid` into a NOT NULL column) fails on the bare auth.users rows the fixtures write.
    const triggerWrites = writerTriggers.rows.map((t) => ({ on: t.on, name: t.name, models: insertTargets(t.source).filter((x) => modelTargets.has(x)), guard: t.on !== 'auth.users' && fixtureOnly.includes(t.on) && RAISES.test(t.source), readsAppMetadata: t.on === 'auth.users' && /raw_app_meta_data/i.test(t.source) }));
    const bypass = triggerWrites.filter((t) => t.guard || t.readsAppMetadata || (t.on === 'auth.users' ? t.models.some((x) => x !== usersTarget) || (t.models.length && !usersTarget) : t.models.length > 0));
    const users = authTriggers.rows.length > 0 && usersTarget && !bypass.some((t) => t.on === 'auth.users') ? 'auth-trigger' : 'direct';
    const applicable: string[] = [];
    const notApplicable: InitReport['notApplicable'] = [];
    const fitNotes: string[] = [];
    // As the run will: the pack's mapping refined by the config's (a pack sending rbac.members as SQL).
    const merged = mergeMappings(options.packMapping, mapping);
    const unexposedIn = unexposedFunctionSchema(env.cache, merged);
    for (const p of properties) {
      const { property, missing, leftOut } = fitToTarget(p, env.cache, merged);
      if (missing.length) notApplicable.push({ id: p.id, missing });
      else applicable.push(p.id);
      if (missing.length) continue;
      const unexposed = p.refusedOutsideApi ? (property.functions ?? []).flatMap((f) => { const schema = unexposedIn(f); return schema ? [`${f} (${schema})`] : []; }) : [];
      if (unexposed.length) fitNotes.push(`${p.id}: ${unexposed.join(', ')} found outside the API's schemas, not exposed: ${p.id}'s calls to them are refused by PostgREST (PGRST202, secure reading ${FUNCTION_OUTSIDE_API})`);
      if (leftOut.length) fitNotes.push(`${p.id} runs without ${leftOut.join(', ')} (not in the target under the model's name: a helper named otherwise is not called)`);
    }
    const filledColumns: string[] = [];
    const targetOf = (table: string) => mapping.tables?.[table]?.name ?? table;
    const knownOf = (table: string, m: (typeof tableModels)[string]) => new Set(m.columns.map((c) => mapping.tables?.[table]?.columns?.[c.name] ?? c.name));
    for (const [table, model] of Object.entries(tableModels)) {
      const known = knownOf(table, model);
      for (const c of shapes.get(targetOf(table)) ?? []) {
        // The tenant column is the caller's tenant's (fixtures.tenantColumn, its own note), not a filler's value.
        if (serverMustWrite(c) && !known.has(c.name) && c.name !== proposal.tenantColumn) filledColumns.push(`${targetOf(table)}.${c.name}`);
      }
    }
    // Vocabularies the schema pins with CHECKs or enums: the model settings a person must map them to.
    const vocabularyHints: string[] = [];
    const proposedSettings = new Set(vocabularies.map((v) => v.column));
    for (const [table, model] of Object.entries(tableModels)) {
      for (const c of shapes.get(targetOf(table)) ?? []) {
        const values = c.vocabulary ?? c.enumLabels;
        const modelColumn = model.columns.find((m) => (mapping.tables?.[table]?.columns?.[m.name] ?? m.name) === c.name);
        if (!values || !modelColumn?.check || proposedSettings.has(`${table}.${modelColumn.name}`)) continue;
        // Without the pack's settings the model's check cannot be asked: every value is named, as before.
        const accepts = options.defaultSettings === undefined ? () => false : (v: string) => modelColumn.check!(v, options.defaultSettings);
        const fit = defaultsPaired(values, accepts, modelColumn.default, c.constantDefault);
        if (fit.pairs) {
          const at = ((mapping.tables ??= {})[table] ??= {});
          at.values = { ...at.values, [modelColumn.name]: { ...at.values?.[modelColumn.name], ...fit.pairs } };
          const [[word, spelled]] = Object.entries(fit.pairs);
          vocabularyHints.push(`confirm: mapping.tables.${table}.values.${modelColumn.name}: ${word} → ${spelled} (the model's default, ${word}, is ${targetOf(table)}.${c.name}'s default, ${spelled})`);
        }
        if (fit.spellings) {
          const at = ((mapping.tables ??= {})[table] ??= {});
          at.values = { ...at.values, [modelColumn.name]: { ...at.values?.[modelColumn.name], ...fit.spellings } };
          vocabularyHints.push(`confirm: mapping.tables.${table}.values.${modelColumn.name}: ${Object.entries(fit.spellings).map(([word, spelled]) => `${word} → ${spelled}`).join(', ')} (${targetOf(table)}.${c.name} spells the model's words in another case)`);
        }
        if (fit.unknown.length) {
          vocabularyHints.push(`${table}.${c.name} allows ${values.join(', ')}; the model refuses ${fit.unknown.join(', ')}: map it in "model" (e.g. roles, staffRoles, adminRoles, statuses) where a setting names it, else as mapping.tables.${table}.values.${modelColumn.name} (model value → ${targetOf(table)}'s)`);
        }
      }
    }
    // A function returning fewer of the model's columns (fewer is never a leak) is the column
    // setting's to say; columns beyond the model's are a person's to allow (extraColumns), never init's.
    const settingNotes: string[] = [];
    for (const [name, fn] of Object.entries(model.functions)) {
      const defaults = fn.columnsSetting ? valueAt(options.defaultSettings, fn.columnsSetting) : undefined;
      const target = facts.functions.find((f) => f.name === (mapping.functions?.[name]?.name ?? name));
      if (!Array.isArray(defaults) || !target?.outColumns.length) continue;
      const renamed = new Map(Object.entries(mapping.functions?.[name]?.columns ?? {}).map(([m, t]) => [t, m]));
      const returned = target.outColumns.map((c) => renamed.get(c) ?? c);
      const kept = (defaults as string[]).filter((c) => returned.includes(c));
      const extra = returned.filter((c) => !(defaults as string[]).includes(c));
      if (kept.length && kept.length < defaults.length) {
        setAt(proposal.settings, fn.columnsSetting!, kept);
        settingNotes.push(`model.${fn.columnsSetting} from ${target.name}'s output: ${kept.join(', ')} (it returns none of ${(defaults as string[]).filter((c) => !kept.includes(c)).join(', ')})`);
      }
      if (extra.length) settingNotes.push(`to do: ${target.name} also returns ${extra.join(', ')}, which the model's ${name} does not: where the spec allows showing them, list them in mapping.functions.${name}.extraColumns (each is otherwise reported as a leak)`);
    }
    // Columns the generators leave null in some rows that this target holds NOT NULL: drawn
    // without null, or nearly every case naming such a row would be dropped (docs/config.md).
    for (const draws of options.notNullDraws ?? []) {
      const mapped = mapping.tables?.[draws.table]?.columns ?? {};
      const shape = shapes.get(targetOf(draws.table)) ?? [];
      // A column kept as an array of one (arrayOfOne) holds a null as an empty array, unless a CHECK wants an element (`cardinality(roles) >= 1`).
      const asArray = mapping.tables?.[draws.table]?.arrayOfOne ?? [];
      const holdsNoNull = (t: (typeof shape)[number], c: string) => (asArray.includes(c) ? (t.checks ?? []).some((k) => k.kind === 'minItems' && k.min > 0) : t.notNull);
      const held = draws.columns.filter((c) => mapped[c] !== null && shape.some((t) => t.name === (mapped[c] ?? c) && holdsNoNull(t, c) && !t.generated));
      if (!held.length) continue;
      setAt(proposal.settings, draws.path, held);
      settingNotes.push(`model.${draws.path}: ${held.join(', ')} (${held.map((c) => `${targetOf(draws.table)}.${mapped[c] ?? c}${asArray.includes(c) ? ' (an array that must hold an element)' : ''}`).join(', ')} NOT NULL here: rows are drawn without a null there, as this schema cannot store one)`);
    }
    // A model column under its target name (null: the target has none).
    const mappedColumn = (table: string, column: string) => (mapping.tables?.[table]?.columns?.[column] === undefined ? column : mapping.tables[table]!.columns![column]);
    // A nested path (`vs.publicHandle.idAs`): every dot a level, unlike a function's dotted name under setAt.
    const setNested = (dotted: string, value: string | number | string[]) => setPath(proposal.settings, dotted, value);
    // The e-mail domain first: the normalized draws' sample is then an e-mail in it.
    const emailDomains = proposeEmailDomain(options.normalizedDraws ?? [], targetOf, mappedColumn, (t) => shapes.get(t));
    for (const d of emailDomains) {
      if (d.domain) setNested(d.path, d.domain);
      settingNotes.push(d.note);
    }
    const inProposedDomain = (draws: NormalizedDraws): NormalizedDraws => {
      const domain = emailDomains.find((d) => d.path === draws.domainSetting)?.domain;
      return domain ? { ...draws, sample: withDomain(draws.sample, domain) } : draws;
    };
    // The sign-in e-mail's copy (NormalizedDraws.copiedAtSignup) only where the users rows are a signup trigger's, made from `new.email` as signed up.
    const copiesSignInEmail = users === 'auth-trigger' && authTriggers.rows.some((t) => copiesSignInEmailUnchanged(t.source));
    const normalizedDraws = (options.normalizedDraws ?? []).filter((d) => !d.copiedAtSignup || copiesSignInEmail);
    for (const d of proposeNormalizedDraws(normalizedDraws.map(inProposedDomain), targetOf, mappedColumn, (t) => shapes.get(t))) {
      setAt(proposal.settings, d.path, d.columns);
      settingNotes.push(d.note);
    }
    for (const id of options.targetIdSettings ?? []) {
      const form = mapping.tables?.[id.table]?.uuidIds?.includes(id.column) ? 'uuid' : mapping.tables?.[id.table]?.bigintIds?.includes(id.column) ? 'bigint' : undefined;
      if (!form) continue;
      setNested(id.path, form);
      settingNotes.push(`model.${id.path}: ${form} (computed over ${id.table}.${id.column} as this target keeps it)`);
    }
    for (const draw of options.targetDrawSettings ?? []) {
      const columns = mapping.tables?.[draw.table]?.columns ?? {};
      // Left unmapped where the types differ (the model's text handle, the target's uuid): the same name then.
      const column = columns[draw.column] ?? draw.column;
      const expr = columnDefaultOf(facts, env.cache.exposedSchemas[0], targetOf(draw.table), column);
      if (!expr || !(await defaultDrawsAtRandom(client, expr))) continue;
      setNested(draw.path, draw.value);
      if (columns[draw.column] === null) {
        const table = (mapping.tables![draw.table] ??= {});
        table.columns = { ...columns, [draw.column]: column };
        if (column === draw.column) delete table.columns[draw.column];
        // The table's note named it not found: no longer so.
        const absent = new RegExp(`(; not found \\(null: the target has none\\): .*?)\\b${draw.column}(?:, |$)`);
        const i = proposal.notes.findIndex((n) => n.startsWith(`confirm: model table ${draw.table} is `));
        if (i >= 0) proposal.notes[i] = proposal.notes[i].replace(absent, '$1').replace(/(?:, )?; not found \(null: the target has none\): $|, $/, '');
      }
      settingNotes.push(`confirm: model.${draw.path}: ${draw.value} (${targetOf(draw.table)}.${column} default ${expr}: the model draws each row's value and the fixtures write it; mapped to ${column})`);
    }
    for (const link of options.userKeySettings ?? []) {
      const columns = mapping.tables?.[link.table]?.columns ?? {};
      const keyColumn = columns[link.column] ?? link.column;
      const key = (shapes.get(targetOf(link.table)) ?? []).find((c) => c.name === keyColumn);
      if (columns[link.unlessColumn] !== null || key?.references?.table !== targetOf('users')) continue;
      setNested(link.path, link.value);
      settingNotes.push(`model.${link.path}: ${link.value} (${targetOf(link.table)}.${keyColumn} references ${targetOf('users')} and it has no ${link.unlessColumn}: a row keyed by its user)`);
    }
    // Lists of a pinned vocabulary (who is staff, admin, a handler) naming values it lacks: read off
    // the schema's helpers, in any schema (a `private` one the API never exposes included).
    const helpers = await client.query<{ name: string; source: string; returns: string }>(
      `select p.proname::text as name, p.prosrc as source, format_type(p.prorettype, null) as returns from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname not like 'pg\\_%' and n.nspname <> all($1::text[])
          and p.prolang <> (select oid from pg_language where lanname = 'c') order by 1`,
      [[...MANAGED_SCHEMAS, 'pgmq']],
    );
    // Every body as init reads it: a raise with its message a named option in the message-first form (raise-forms.ts).
    for (const h of helpers.rows) h.source = raisesMessageFirst(h.source);
    // The defaults' words as the target spells them (an ORM's PENDING for pending), before the helpers are read beside them.
    const spelled = defaultsSpelledAsTarget(vocabularies.flatMap((v) => (v.path ? [v.path] : [])), proposal.settings, options.defaultSettings);
    const subsets = proposeVocabularySubsets(vocabularies, proposal.settings, spelled.defaults, helpers.rows);
    mergeSettings(proposal.settings, spelled.settings);
    mergeSettings(proposal.settings, subsets.settings);
    // A list the helpers decided is theirs to note.
    settingNotes.push(...spelled.notes.filter((n) => valueAtPath(subsets.settings, n.path) === undefined).map((n) => n.text), ...subsets.notes);
    const functionBody = (name: string): [string[], string] => {
      const fn = mapping.functions?.[name]?.name ?? name;
      const body = helpers.rows.find((h) => h.name === fn.split('.').at(-1))?.source;
      return [body === undefined ? [] : [body], fn];
    };
    // Each policy of a table for a command (or `all`) on its own: its USING and WITH CHECK, as pg_policies prints them.
    const policiesOf = async (p: { table: string; command: string }): Promise<[string[], string]> => {
      const table = targetOf(p.table);
      const [schema, name] = table.includes('.') ? table.split('.') : ['public', table];
      const rows = (await client.query<{ text: string }>(`select concat_ws(' ', qual, with_check) as text from pg_policies where schemaname = $1 and tablename = $2 and cmd in (upper($3), 'ALL') order by policyname`, [schema, name, p.command])).rows;
      return [rows.map((r) => r.text), `${table}'s ${p.command} policy`];
    };
    // The relation $1 names and, for a view, the tables under it (stranger-app-6's api views): whose triggers and CHECKs are read.
    const RELATION_AND_TABLES_UNDER = `select to_regclass($1) union select unnest(${relationsReadBy('to_regclass($1)')})`;
    // The functions of a table's triggers (its guards), named by the target as it likes.
    const triggersOf = async (p: { table: string }): Promise<[string[], string]> => {
      const table = targetOf(p.table);
      const rows = (await client.query<{ source: string }>(`select distinct p.prosrc as source from pg_trigger t join pg_proc p on p.oid = t.tgfoid where t.tgrelid in (${RELATION_AND_TABLES_UNDER}) and not t.tgisinternal order by 1`, [table])).rows;
      return [rows.map((r) => raisesMessageFirst(r.source)), `a trigger on ${table}`];
    };
    // A table's CHECK constraints (a cap: `jsonb_array_length(remarks) <= 40`).
    const checksOf = async (p: { table: string }): Promise<[string[], string]> => {
      const table = targetOf(p.table);
      const rows = (
        await client.query<{ definition: string }>(
          `select pg_get_constraintdef(k.oid) as definition from pg_constraint k where k.contype = 'c' and k.conrelid in (${RELATION_AND_TABLES_UNDER}) order by k.conname`,
          [table],
        )
      ).rows;
      return [rows.map((r) => r.definition), `a CHECK of ${table}`];
    };
    const codedRefusals: CodedRefusal[] = [];
    // `'display_name', 'avatar_url'` (target names) as the model's columns of `table` that it has.
    const modelColumnsNamed = (table: string, list: string): string[] => {
      const asModel = new Map(Object.entries(mapping.tables?.[table]?.columns ?? {}).flatMap(([m, t]) => (t ? [[t, m] as const] : [])));
      const own = new Set(tableModels[table]?.columns.map((c) => c.name) ?? []);
      return [...list.matchAll(/'((?:[^']|'')*)'/g)].map((m) => asModel.get(m[1]) ?? m[1]).filter((c) => own.has(c));
    };
    for (const read of options.sourceSettings ?? []) {
      const [sources, where] = 'fn' in read ? functionBody(read.fn) : 'trigger' in read ? await triggersOf(read.trigger) : 'check' in read ? await checksOf(read.check) : await policiesOf(read.policy);
      const pattern = new RegExp(read.pattern, 'i');
      const matches = sources.map((source) => pattern.exec(quotedColumnsAsModel(source, mapping)));
      if (read.every && (!matches.length || matches.includes(null))) continue;
      const found = matches.find((m) => m !== null);
      if (!found) continue;
      const leftOut = read.columns?.leaveOut ? valueAt(options.defaultSettings, read.columns.leaveOut) : undefined;
      const value = read.value ?? (read.number ? Number(found[1]) : read.sqlstate ? sqlstateOf(found[1]) : read.columns ? modelColumnsNamed(read.columns.table, found[1]).filter((c) => !(Array.isArray(leftOut) && leftOut.includes(c))) : found[1]);
      // An allow-list naming a column the spec keeps privileged is no secure reading to propose: the run keeps the pack's.
      if (value === undefined || (read.sqlstate && value === 'P0001') || (Array.isArray(value) && value.some((c) => read.columns?.privileged?.includes(c)))) continue;
      // The pack's own choice already: nothing to write or confirm.
      if (JSON.stringify(valueAt(options.defaultSettings, read.path)) === JSON.stringify(value)) continue;
      setNested(read.path, value);
      settingNotes.push(`confirm: model.${read.path}: ${Array.isArray(value) ? JSON.stringify(value) : value} (${read.why}, as ${where} does)`);
      const raised = read.sqlstate ? /'((?:[^']|'')*)'/.exec(found[0])?.[1] : undefined;
      if (raised !== undefined) codedRefusals.push({ code: String(value), text: raised.replace(/''/g, "'") });
    }
    // A refusal the model now expects in the target's code is no longer read as its P0001.
    const coded = conventionsWithoutCodedRefusals(mapping.conventions, codedRefusals);
    if (coded.dropped.length) {
      if (coded.conventions && Object.keys(coded.conventions).length) mapping.conventions = coded.conventions;
      else delete mapping.conventions;
      settingNotes.push(...coded.dropped.map((d) => `mapping.conventions.${d}`));
      // Their "confirm: … refuse with" notes say no more than what is left.
      const left = (key: 'functionRefusal' | 'guardRefusal') => mapping.conventions?.[key];
      proposal.notes = proposal.notes.filter((n) => !((n.startsWith('confirm: functions refuse with') && !left('functionRefusal')) || (n.startsWith('confirm: guards (triggers) refuse with') && !left('guardRefusal'))));
      // A convention left out wholly: read again without the coded refusals (the next code the functions refuse with).
      const beyond = refusalConventions(modelFacts, facts, codedRefusals);
      for (const [key, who] of [['functionRefusal', 'functions'], ['guardRefusal', 'guards (triggers)']] as const) {
        const next = beyond[key];
        if (left(key) || !next) continue;
        mapping.conventions = { ...mapping.conventions, [key]: next };
        settingNotes.push(`confirm: ${who} refuse with ${next.code} (messages matching ${next.message}) where the model raises P0001, besides the refusals whose codes model.refusals.codes names`);
      }
    }
    if (options.projectSettings) {
      mergeSettings(proposal.settings, options.projectSettings.settings);
      settingNotes.push(options.projectSettings.note);
    }
    dropSettingsThePackLacks(proposal, options.settingsKeys);
    const standIns = standInNote(await standInsInstalled(client));
    const settingsRead = await appSettingsReadByPolicies(client);
    const appSettings = appSettingsNote(settingsRead);
    const headersRead = requestHeadersNote(settingsRead);
    const appMetadataMirror = await readAppMetadataMirror(client);
    // The API's tables (not Supabase's own: storage), and those of the schemas the pack's own tables name (`base.settings`, sent as SQL).
    const packSchemas = [...new Set(Object.values(tableModels).flatMap((t) => (t.table.includes('.') && !t.table.startsWith('auth.') ? [t.table.split('.')[0]] : [])))];
    const inPackSchemas = (await client.query<{ name: string }>(`select format('%s.%s', schemaname, tablename) as name from pg_tables where schemaname = any($1) order by 1`, [packSchemas])).rows.map((r) => r.name);
    const tablesFound = [...new Set([...[...env.cache.tables.keys()].filter((t) => !MANAGED_SCHEMAS.includes(t.split('.')[0])), ...inPackSchemas])];
    const seeded = seededModelTablesNote({ users: 'direct', bypassTriggers: false, mapping, shapes, seededTables: await readSeededTables(client, shapes) }, writtenTables(model), model.fixtureOrder, computedViews(model));
    const notes = [
      ...(standIns ? [standIns] : []),
      ...(api ? [`API schemas ${api.exposedSchemas.join(', ')}, extra search path ${api.extraSearchPath.join(', ')} (from ${path.relative(configDir, api.source!) || api.source})`] : []),
      `tables found: ${tablesFound.join(', ') || 'none'}`,
      ...notApplicable.map((n) => `${n.id} not applicable: missing ${n.missing.join(', ')}`),
      ...fitNotes,
      ...(users === 'auth-trigger' ? ['auth.users has a trigger: fixtures insert auth.users and complete the row it creates'] : []),
      ...(bypass.length
        ? [`${bypass.map((t) => `${t.on} has trigger ${t.name} ${t.readsAppMetadata ? 'reading raw_app_meta_data, which an admin sets and no fixture row carries' : t.models.length ? `writing ${t.models.join(', ')}` : 'refusing rows (it raises)'}`).join('; ')}, which the model's worlds write themselves: switched off while fixtures are written (fixtures.bypassTriggers)${users === 'direct' ? '; rows are written directly' : ''}`]
        : users === 'direct'
          ? ['users rows are written directly']
          : []),
      ...proposal.notes,
      ...(appSettings ? [appSettings] : []),
      ...(headersRead ? [headersRead] : []),
      ...(appMetadataMirror ? [appMetadataMirrorNote(appMetadataMirror)] : []),
      ...settingNotes,
      ...vocabularyHints,
      ...(seeded ? [seeded] : []),
      filledColumns.length ? `columns the fixture filler completes: ${filledColumns.join(', ')}` : 'no columns need filling',
      ...(options.settingsKeys?.length === 0 ? [] : ['model: every choice where the spec is silent (roles, staff and admin roles, vocabularies, allow-lists); see README "Choices"']),
    ];
    const relative = (f: string) => path.relative(configDir, path.resolve(f)) || '.';
    const config = {
      notes,
      ...(options.packModule ? { pack: relative(options.packModule).startsWith('.') ? relative(options.packModule) : `./${relative(options.packModule)}` } : {}),
      migrations: folders.length === 1 ? relative(folders[0]) : folders.map(relative),
      ...(skip.length ? { skip } : {}),
      supabaseCompat: true,
      model: proposal.settings,
      // Only a rule the pack has: a definePack pack's grants are GRANT01's, which reads the convention itself.
      // Nothing applicable: no `include` (every rule runs, each not applicable one named with its reason), never an empty list that runs none.
      rules: { ...(applicable.length ? { include: applicable } : {}), exclude: mapping.conventions?.grants === 'supabase-default' && (options.catalogIds ?? ['R15', 'R16']).includes('R16') ? ['R16:catalog'] : [] },
      fixtures: { users, bypassTriggers: bypass.length ? bypass.map((t) => `${t.on}.${t.name}`) : false, ...(proposal.tenantColumn ? { tenantColumn: proposal.tenantColumn } : {}) },
      ...(appMetadataMirror ? { tokens: { appMetadata: 'auth.users' as const } } : {}),
      ...(Object.keys(mapping).length ? { mapping } : {}),
    };
    return { config, applicable, notApplicable, filledColumns, proposal };
  } finally {
    await env.close();
  }
}
