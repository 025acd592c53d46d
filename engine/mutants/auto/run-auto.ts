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
import { killMutant, killVerdict, noVerdictReason, type KillResult } from '../kill.ts';
import type pg from 'pg';
import { readCatalog, readPolicyTablesOutside, type Catalog } from './catalog.ts';
import { MANAGED_SCHEMAS } from '../../db/supabase/managed-schemas.ts';
import { managedTablesTheApiReaches } from './managed-tables-reached.ts';
import { runsAsInvoker } from '../../checker/security-lints.ts';
import { relationsReadBy } from '../../introspection/table-shapes.ts';
import { deriveMutants, type AutoMutant, type AutoMutationKind } from './derive.ts';
import type { MutantVerdict } from '../report.ts';
import { escapeRegExp } from '../../regexp.ts';

export const AUTO_MUTANT_SCHEMAS = ['public', 'passport', 'private'];

export interface AutoKillResult extends KillResult {
  kind: AutoMutant['kind'];
  target: string;
  /** For a survivor: why it may have survived (`equivalent: …` ones were not run). */
  reason?: string;
  /** No property names the variant's object or anything whose SQL reads it: it cannot be killed, so it is listed, not run. */
  uncovered?: true;
  /** The only properties covering it already fail on the unmutated target: not run, no verdict (`reason` names them). */
  notRun?: true;
}

/** A variant listed as not covered by any property, without being run. */
export const uncoveredNotRun = (r: AutoKillResult): boolean => r.uncovered === true && Object.keys(r.verdicts).length === 0;

/** A variant's verdict: killed, equivalent (not run), not covered by any property (not run), not run (its covering properties fail on the target), or as a run mutant's (killVerdict: survived what ran on it, or no verdict when nothing that ran judged it). */
export function autoVerdict(r: AutoKillResult): Exclude<MutantVerdict, 'unreachable'> {
  if (r.killedBy.length) return 'killed';
  if (r.reason?.startsWith('equivalent:')) return 'equivalent';
  if (r.notRun) return 'not-run';
  return uncoveredNotRun(r) ? 'not-covered' : killVerdict(r);
}

/** The kill rate counts only variants that can change behaviour and that were judged: some property covers them (or --run-uncovered ran them), it holds on the target, and it ran its cases on them. */
export function autoKillRate(results: AutoKillResult[]): { killed: number; total: number; equivalent: number; uncovered: number; notRun: number; noVerdict: number } {
  const count = (verdict: MutantVerdict) => results.filter((r) => autoVerdict(r) === verdict).length;
  const [equivalent, uncovered, notRun, noVerdict] = [count('equivalent'), count('not-covered'), count('not-run'), count('no-verdict')];
  return { killed: count('killed'), total: results.length - equivalent - uncovered - notRun - noVerdict, equivalent, uncovered, notRun, noVerdict };
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
  /** Run the variants no property covers too (with every property), instead of listing them unrun. */
  runUncovered?: boolean;
  /** Only variants of these kinds (all when absent). */
  kinds?: readonly AutoMutationKind[];
  /** True once the run is interrupted (a signal): no variant more is run, the one in flight is cut and not reported. */
  stop?: () => boolean;
}

/**
 * The catalog the variants are derived from: the exposed schemas and the usual helper schemas,
 * plus the tables the mapping sends as SQL (with the functions of their schemas) and Supabase's
 * own tables that properties send API requests to. Policies of any other table cannot be reached
 * by a request, so they are left out and reported.
 */
