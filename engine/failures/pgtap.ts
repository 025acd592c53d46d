/**
 * A saved data-layer failure as a pgTAP test (`<id>.pgtap.sql`) that `supabase test db` and
 * `pg_prove` run unchanged: `begin; select plan(n); … select * from finish(); rollback;`.
 *
 * The fixtures are written as the server context, then each request is sent exactly as the
 * executor sends it (the same statements: fixtures.ts, statement.ts, preRequestSql: role,
 * request.jwt.claims, search_path and the request settings, transaction-local; a GET read-only)
 * and its answer is held to what the MODEL predicts: `throws_ok(…, '42501')` for a refusal,
 * `lives_ok` + `is(rows touched)` + `bag_eq` / `is_empty` for the rows the caller gets back.
 * It fails while the bug is there and passes once it is fixed.
 *
 * pgTAP's own bookkeeping lives in temp tables of the connecting (server) role, so assertions
 * run as that role; the request runs inside `pg_temp.pf_send(step)`, which takes on the caller
 * for the statement only and hands the role and settings back afterwards.
 *
 * On a project's own schema the run's fixture plan and mapping apply as they did in the run (and
 * in repro-sql.ts): fixtures in the target's tables, requests under its names, the rows asserted
 * in its columns and vocabulary, a refusal in its own convention (conventions.functionRefusal /
 * guardRefusal) read as the model's, and a `row-as-boolean` function judged by whether it
 * returned a row.
 */
import type { Json, Row } from '../model/json.ts';
import type { Outcome } from '../model/outcome.ts';
import { describeCaller } from '../model/caller.ts';
import { describeRequest, targetName } from '../model/request.ts';
import { embedKey } from '../model/embed.ts';
// A world holding a second tenant's copy is predicted per tenant (second-tenant.ts), as the run predicted it.
import { predictAcrossTenants as predict } from '../target/predict-across-tenants.ts';
import type { Oracle } from '../pack.ts';
import { catalogFacts } from '../target/catalog-facts.ts';
import { fixtureStatements, REFERENCE_PLAN, requestForTarget, sentAsSql, withTargetDrawn, worldAsStored, callersWithTokensFromWorld, type FixturePlan } from '../target/fixtures.ts';
import { columnsAsTargetNames, expectedAsTargetShows, guardedWrite, MODEL_REFUSAL_CODE, type RefusalConvention, type TargetMapping, sqlRoutedTables } from '../mapping/mapping.ts';
import type { ApiRequest } from '../model/request.ts';
import { preRequestCall, preRequestSql } from '../executor/case-transaction.ts';
import type { SchemaCache } from '../executor/schema-cache.ts';
import { inlineSql, literal } from '../executor/sql-text.ts';
import { buildStatement } from '../executor/statement.ts';
import { maskedColumns } from '../runner/check-case.ts';
import { comparedAsFor } from '../checker/compare.ts';
import { canonicalJson } from '../model/values.ts';
import { describeOutcome } from './describe.ts';
import { dataCaseOf, type FailureRecord } from './schema.ts';

/**
 * PostgREST answers 406 PGRST116 itself when `single` finds other than one row; a SQLSTATE has
 * five characters, so pf_send raises it as PT116.
 */
const SINGLE_ROW_CODE = 'PT116';
const codeOf = (code: string) => (code === 'PGRST116' ? SINGLE_ROW_CODE : code);

/**
 * Sends request `step` of pg_temp.pf_requests as the caller; a success is kept in pf_answers.
 * A read runs read-only inside a block left by an exception, so nothing of it is kept (as the
 * executor rolls a GET back to its savepoint); an error leaves the caller's role behind only
 * inside the subtransaction pgTAP's throws_ok / lives_ok roll back.
 */
