/**
 * `policyfuzz mutants --auto`: derive variants from the target's own catalog, run the
 * properties that concern each mutated object until one kills it, and explain survivors.
 */
import type { DatabaseServer } from '../../db/providers/server.ts';
import type { DataProperty } from '../../runner/data-property.ts';
import type { CatalogProperty } from '../../runner/catalog-property.ts';
import { openSession, type SessionTarget } from '../../run/session.ts';
import { sqlRoutedTables, type TargetMapping } from '../../mapping/mapping.ts';
import { touches } from '../../config/changed-since.ts';
import { killMutant, type KillResult } from '../kill.ts';
import type pg from 'pg';
import { readCatalog, readPolicyTablesOutside, type Catalog } from './catalog.ts';
import { MANAGED_SCHEMAS } from '../../db/supabase/managed-schemas.ts';
import { deriveMutants, type AutoMutant, type AutoMutationKind } from './derive.ts';

export const AUTO_MUTANT_SCHEMAS = ['public', 'passport', 'private'];

export interface AutoKillResult extends KillResult {
  kind: AutoMutant['kind'];
  target: string;
  /** For a survivor: why it may have survived (`equivalent: …` ones were not run). */
  reason?: string;
}

/** The kill rate counts only variants that can change behaviour. */
export function autoKillRate(results: AutoKillResult[]): { killed: number; total: number; equivalent: number } {
  const equivalent = results.filter((r) => r.reason?.startsWith('equivalent:')).length;
  return { killed: results.filter((r) => r.killedBy.length > 0).length, total: results.length - equivalent, equivalent };
}

/** The rule a kind of variant breaks: its property runs first among those naming the object, so the kill comes fast. */
const OWNING_RULE: Partial<Record<AutoMutant['kind'], number>> = { 'equality-to-ilike': 14 };

/**
 * Properties whose tables or functions name the mutated object, or a table whose policies call it
 * or whose trigger runs it (the owning rule's first); all of them when none do. The variant names the target's objects; a
 * mapping says which model names they stand for.
 */