async function mutableCatalog(client: pg.Client, exposedSchemas: string[], mapping: TargetMapping | undefined, properties: readonly DataProperty[], onSkipped: AutoOptions['onSkipped']): Promise<Catalog> {
  const reachedElsewhere = new Set([...sqlRoutedTables(mapping), ...managedTablesTheApiReaches(exposedSchemas, properties, mapping)]);
  // Supabase's own schemas stay out even when exposed (storage): their tables are Supabase's, reached through its other APIs, unless a property sends requests to one.
  const reached = [...new Set([...AUTO_MUTANT_SCHEMAS, ...exposedSchemas.filter((s) => !MANAGED_SCHEMAS.includes(s))])];
  // A table elsewhere that an exposed security_invoker view reads is reached through that view: its policies decide what the view shows.
  const viewed = await tablesReadByInvokerViews(client, reached);
  const sqlSchemas = [...reachedElsewhere, ...viewed].map((t) => t.split('.')[0]).filter((s) => !reached.includes(s));
  const catalog = await readCatalog(client, [...new Set([...reached, ...sqlSchemas])]);
  const kept = (schema: string, table: string) => reached.includes(schema) || reachedElsewhere.has(`${schema}.${table}`) || viewed.has(`${schema}.${table}`);
  for (const { table, policies } of await readPolicyTablesOutside(client, reached)) {
    if (reachedElsewhere.has(table) || viewed.has(table)) continue;
    const schema = table.split('.')[0];
    onSkipped?.(
      table,
      policies,
      MANAGED_SCHEMAS.includes(schema)
        ? exposedSchemas.includes(schema)
          ? `schema ${schema} is Supabase's own, reached through its Storage, Realtime or Auth APIs, and no property names ${table}; to mutate its policies, model the table in the pack and name it in a property (the config exposes ${schema}: its requests go through the API)`
          : `schema ${schema} is Supabase's own, reached through its Storage, Realtime or Auth APIs; to mutate its policies, model the table in the pack and send it as SQL, as those APIs query it (mapping.tables["${table}"].via: "sql")`
        : `schema ${schema} is not exposed to the API; set mapping.tables.<model table>.via to "sql" for a table the pack models, to test it (and mutate its policies) as SQL`,
    );
  }
  return {
    ...catalog,
    policies: catalog.policies.filter((p) => kept(p.schema, p.table)),
    rowSecurityTables: catalog.rowSecurityTables.filter((t) => kept(t.schema, t.table)),
  };
}

/**
 * Tables (`schema.table`) outside `schemas` and Supabase's own that a `security_invoker` view in
 * `schemas` reads: the API reaches their rows, and their policies, through the view (dbdev's
 * `public.members` over `app.members`). A view with its owner's rights reads past their policies.
 */
async function tablesReadByInvokerViews(client: pg.Client, schemas: string[]): Promise<Set<string>> {
  const r = await client.query<{ name: string }>(
    `select distinct bn.nspname || '.' || b.relname as name
       from pg_class v join pg_namespace vn on vn.oid = v.relnamespace
       cross join lateral unnest(${relationsReadBy('v.oid')}) read(oid)
       join pg_class b on b.oid = read.oid and b.relkind in ('r', 'p') join pg_namespace bn on bn.oid = b.relnamespace
      where v.relkind = 'v' and vn.nspname = any($1) and ${runsAsInvoker('v')} and bn.nspname <> all($1) and bn.nspname <> all($2)`,
    [schemas, MANAGED_SCHEMAS],
  );
  return new Set(r.rows.map((x) => x.name));
}

/**
 * A survivor's reason when the only properties naming its target (or, given `reaching`, anything
 * whose SQL reads it) were left out, failing on the unmutated target (TypeCell's T05).
 */
export function leftOutNaming(mutant: AutoMutant, failing: DataProperty[], mapping: Parameters<typeof propertiesFor>[2], reaching: string[] = []): string | undefined {
  const { list, covered } = propertiesFor(mutant, failing, mapping);
  const naming = covered ? list : failing.filter((p) => touches(p, reaching, mapping));
  return naming.length ? `not run: ${naming.map((p) => p.id).join(', ')}, naming ${mutant.target}${covered ? '' : ' or what reads it'}, already fails on the unmutated target (left out above); fix that first` : undefined;
}