function helpers(switchesLogin: boolean): string {
  // Setting the session user resets the role: the login goes back first, then the role.
  const login = switchesLogin ? ['\n  v_login text := session_user;', `set_config('session_authorization', v_login, true), `] : ['', ''];
  return `create temp table pf_requests (step int primary key, pre text not null, hook text, statement text not null, read_only boolean not null, single boolean not null);
create temp table pf_answers (step int primary key, page_total bigint, body jsonb);
create function pg_temp.pf_send(p_step int) returns void language plpgsql as $pf$
declare
  r pg_temp.pf_requests;
  v_role text := current_setting('role');
  v_path text := current_setting('search_path');
  v_total bigint;
  v_body text;${login[0]}
begin
  select * into strict r from pg_temp.pf_requests where step = p_step;
  if r.read_only then
    begin
      execute r.pre;
      perform set_config('transaction_read_only', 'on', true);
      if r.hook is not null then execute r.hook; end if;
      execute r.statement into v_total, v_body;
      raise exception using errcode = 'PFRO1';
    exception when sqlstate 'PFRO1' then null;
    end;
  else
    execute r.pre;
    if r.hook is not null then execute r.hook; end if;
    execute r.statement into v_total, v_body;
  end if;
  perform ${login[1]}set_config('role', v_role, true), set_config('search_path', v_path, true),
          set_config('request.jwt.claims', '', true), set_config('request.method', '', true), set_config('request.path', '', true);
  if r.single and v_total <> 1 then
    raise exception using errcode = '${SINGLE_ROW_CODE}', message = format('PGRST116 JSON object requested, multiple (or no) rows returned (%s rows)', v_total);
  end if;
  insert into pg_temp.pf_answers values (p_step, v_total, v_body::jsonb);
end
$pf$;
-- The rows the caller gets back, as the checker reads PostgREST's body: a set is its elements,
-- an object one row, a scalar {"value": …}; the named columns (server-assigned) left out.
create function pg_temp.pf_rows(p_step int, p_masked text[], p_known text[]) returns setof jsonb language sql as $pf$
  select case when p_known is null then r else (select coalesce(jsonb_object_agg(k, v), '{}') from jsonb_each(r) as c(k, v) where k = any(p_known)) end
    from (select case when jsonb_typeof(e) = 'object' then e - p_masked else jsonb_build_object('value', e) end as r
            from pg_temp.pf_answers a,
                 jsonb_array_elements(case jsonb_typeof(a.body) when 'array' then a.body else jsonb_build_array(a.body) end) as e
           where a.step = p_step and a.body is not null) rows
$pf$;`;
}

function comment(text: string): string {
  return text
    .split('\n')
    .map((l) => `-- ${l}`.trimEnd())
    .join('\n');
}

function textArray(values: readonly string[] | null): string {
  return values === null ? 'null::text[]' : `array[${values.map(literal).join(', ')}]::text[]`;
}

function withoutKeys(row: Row, masked: readonly string[], known: readonly string[] | null): Json {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !masked.includes(k) && (known === null || known.includes(k))));
}

/** How the target answers where the model raises P0001 (its refusal convention for this kind of request). */
function refusalConvention(mapping: TargetMapping | undefined, request: ApiRequest): RefusalConvention | undefined {
  return request.kind === 'rpc' ? mapping?.conventions?.functionRefusal : guardedWrite(request) ? mapping?.conventions?.guardRefusal : undefined;
}

/** What a step's answer is held to beyond the model's outcome: the target's refusal convention, a function answering with a row for a boolean. */
interface TargetShape {
  refusal?: RefusalConvention;
  rowAsBoolean?: boolean;
  /** `returns: { field }`: the model's scalar is this field of the jsonb object the target answers. */
  jsonField?: string;
  /** `returns: value-as-void`: the target's value stands for the model's void; only success is asserted. */
  voidAnswer?: boolean;
}