export function propertiesFor(mutant: AutoMutant, properties: DataProperty[], mapping?: TargetMapping): { list: DataProperty[]; covered: boolean } {
  const object = mutant.target.replace(/\(.*$/, '');
  const names = [object, object.replace(/^[a-z_]+\./, '')];
  const reachedThrough = [...(mutant.calledByPoliciesOf ?? []), ...(mutant.triggerOn ?? [])];
  const covering = properties.filter((p) => touches(p, names, mapping) || touches({ tables: p.tables }, reachedThrough, mapping));
  const owner = OWNING_RULE[mutant.kind];
  const ordered = [...covering.filter((p) => p.rule === owner), ...covering.filter((p) => p.rule !== owner)];
  return covering.length ? { list: ordered, covered: true } : { list: properties, covered: false };
}

export interface AutoOptions {
  server: DatabaseServer;
  /** The unmutated target: its migrations, model, compatibility switch, mapping and fixture plan. */
  target: SessionTarget;
  properties: DataProperty[];
  seed: number;
  runs: number;
  onResult?: (r: AutoKillResult) => void;
  /** A property left out because it already fails on the unmutated target. */
  onExcluded?: (propertyId: string, why: string) => void;
  /** A property left out because the target lacks what it needs (the note names it). */
  onNotApplicable?: (propertyId: string, note: string) => void;
  /**
   * Catalog properties (R15's function grants): checked first on a drop-revoke variant, which
   * they kill in milliseconds. Only those that pass on the unmutated target are used.
   */
  catalogProperties?: CatalogProperty[];
  /**
   * Policies left unmutated, by table: in a schema the API does not expose, on a table the
   * mapping does not send as SQL (`why` names the setting), or in one of Supabase's own schemas.
   */
  onSkipped?: (table: string, policies: number, why: string) => void;
  /** Only variants of these kinds (all when absent). */
  kinds?: readonly AutoMutationKind[];
}

/**
 * The catalog the variants are derived from: the exposed schemas and the usual helper schemas,
 * plus the tables the mapping sends as SQL (with the functions of their schemas). Policies of any
 * other table cannot be reached by a request, so they are left out and reported.
 */
async function mutableCatalog(client: pg.Client, exposedSchemas: string[], mapping: TargetMapping | undefined, onSkipped: AutoOptions['onSkipped']): Promise<Catalog> {
  const sqlRouted = sqlRoutedTables(mapping);
  // Supabase's own schemas stay out even when exposed (storage): their tables are Supabase's, reached through its other APIs.
  const reached = [...new Set([...AUTO_MUTANT_SCHEMAS, ...exposedSchemas.filter((s) => !MANAGED_SCHEMAS.includes(s))])];
  const sqlSchemas = [...sqlRouted].map((t) => t.split('.')[0]).filter((s) => !reached.includes(s));
  const catalog = await readCatalog(client, [...reached, ...sqlSchemas]);
  const kept = (schema: string, table: string) => reached.includes(schema) || sqlRouted.has(`${schema}.${table}`);
  for (const { table, policies } of await readPolicyTablesOutside(client, reached)) {
    if (sqlRouted.has(table)) continue;
    const schema = table.split('.')[0];
    onSkipped?.(
      table,
      policies,
      MANAGED_SCHEMAS.includes(schema)
        ? `schema ${schema} is Supabase's own, reached through its Storage, Realtime or Auth APIs; to mutate its policies, model the table in the pack and send it as SQL, as those APIs query it (mapping.tables["${table}"].via: "sql")`
        : `schema ${schema} is not exposed to the API; set mapping.tables.<model table>.via to "sql" for a table the pack models, to test it (and mutate its policies) as SQL`,
    );
  }
  return {
    ...catalog,
    policies: catalog.policies.filter((p) => kept(p.schema, p.table)),
    rowSecurityTables: catalog.rowSecurityTables.filter((t) => kept(t.schema, t.table)),
  };
}

/** A survivor's reason when the only properties naming its target were left out, failing on the unmutated target (TypeCell's T05). */
export function leftOutNaming(mutant: AutoMutant, failing: DataProperty[], mapping: Parameters<typeof propertiesFor>[2]): string | undefined {
  const { list, covered } = propertiesFor(mutant, failing, mapping);
  return covered ? `not run: ${list.map((p) => p.id).join(', ')}, naming ${mutant.target}, already fails on the unmutated target (left out above)` : undefined;
}

/** A survivor of the properties covering it: which ones, and through what a trigger function is covered. */
export function survivedCovering(mutant: AutoMutant, list: readonly DataProperty[]): string {
  const ids = list.map((p) => p.id).join(', ');
  const through = mutant.triggerOn?.length ? ` (covering ${mutant.target} through the table${mutant.triggerOn.length > 1 ? 's' : ''} its trigger is on, ${mutant.triggerOn.join(', ')})` : '';
  return `survived ${ids}${through}: an equivalent variant, or a gap in ${list.length > 1 ? 'those properties' : 'that property'}`;
}

/** SQL text that may read a table: another table's policy (`owner`), a view, a function body. */
export interface ReadingText {
  owner?: string;
  text: string;
}

async function readingTexts(client: pg.Client): Promise<ReadingText[]> {
  const r = await client.query<ReadingText>(
    `select schemaname || '.' || tablename as owner, coalesce(qual, '') || ' ' || coalesce(with_check, '') as text from pg_policies
     union all select null, definition from pg_views where schemaname not in ('pg_catalog', 'information_schema')
     union all select null, p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')`,
  );
  return r.rows;
}

/**
 * Whether anything besides requests to `target` (a table or view, `schema.name`) reads it: another
 * table's policy, a view or a function naming it (any schema; a name in a comment counts too, which
 * only costs a run). When nothing does and no property names it, its variant can change no
 * property's answer: a gap, reported without running every property (272 migrations and 67
 * deny-all tables made that hours).
 */
export function readElsewhere(target: string, texts: readonly ReadingText[]): boolean {
  if (target.includes('(')) return true;
  const name = target.slice(target.indexOf('.') + 1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(`(^|[^\\w$])"?${name}"?($|[^\\w$])`, 'i');
  return texts.some((t) => t.owner !== target && named.test(t.text));
}

export async function runAutoMutants(options: AutoOptions): Promise<AutoKillResult[]> {
  const base = await openSession({ target: options.target, server: options.server });
  const mapping = options.target.fixtures?.mapping;
  let mutants: AutoMutant[];
  const grantChecks: CatalogProperty[] = [];
  // A property that already fails on the unmutated target would "kill" every variant: leave it out.
  const holding: DataProperty[] = [];
  const failing: DataProperty[] = [];
  let texts: ReadingText[] = [];
  try {
    texts = await readingTexts(base.env.workers[0].client);
    mutants = deriveMutants(await mutableCatalog(base.env.workers[0].client, base.env.cache.exposedSchemas, mapping, options.onSkipped)).filter((m) => !options.kinds || options.kinds.includes(m.kind));
    for (const fitted of base.fit(options.properties, options.seed)) {
      if (!fitted.runnable) {
        if (fitted.result.status === 'not-applicable') options.onNotApplicable?.(fitted.listed.id, fitted.result.note ?? '');
        else options.onExcluded?.(fitted.listed.id, fitted.result.note ?? fitted.result.status);
        continue;
      }
      const r = await base.run(fitted.property, { seed: options.seed, runs: options.runs, stopAtFirst: true });
      if (r.status === 'passed') holding.push(fitted.listed);
      else {
        failing.push(fitted.listed);
        options.onExcluded?.(fitted.listed.id, r.failure?.message ?? r.note ?? r.status);
      }
    }
    for (const property of (options.catalogProperties ?? []).filter((p) => p.rule === 15)) {
      if ((await base.catalog(property, options.seed)).status === 'passed') grantChecks.push(property);
    }
  } finally {
    await base.close();
  }
  const results: AutoKillResult[] = [];
  for (const mutant of mutants) {
    if (mutant.equivalent) {
      const result: AutoKillResult = { mutant: mutant.name, bug: mutant.description, verdicts: {}, killedBy: [], notes: [], kind: mutant.kind, target: mutant.target, reason: `equivalent: ${mutant.equivalent}` };
      results.push(result);
      options.onResult?.(result);
      continue;
    }
    const { list, covered } = propertiesFor(mutant, holding, mapping);
    if (!covered && !leftOutNaming(mutant, failing, mapping) && !readElsewhere(mutant.target, texts)) {
      const result: AutoKillResult = { mutant: mutant.name, bug: mutant.description, verdicts: {}, killedBy: [], notes: [], kind: mutant.kind, target: mutant.target, reason: `gap: no property names ${mutant.target}, and no other table's policy, view or function reads it (not run)` };
      results.push(result);
      options.onResult?.(result);
      continue;
    }
    const catalog = mutant.kind === 'drop-revoke' ? grantChecks : [];
    const kill = await killMutant(
      { name: mutant.name, bug: mutant.description, rules: [...new Set([...catalog.map((p) => p.id), ...list.map((p) => p.id)])], file: { name: `${mutant.name}.sql`, path: `(auto) ${mutant.name}`, sql: mutant.sql }, edits: [] },
      {
        server: options.server,
        target: options.target,
        properties: list,
        catalogProperties: catalog,
        seed: options.seed,
        runs: options.runs,
      },
    );
    const result: AutoKillResult = {
      ...kill,
      kind: mutant.kind,
      target: mutant.target,
      ...(kill.killedBy.length
        ? {}
        : {
            reason: covered ? survivedCovering(mutant, list) : leftOutNaming(mutant, failing, mapping) ?? `gap: no property names ${mutant.target}`,
          }),
    };
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