/**
 * The properties left out as failing that name a variant's target (or reach it through the tables
 * its trigger is on, or the policies calling it): none when none does. Readest's inbox rpc variants
 * survived "RD02, naming public.complete_inbox_item too, was left out", RD02 naming only book_shares
 * and another function: every failing property was named when none covered the target.
 */
export function leftOutCovering(mutant: AutoMutant, failing: DataProperty[], mapping: Parameters<typeof propertiesFor>[2]): DataProperty[] {
  const { list, covered } = propertiesFor(mutant, failing, mapping);
  return covered ? list : [];
}

/**
 * A survivor of the properties run on it (a drop-revoke's catalog checks among them, where no data
 * property covers it): which ones, and through what a trigger function is covered.
 */
export function survivedCovering(mutant: AutoMutant, run: readonly { id: string }[], leftOut: readonly { id: string }[] = []): string {
  const ids = [...new Set(run.map((p) => p.id))];
  const through = mutant.triggerOn?.length ? ` (covering ${mutant.target} through the table${mutant.triggerOn.length > 1 ? 's' : ''} its trigger is on, ${mutant.triggerOn.join(', ')})` : '';
  return `survived ${ids.join(', ')}${through}: an equivalent variant, or a gap in ${ids.length > 1 ? 'those properties' : 'that property'}${notJudgedBy(mutant, leftOut)}`;
}

/**
 * The properties naming a survivor's target that were left out, failing on the unmutated target:
 * they did not judge it (Supavec's files INSERT variant survived the read property alone, the
 * write property V03 left out), so "a gap" may be theirs to close once their failure is fixed.
 */
function notJudgedBy(mutant: AutoMutant, leftOut: readonly { id: string }[]): string {
  const ids = [...new Set(leftOut.map((p) => p.id))];
  if (!ids.length) return '';
  return `; ${ids.join(', ')}, naming ${mutant.target} too, ${ids.length > 1 ? 'were' : 'was'} left out (already failing on the unmutated target) and did not judge it`;
}

/** Why a run variant no property killed was not: it has no verdict (nothing judged it), or it survived what ran. */
function unkilledReason(mutant: AutoMutant, kill: KillResult, run: readonly { id: string }[], uncoveredRun: boolean, leftOut: readonly { id: string }[]): string {
  if (killVerdict(kill) === 'no-verdict') return noVerdictReason(kill);
  return uncoveredRun ? `not covered by any property: none names ${mutant.target} or anything whose SQL reads it (run by --run-uncovered, survived them all)` : survivedCovering(mutant, run, leftOut);
}

/** SQL text that runs when `owner` (a table, view or function, `schema.name`) is queried or called: its policies, the calls of its triggers, defaults and checks, a view's query, a function's body. */
export interface ReadingText {
  owner: string;
  text: string;
}

async function readingTexts(client: pg.Client): Promise<ReadingText[]> {
  const r = await client.query<ReadingText>(
    `select schemaname || '.' || tablename as owner, coalesce(qual, '') || ' ' || coalesce(with_check, '') as text from pg_policies
     union all select schemaname || '.' || viewname, definition from pg_views where schemaname not in ('pg_catalog', 'information_schema')
     union all select n.nspname || '.' || p.proname, p.prosrc from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')
     union all select n.nspname || '.' || c.relname, t.tgfoid::regproc::text || '()' from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace where not t.tgisinternal
     union all select n.nspname || '.' || c.relname, pg_get_expr(d.adbin, d.adrelid) from pg_attrdef d join pg_class c on c.oid = d.adrelid join pg_namespace n on n.oid = c.relnamespace
     union all select n.nspname || '.' || c.relname, pg_get_constraintdef(k.oid) from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace where k.contype = 'c'`,
  );
  return r.rows;
}

/**
 * The object a variant changes (`schema.name`, a function without its arguments) and everything
 * whose SQL reaches it, transitively: another table's policy, trigger, default or check naming it, a
 * view's query, a function's body (a name in a comment counts too, which only costs a run). A request
 * can see the variant only through one of these, so a property naming none of them cannot kill it.
 */