/** The assertions for one step; each returns one pgTAP test line. */
function assertionsFor(step: number, label: string, expected: Outcome, masked: readonly string[], known: readonly string[] | null, shape: TargetShape = {}, embeds: readonly string[] = []): string[] {
  const send = literal(`select pg_temp.pf_send(${step})`);
  const desc = (what: string) => literal(`${label}: ${what}`);
  switch (expected.kind) {
    case 'rejected':
    case 'raised':
    case 'error': {
      const codes = [...new Set([expected, ...(expected.orElse ?? [])].map((o) => (o.kind === 'allowed' || o.kind === 'filtered' ? 'none' : codeOf(o.code))))];
      const model = describeOutcome(expected);
      const convention = shape.refusal && codes.includes(MODEL_REFUSAL_CODE) ? shape.refusal : undefined;
      if (convention) {
        // The target refuses in its own words (conventions): that code (and message) is the model's refusal.
        const own = `(e.code = ${literal(convention.code)}${convention.message !== undefined ? ` and e.message ~ ${literal(convention.message)}` : ''})`;
        return [`select ok((select e.code = any(${textArray(codes)}) or ${own} from pg_temp.pf_error(${step}) e), ${desc(`the model expects ${model}; the target's refusal is ${convention.code}${convention.message !== undefined ? ` /${convention.message}/` : ''}`)});`];
      }
      if (codes.length > 1 || codes[0] === 'none') {
        // A multi-row write may stop at any of its failing rows: each of their SQLSTATEs agrees.
        // A success alternative (row security deciding instead of a grant) agrees only as the
        // model states it: when it touches and returns nothing, so must the answer.
        const successes = [expected, ...(expected.orElse ?? [])].filter((o): o is Extract<Outcome, { kind: 'allowed' | 'filtered' }> => o.kind === 'allowed' || o.kind === 'filtered');
        const errors = codes.filter((c) => c !== 'none');
        const nothingOnly = successes.length > 0 && successes.every((o) => o.affected === 0 && !o.rows?.length);
        const success = !successes.length ? 'false' : nothingOnly ? `(e.code = 'none' and coalesce(e.total, 0) = 0 and e.returned = 0)` : `e.code = 'none'`;
        const what = nothingOnly ? `one of ${[...errors, 'success with no row touched or returned'].join(', ')}` : `one of ${codes.join(', ')}`;
        return [`select ok((select e.code = any(${textArray(errors)}) or ${success} from pg_temp.pf_error(${step}) e), ${desc(`the model expects ${what} (${model})`)});`];
      }
      const lines = [`select throws_ok(${send}, ${literal(codes[0])}, null, ${desc(`the model expects ${model}`)});`];
      if (expected.kind === 'rejected' && !expected.orElse) {
        // Who refused: the checker reads it from the message (observe.ts), as here.
        lines.push(
          expected.by === 'policy'
            ? `select throws_matching(${send}, 'row-level security', ${desc('refused by a row-level security policy, not by the grants')});`
            : `select throws_like(${send}, 'permission denied%', ${desc('refused by the grants (permission denied), not by a policy')});`,
        );
      }
      return lines;
    }
    case 'allowed':
    case 'filtered': {
      if (shape.rowAsBoolean && expected.rows?.length === 1 && typeof expected.rows[0].value === 'boolean') {
        // The target returns the row it acted on (none, a null or a row of nulls: nothing) where the model answers a boolean.
        const hit = `(select coalesce(bool_or(exists (select 1 from jsonb_each(r) f where f.value not in ('null'::jsonb, 'false'::jsonb))), false) from pg_temp.pf_rows(${step}, '{}'::text[], null::text[]) r)`;
        return [
          `select lives_ok(${send}, ${desc(`the model expects ${describeOutcome(expected, { short: true })}`)});`,
          `select is(${hit}, ${expected.rows[0].value}, ${desc(`returns ${expected.rows[0].value ? 'the row it acted on' : 'no row (nothing acted on)'}`)});`,
        ];
      }
      if (shape.jsonField && expected.rows?.length === 1 && 'value' in expected.rows[0]) {
        const field = `(select coalesce((select r -> ${literal(shape.jsonField)} from pg_temp.pf_rows(${step}, '{}'::text[], null::text[]) r limit 1), 'null'::jsonb))`;
        return [
          `select lives_ok(${send}, ${desc(`the model expects ${describeOutcome(expected, { short: true })}`)});`,
          `select is(${field}, ${literal(JSON.stringify(expected.rows[0].value))}::jsonb, ${desc(`answers ${shape.jsonField} = ${JSON.stringify(expected.rows[0].value)}`)});`,
        ];
      }
      if (shape.voidAnswer && expected.rows === null) return [`select lives_ok(${send}, ${desc(`the model expects ${describeOutcome(expected, { short: true })}`)});`];
      const lines = [
        `select lives_ok(${send}, ${desc(`the model expects ${describeOutcome(expected, { short: true })}`)});`,
        `select is((select page_total from pg_temp.pf_answers where step = ${step}), ${expected.affected}::bigint, ${desc(`${expected.affected} row(s) touched`)});`,
      ];
      const rowsOf = literal(`select * from pg_temp.pf_rows(${step}, ${textArray(masked)}, ${textArray(known)})`);
      if (expected.rows === null) lines.push(`select ok(exists (select 1 from pg_temp.pf_answers where step = ${step} and body is null), ${desc('no rows returned')});`);
      else if (expected.rows.length === 0) lines.push(`select is_empty(${rowsOf}, ${desc('no rows returned')});`);
      else {
        const want = literal(`values ${expected.rows.map((r) => `(${literal(JSON.stringify(withoutKeys(r, masked, known)))}::jsonb)`).join(', ')}`);
        const server = masked.filter((m) => !m.includes('.') && !m.startsWith('@'));
        const notCompared = server.length ? ` (server-assigned ${server.join(', ')} not compared)` : '';
        // db-max-rows with no order: any upTo of the model's rows (compare.ts), so each returned row is one of them.
        const upTo = expected.kind === 'allowed' ? expected.upTo : undefined;
        if (upTo !== undefined) {
          lines.push(`select is((select count(*) from pg_temp.pf_rows(${step}, '{}'::text[], null::text[])), ${Math.min(expected.rows.length, upTo)}::bigint, ${desc(`returns ${Math.min(expected.rows.length, upTo)} row(s): db-max-rows ${upTo}`)});`);
          lines.push(`select bag_has(${want}, ${rowsOf}, ${desc(`each row returned is one the model predicts${notCompared}`)});`);
        } else lines.push(`select bag_eq(${rowsOf}, ${want}, ${desc(`returns the ${expected.rows.length} row(s) the model predicts${notCompared}`)});`);
        for (const embed of embeds) lines.push(embedAssertion(step, embed, expected, masked, known, desc));
      }
      return lines;
    }
  }
}

/**
 * An embed's rows (`*,cards(*)`), compared as the checker does: per parent, as a multiset, the
 * embedded table's server-assigned columns (`cards.id` in `masked`) left out. Asserted as the bag
 * of (parent, embedded row) pairs, so neither the order of a json_agg nor of the parents matters;
 * a to-one embed is its one row, or no pair when null. Under db-max-rows, each pair is one the
 * model predicts.
 */
function embedAssertion(step: number, embed: string, expected: Extract<Outcome, { kind: 'allowed' | 'filtered' }>, masked: readonly string[], known: readonly string[] | null, desc: (what: string) => string): string {
  const nested = masked.filter((m) => m.startsWith(`${embed}.`) && m.length > embed.length + 1).map((m) => m.slice(embed.length + 1));
  const pairs = (expected.rows ?? []).flatMap((r) => {
    const value = r[embed] ?? null;
    const children = Array.isArray(value) ? value : value === null ? [] : [value];
    const parent = withoutKeys(r, masked, known);
    return children.map((c) => [parent, c !== null && typeof c === 'object' && !Array.isArray(c) ? withoutKeys(c as Row, nested, null) : c]);
  });
  const have = literal(
    `select r - ${literal(embed)} as parent, c - ${textArray(nested)} as child from pg_temp.pf_rows(${step}, ${textArray(masked)}, ${textArray(known === null ? null : [...known, embed])}) r,` +
      ` jsonb_array_elements(case jsonb_typeof(r -> ${literal(embed)}) when 'array' then r -> ${literal(embed)} when 'object' then jsonb_build_array(r -> ${literal(embed)}) else '[]'::jsonb end) c`,
  );
  const what = `embeds ${pairs.length} ${embed} row(s) under their parents as the model predicts`;
  if (pairs.length === 0) return `select is_empty(${have}, ${desc(what)});`;
  const want = literal(`values ${pairs.map(([p, c]) => `(${literal(JSON.stringify(p))}::jsonb, ${literal(JSON.stringify(c))}::jsonb)`).join(', ')}`);
  return expected.kind === 'allowed' && expected.upTo !== undefined ? `select bag_has(${want}, ${have}, ${desc(what)});` : `select bag_eq(${have}, ${want}, ${desc(what)});`;
}

const SQLSTATE_HELPER = `-- The SQLSTATE and message a request ends with ('none' when it succeeds); nothing of it is kept.

-- On success, also the rows it touched and returned (read before the block is rolled back).
create function pg_temp.pf_error(p_step int, out code text, out message text, out total bigint, out returned bigint) language plpgsql as $pf$
begin
  returned := 0;
  begin
    perform pg_temp.pf_send(p_step);
    select a.page_total into total from pg_temp.pf_answers a where a.step = p_step;
    select count(*) into returned from pg_temp.pf_rows(p_step, '{}'::text[], null::text[]);
    raise exception using errcode = 'PFOK1';
  exception when sqlstate 'PFOK1' then code := 'none';
            when others then code := sqlstate; message := sqlerrm;
  end;
end
$pf$;
create function pg_temp.pf_sqlstate(p_step int) returns text language sql as $pf$ select code from pg_temp.pf_error(p_step) $pf$;`;

/** The columns whose values a comparedAs changes in the model's rows (a property of the value is compared, not the value). */
function reshapedColumns(outcome: Outcome, as: ((rows: Row[]) => Row[]) | undefined): string[] {
  if (!as || (outcome.kind !== 'allowed' && outcome.kind !== 'filtered') || !outcome.rows?.length) return [];
  const before = outcome.rows;
  const after = as(before);
  const columns = [...new Set([...before, ...after].flatMap((r) => Object.keys(r)))];
  if (after.length !== before.length) return columns;
  return columns.filter((c) => before.some((r, i) => canonicalJson(r[c] ?? null) !== canonicalJson(after[i][c] ?? null)));
}

/** `plan`: how the run wrote fixtures and sent requests to its target (a project's own schema, its mapping); as for reproSql. */
export function pgtapTest(record: FailureRecord, cache: SchemaCache, oracle: Oracle, plan: FixturePlan = REFERENCE_PLAN): string {
  const mapping = plan.mapping;
  const testCase = dataCaseOf(record);
  const lastStep = record.step ?? testCase.steps.length - 1;
  const body: string[] = [];
  // As the run predicted: from the rows as the target holds them (constant defaults filled).
  let world = worldAsStored(plan, testCase.world, oracle.model.tables, oracle.settings, callersWithTokensFromWorld(oracle, testCase.steps));
  let tests = 0;
  for (let i = 0; i <= lastStep && i < testCase.steps.length; i++) {
    const step = testCase.steps[i];
    const prediction = predict(oracle, world, step.caller, step.request);
    const label = `step ${i + 1}: ${describeCaller(step.caller)} ${describeRequest(step.request, sentAsSql(plan, step.request) ? 'sql' : undefined)}`;
    body.push('', comment(label));
    const sent = requestForTarget(plan, step.request);
    const statement = buildStatement(sent, cache, sqlRoutedTables(plan.mapping));
    if ('refusal' in statement) {
      body.push(comment(`PostgREST answers ${statement.refusal.status} ${statement.refusal.code} without asking the database: nothing to assert here.`));
      world = prediction.world;
      continue;
    }
    // A read or a write sent for one object (Accept: application/vnd.pgrst.object+json).
    const single = step.request.kind !== 'rpc' && step.request.single === true;
    // PostgREST's db-pre-request, called between the settings and the statement as the executor does.
    const hook = preRequestCall(cache, sent);
    // As the run logged in (authenticator) where the target reads session_user and the test's user may switch (a superuser).
    const settings = preRequestSql(step.caller, sent, cache, { portableSessionUser: true });
    body.push(`insert into pg_temp.pf_requests values (${i + 1}, ${literal(settings)}, ${hook ? literal(hook) : 'null'}, ${literal(inlineSql(statement.query))}, ${statement.readOnly}, ${single});`);
    const table = step.request.kind === 'rpc' ? undefined : oracle.model.tables[targetName(step.request)];
    const returns = step.request.kind === 'rpc' ? mapping?.functions?.[targetName(step.request)]?.returns : undefined;
    const shape: TargetShape = {
      refusal: refusalConvention(mapping, step.request),
      rowAsBoolean: returns === 'row-as-boolean',
      ...(typeof returns === 'object' ? { jsonField: returns.field } : {}),
      voidAnswer: returns === 'value-as-void',
    };
    const known = table ? mapping ? columnsAsTargetNames(mapping, step.request, table.columns.map((c) => c.name)) : table.columns.map((c) => c.name) : null;
    // A comparedAs compares a property of some values, not the values: those columns are left out here.
    const reshaped = reshapedColumns(prediction.outcome, comparedAsFor(oracle, step.request, world));
    if (reshaped.length) body.push(comment(`${reshaped.join(', ')}: compared by the model through comparedAs (a property of the value, not the value); not asserted here.`));
    const masked = [...maskedColumns(oracle, step, plan), ...reshaped];
    const embeds = step.request.kind === 'select' ? (step.request.embeds ?? []).map(embedKey) : [];
    const lines = assertionsFor(i + 1, label, mapping ? expectedAsTargetShows(mapping, step.caller, step.request, prediction.outcome, catalogFacts(plan)) : prediction.outcome, mapping ? columnsAsTargetNames(mapping, step.request, masked) : masked, known, shape, embeds);
    body.push(...lines);
    tests += lines.length;
    world = prediction.world;
  }
  return [
    comment(`policyfuzz pgTAP test ${record.id}: ${record.property} ${record.title}`),
    comment(record.message),
    comment(`found with seed ${record.seed}, path ${record.path}; policyfuzz ${record.policyfuzzVersion}; migrations ${record.migrations ?? '?'} (digest ${record.migrationsDigest ?? '?'})`),
    '--',
    comment('It asserts what the model predicts, so it fails while the bug is there and passes once it is fixed.'),
    comment('Run it on a database built from the same migrations, with pgTAP installed, connected as the server'),
    comment('(a superuser, or postgres on Supabase): copy it to supabase/tests/ for `supabase test db`, or'),
    comment(`  pg_prove -d "$DATABASE_URL" ${record.id}.pgtap.sql`),
    ...(cache.apiSessionUser
      ? [
          '--',
          comment('The target reads session_user: each request logs in as authenticator, as PostgREST does and as the run did.'),
          comment('Only a superuser may switch the session user; connected as anyone else (Supabase\'s postgres is no'),
          comment('superuser) the requests keep that user as session_user, and the test may not reproduce the run.'),
        ]
      : []),
    '',
    'begin;',
    `select plan(${tests});`,
    '',
    helpers(cache.apiSessionUser !== undefined),
    SQLSTATE_HELPER,
    '',
    '-- fixtures, written as the server context (auth.uid() is null)',
    ...fixtureStatements(withTargetDrawn(testCase.world, oracle.model.tables, oracle.settings), oracle.model.fixtureOrder, plan).map((f) => `${f.sql};`),
    ...body,
    '',
    'select * from finish();',
    'rollback;',
    '',
  ].join('\n');
}
