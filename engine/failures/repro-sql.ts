/**
 * A saved data-layer failure as a standalone psql script: the fixtures written as the server
 * context, then each request exactly as the harness sent it (the same statements: fixtures.ts,
 * statement.ts, preRequestSql), with the model's expectation echoed before each request and
 * the database's answer printed by the request itself. Everything is rolled back at the end.
 *
 *   psql "$DATABASE_URL" -v ON_ERROR_STOP=0 -f R02-0123456789ab.sql
 */
import type { Outcome } from '../model/outcome.ts';
import { describeCaller } from '../model/caller.ts';
import { describeRequest } from '../model/request.ts';
// A world holding a second tenant's copy is predicted per tenant (second-tenant.ts), as the run predicted it.
import { predictAcrossTenants as predict } from '../target/predict-across-tenants.ts';
import type { Oracle } from '../pack.ts';
import { fixtureStatements, REFERENCE_PLAN, requestForTarget, sentAsSql, withTargetDrawn, worldAsStored, callersWithTokensFromWorld, type FixturePlan } from '../target/fixtures.ts';
import { END_OF_REQUEST, keepRequestSql, maxAffectedCheck, preRequestCall, preRequestSql, ROLLBACK_REQUEST, SINGULAR_CHECK } from '../executor/case-transaction.ts';
import { sqlRoutedTables } from '../mapping/mapping.ts';
import type { SchemaCache } from '../executor/schema-cache.ts';
import { buildStatement, maxAffectedOf } from '../executor/statement.ts';
import { inlineSql } from '../executor/sql-text.ts';
import { actualOutcomeOf, describeOutcome } from './describe.ts';
import { dataCaseOf, type FailureRecord } from './schema.ts';

/** A psql `\echo` of one line of text (quotes and backslashes escaped, newlines flattened). */
export function psqlEcho(text: string): string {
  return `\\echo '${text.replace(/[\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

function comment(text: string): string {
  return text
    .split('\n')
    .map((l) => `-- ${l}`.trimEnd())
    .join('\n');
}


/** `plan`: how the run wrote fixtures and sent requests to its target (a project's own schema, its mapping). */
export function reproSql(record: FailureRecord, cache: SchemaCache, oracle: Oracle, plan: FixturePlan = REFERENCE_PLAN): string {
  const testCase = dataCaseOf(record);
  const lastStep = record.step ?? testCase.steps.length - 1;
  const out: string[] = [
    comment(`policyfuzz repro ${record.id}: ${record.property} ${record.title}`),
    comment(record.message),
    comment(`found with seed ${record.seed}, path ${record.path}; policyfuzz ${record.policyfuzzVersion}; migrations ${record.migrations ?? '?'} (digest ${record.migrationsDigest ?? '?'})`),
    '--',
    comment('Run it with psql on a database built from the same migrations (the Supabase roles, auth.uid()\nand the migrations applied), connected as a superuser: fixtures are written by the server context.'),
    comment(`  psql "$DATABASE_URL" -v ON_ERROR_STOP=0 -f ${record.id}.sql`),
    comment('Each request runs as PostgREST v12 runs it (role and request.jwt.claims set transaction-locally,\nthen the statement); the model\'s expectation is echoed before it. Nothing is kept: it ends with a rollback.'),
    '',
    '\\set ON_ERROR_STOP 0',
    '\\set QUIET on',
    '\\set VERBOSITY verbose',
    '\\pset pager off',
    '\\x on',
    'begin;',
    '',
    '-- fixtures, written as the server context (superuser, auth.uid() is null)',
    ...fixtureStatements(withTargetDrawn(testCase.world, oracle.model.tables, oracle.settings), oracle.model.fixtureOrder, plan).map((f) => `${f.sql};`),
  ];
  // As the run predicted: from the rows as the target holds them (constant defaults filled).
  let world = worldAsStored(plan, testCase.world, oracle.model.tables, oracle.settings, callersWithTokensFromWorld(oracle, testCase.steps));
  for (let i = 0; i <= lastStep && i < testCase.steps.length; i++) {
    const step = testCase.steps[i];
    // The run's own history when the record has it; a record without one (older files) is predicted again.
    const prediction = record.predictions?.[i] !== undefined ? { outcome: record.predictions[i] as Outcome, world } : predict(oracle, world, step.caller, step.request);
    const differs = i === lastStep && record.step !== null;
    out.push('', psqlEcho(''), psqlEcho(`== step ${i + 1} of ${testCase.steps.length}: ${describeCaller(step.caller)} ${describeRequest(step.request, sentAsSql(plan, step.request) ? 'sql' : undefined)}`));
    out.push(psqlEcho(`model expects:     ${describeOutcome(prediction.outcome)}`));
    if (differs) out.push(psqlEcho(`policyfuzz saw:    ${describeOutcome(actualOutcomeOf(record.actual) ?? (record.actual as Outcome))}`));
    out.push(psqlEcho(differs ? 'the database answers (page_total = rows touched, body = what the caller gets):' : 'the database answers:'));
    const sent = requestForTarget(plan, step.request);
    const statement = buildStatement(sent, cache, sqlRoutedTables(plan.mapping));
    if ('refusal' in statement) {
      out.push(psqlEcho(`PostgREST answers ${statement.refusal.status} ${statement.refusal.code} without asking the database: ${statement.refusal.message}`));
      world = prediction.world;
      continue;
    }
    out.push('savepoint pf_request;');
    out.push(`${preRequestSql(step.caller, sent, cache, { portableSessionUser: true })} \\gset pf_`);
    if (statement.readOnly) out.push('set local transaction_read_only = on;');
    const hook = preRequestCall(cache, sent);
    if (hook) out.push(`${hook};`);
    out.push(`${inlineSql(statement.query)};`);
    // PostgREST's checks after a write, as the executor sends them (a single object; max-affected).
    if (!statement.readOnly && statement.shape === 'single') out.push(`${SINGULAR_CHECK};`);
    const max = maxAffectedOf(sent);
    if (max !== undefined) out.push(`${maxAffectedCheck(max)};`);
    if (statement.readOnly) out.push(ROLLBACK_REQUEST);
    else out.push(`${END_OF_REQUEST};`, '\\if :ERROR', ROLLBACK_REQUEST, '\\else', keepRequestSql(cache), '\\endif');
    world = prediction.world;
  }
  out.push('', 'rollback;', '');
  return out.join('\n');
}