export function reachingObjects(target: string, texts: readonly ReadingText[]): string[] {
  const object = target.replace(/\(.*$/, '');
  const found = new Set([object]);
  const frontier = [object];
  while (frontier.length) {
    const current = frontier.pop()!;
    const name = escapeRegExp(current.slice(current.indexOf('.') + 1));
    const named = new RegExp(`(^|[^\\w$])"?${name}"?($|[^\\w$])`, 'i');
    for (const t of texts) {
      if (found.has(t.owner) || !named.test(t.text)) continue;
      found.add(t.owner);
      frontier.push(t.owner);
    }
  }
  return [...found].flatMap((o) => [o, o.replace(/^[^.]+\./, '')]);
}

/** The one-line hint printed with the variants no property covers. */
export const UNCOVERED_HINT = "to cover one, name its table (or a table, view or function whose SQL reads it) in a property's tables or functions; --run-uncovered runs them anyway";

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
    mutants = deriveMutants(await mutableCatalog(base.env.workers[0].client, base.env.cache.exposedSchemas, mapping, options.properties, options.onSkipped)).filter((m) => !options.kinds || options.kinds.includes(m.kind));
    for (const fitted of base.fit(options.properties, options.seed)) {
      if (!fitted.runnable) {
        if (fitted.result.status === 'not-applicable') options.onNotApplicable?.(fitted.listed.id, fitted.result.note ?? '');
        else options.onExcluded?.(fitted.listed.id, fitted.result.note ?? fitted.result.status);
        continue;
      }
      if (options.stop?.()) break;
      const r = await base.run(fitted.property, { seed: options.seed, runs: options.runs, stopAtFirst: true, ...(options.stop ? { stop: options.stop } : {}) });
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
  const reached = new Map<string, string[]>();
  const reachingObjectsOf = (target: string) => reached.get(target) ?? reached.set(target, reachingObjects(target, texts)).get(target)!;
  for (const mutant of mutants) {
    if (options.stop?.()) break;
    if (mutant.equivalent) {
      const result: AutoKillResult = { mutant: mutant.name, bug: mutant.description, verdicts: {}, killedBy: [], notes: [], kind: mutant.kind, target: mutant.target, reason: `equivalent: ${mutant.equivalent}` };
      results.push(result);
      options.onResult?.(result);
      continue;
    }
    const direct = propertiesFor(mutant, holding, mapping);
    let { list } = direct;
    let uncoveredRun = false;
    if (!direct.covered) {
      const reaching = reachingObjectsOf(mutant.target);
      const catalogChecked = mutant.kind === 'drop-revoke' && grantChecks.length > 0;
      list = holding.filter((p) => touches(p, reaching, mapping));
      if (!list.length && !catalogChecked) {
        const leftOut = leftOutNaming(mutant, failing, mapping, reaching);
        if (!options.runUncovered || leftOut) {
          const result: AutoKillResult = {
            mutant: mutant.name,
            bug: mutant.description,
            verdicts: {},
            killedBy: [],
            notes: [],
            kind: mutant.kind,
            target: mutant.target,
            ...(leftOut ? { notRun: true, reason: leftOut } : { uncovered: true, reason: `not covered by any property: none names ${mutant.target} or anything whose SQL reads it (not run)` }),
          };
          results.push(result);
          options.onResult?.(result);
          continue;
        }
        list = holding;
        uncoveredRun = true;
      }
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
        ...(options.stop ? { stop: options.stop } : {}),
      },
    );
    if (kill.interrupted) break;
    const result: AutoKillResult = {
      ...kill,
      kind: mutant.kind,
      target: mutant.target,
      ...(kill.killedBy.length ? {} : { ...(uncoveredRun ? { uncovered: true as const } : {}), reason: unkilledReason(mutant, kill, [...catalog, ...list], uncoveredRun, direct.covered ? leftOutCovering(mutant, failing, mapping) : []) }),
    };
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}
