/**
 * SARIF 2.1.0 (`--report sarif`, `policyfuzz.sarif`) for GitHub code scanning: one result per
 * failing rule, with the message, the differing fields, the shrunk case and the replay command,
 * located at the migration file and line that define the policy, trigger, grant or function the
 * counterexample went through (the last migration that touches it, i.e. the one that last
 * changed it), so the alert lands on the pull request's diff. A security lint finding (LINT01)
 * is a result of its own, under a rule named after the lint, at the statement creating its object.
 */
import path from 'node:path';
import type { MigrationFile } from '../db/migrations.ts';
import { escapeRegExp } from '../regexp.ts';
import type { Outcome } from '../model/outcome.ts';
import type { ApiRequest } from '../model/request.ts';
import { actualOutcomeOf } from '../failures/describe.ts';
import { differingStep, failureDiff, formatDiff, isOutcome } from './diff.ts';
import type { FailureSummary, PropertySummary, RunSummary } from './summary.ts';
import { formatLintFinding, isLintFinding, type LintFinding } from '../checker/security-lints.ts';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export interface SourceLocation {
  file: string;
  line: number;
  /** What was found there, e.g. `policy on users (for update)`. */
  what: string;
}

/** `name`, `schema.name`, `"schema"."name"`: how a migration may spell the object. */
function namePattern(name: string, schema?: string): string {
  const plain = `"?${escapeRegExp(name)}"?`;
  return schema && schema !== 'public' ? `"?${escapeRegExp(schema)}"?\\s*\\.\\s*${plain}` : `(?:"?public"?\\s*\\.\\s*)?${plain}`;
}

interface Candidate {
  pattern: RegExp;
  what: string;
}

/** The statements that decide a request's outcome, most specific first for what happened. */
function candidatesFor(request: ApiRequest, expected: Outcome | undefined, actual: Outcome | undefined): Candidate[] {
  if (request.kind === 'rpc') {
    const fn = namePattern(request.fn, request.schema);
    return [
      ...(expected?.kind === 'rejected' && expected.by === 'grant' ? [{ pattern: new RegExp(`\\b(grant|revoke)\\b[^;]*\\bon\\s+function\\s+${fn}\\s*\\(`, 'i'), what: `grant on function ${request.fn}` }] : []),
      { pattern: new RegExp(`\\bcreate\\s+(or\\s+replace\\s+)?function\\s+${fn}\\s*\\(`, 'i'), what: `function ${request.fn}` },
      { pattern: new RegExp(`\\b(grant|revoke)\\b[^;]*\\bon\\s+function\\s+${fn}\\s*\\(`, 'i'), what: `grant on function ${request.fn}` },
    ];
  }
  const table = namePattern(request.table, request.schema);
  const command = { select: 'select', insert: 'insert', update: 'update', delete: 'delete' }[request.kind];
  const byGrant = [expected, actual].some((o) => o?.kind === 'rejected' && o.by === 'grant');
  const raisedByGuard = [expected, actual].some((o) => (o?.kind === 'raised' || o?.kind === 'error') && o.code === 'P0001');
  const policy = { pattern: new RegExp(`\\bcreate\\s+policy\\s+("[^"]+"|\\S+)\\s+on\\s+${table}\\b[^;]*\\bfor\\s+(${command}|all)\\b`, 'i'), what: `policy on ${request.table} for ${command}` };
  const anyPolicy = { pattern: new RegExp(`\\b(create|alter|drop)\\s+policy\\s+(if\\s+exists\\s+)?("[^"]+"|\\S+)\\s+on\\s+${table}\\b`, 'i'), what: `policy on ${request.table}` };
  const trigger = { pattern: new RegExp(`\\b(create\\s+(or\\s+replace\\s+)?(constraint\\s+)?|drop\\s+|alter\\s+)trigger\\s+(if\\s+exists\\s+)?\\S+[^;]*\\bon\\s+${table}\\b`, 'i'), what: `trigger on ${request.table}` };
  const guard = { pattern: new RegExp(`\\b(create\\s+(or\\s+replace\\s+)?(constraint\\s+)?|drop\\s+|alter\\s+)trigger\\s+(if\\s+exists\\s+)?\\S*guard\\S*[^;]*\\bon\\s+${table}\\b`, 'i'), what: `guard trigger on ${request.table}` };
  const grant = { pattern: new RegExp(`\\b(grant|revoke)\\b[^;]*\\bon\\s+(table\\s+)?${table}\\b`, 'i'), what: `grant on ${request.table}` };
  const rls = { pattern: new RegExp(`\\balter\\s+table\\s+(if\\s+exists\\s+)?(only\\s+)?${table}\\s+(enable|disable|force)\\s+row\\s+level\\s+security`, 'i'), what: `row level security on ${request.table}` };
  const create = { pattern: new RegExp(`\\bcreate\\s+(or\\s+replace\\s+)?(table|view)\\s+(if\\s+not\\s+exists\\s+)?${table}\\b`, 'i'), what: `${request.table}` };
  if (byGrant) return [grant, create];
  if (raisedByGuard) return [guard, trigger, policy, anyPolicy, create];
  return [policy, anyPolicy, rls, trigger, create];
}

/** The first matching statement of the last migration (in the order applied) that has one: the one that last changed the object. */
function lastMatch(migrations: readonly MigrationFile[], candidate: Candidate, root: string): SourceLocation | undefined {
  for (const m of [...migrations].reverse()) {
    // Statements may span lines: search the text with comments blanked (keeping line numbers).
    const text = m.sql.replace(/--[^\n]*/g, (c) => ' '.repeat(c.length));
    const found = candidate.pattern.exec(text);
    if (found) return { file: path.relative(root, m.path) || m.path, line: text.slice(0, found.index).split('\n').length, what: candidate.what };
  }
  return undefined;
}

/** Where the counterexample of a data-layer failure went through, in the migrations. */
export function locateFailure(f: FailureSummary, migrations: readonly MigrationFile[], root = process.cwd()): SourceLocation | undefined {
  const step = differingStep(f.case, f.step);
  if (step) {
    const expected = isOutcome(f.expected) ? f.expected : undefined;
    for (const c of candidatesFor(step.request, expected, actualOutcomeOf(f.actual))) {
      const hit = lastMatch(migrations, c, root);
      if (hit) return hit;
    }
  }
  // A catalog finding names its object: `public.fn(args): …` or `table: …`.
  const named = /^\s*(?:([a-z_][\w]*)\.)?([a-z_][\w]*)(\(|:)/im.exec(f.message);
  if (named) {
    const request: ApiRequest = named[3] === '(' ? { kind: 'rpc', fn: named[2], schema: named[1], args: {} } : { kind: 'select', table: named[2], schema: named[1], columns: '*', filters: [] };
    for (const c of candidatesFor(request, { kind: 'rejected', code: '42501', by: 'grant' }, undefined)) {
      const hit = lastMatch(migrations, c, root);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** The statement that creates a lint finding's object, in the last migration that has one. */
export function locateLintFinding(f: LintFinding, migrations: readonly MigrationFile[], root = process.cwd()): SourceLocation | undefined {
  const d = f.defined;
  const name = namePattern(d.name, d.schema);
  const pattern = {
    relation: `\\bcreate\\s+(or\\s+replace\\s+)?((materialized|foreign)\\s+)?(table|view)\\s+(if\\s+not\\s+exists\\s+)?${name}\\b`,
    function: `\\bcreate\\s+(or\\s+replace\\s+)?function\\s+${name}\\s*\\(`,
    policy: `\\bcreate\\s+policy\\s+"?${escapeRegExp(d.name)}"?\\s+on\\s+${namePattern(d.table ?? '', d.schema)}\\b`,
    extension: `\\bcreate\\s+extension\\s+(if\\s+not\\s+exists\\s+)?"?${escapeRegExp(d.name)}"?`,
  }[d.kind];
  return lastMatch(migrations, { pattern: new RegExp(pattern, 'i'), what: f.object }, root);
}

/** A failing property's lint findings, when its failure is the security lints'. */
function lintFindingsOf(p: PropertySummary): LintFinding[] {
  return p.failures.flatMap((f) => (Array.isArray(f.case) && f.case.every(isLintFinding) ? (f.case as unknown as LintFinding[]) : []));
}

function resultText(p: PropertySummary, f: FailureSummary, where: SourceLocation | undefined): string {
  const diff = formatDiff(failureDiff(f.expected, f.actual, f.masked));
  return [
    `${p.id} ${p.title}: ${f.message}`,
    ...(where ? [`(through the ${where.what})`] : []),
    ...(diff.length ? ['', 'differs (model → database):', ...diff.map((d) => `  ${d}`)] : []),
    '',
    `shrunk case: ${JSON.stringify(f.case)}`,
    '',
    `replay: ${f.replay.split('\n').join('  |  ')}`,
  ].join('\n');
}

export interface SarifOptions {
  /** The migrations the run applied, to locate each failure. */
  migrations?: readonly MigrationFile[];
  /** Paths in the log are relative to this folder (the repository root; default: cwd). */
  root?: string;
}

const sarifLevel = (f: LintFinding): 'error' | 'warning' => (f.level === 'ERROR' ? 'error' : 'warning');

export function sarifLog(summary: RunSummary, options: SarifOptions = {}): Record<string, unknown> {
  const root = options.root ?? process.cwd();
  const failing = summary.properties.filter((p) => p.failures.length > 0 && !lintFindingsOf(p).length);
  const linted = summary.properties.flatMap((p) => lintFindingsOf(p).map((f) => ({ property: p, finding: f })));
  const lintRuleId = (p: PropertySummary, f: LintFinding) => `${p.id}/${f.lint}`;
  const rules = failing.map((p) => ({
    id: p.id,
    name: p.id,
    shortDescription: { text: p.title },
    fullDescription: { text: `${p.id} ${p.title} (${p.area === 'data' ? 'data layer: the model of the row rules against the database' : 'SSO: the model of the SSO service against the target'})` },
    defaultConfiguration: { level: 'error' },
    properties: { tags: ['security', p.area === 'data' ? 'row-level-security' : 'sso'] },
  }));
  const results: Record<string, unknown>[] = failing.flatMap((p) =>
    p.failures.map((f) => {
      const where = p.area === 'data' && options.migrations?.length ? locateFailure(f, options.migrations, root) : undefined;
      return {
        ruleId: p.id,
        ruleIndex: rules.findIndex((r) => r.id === p.id),
        level: 'error',
        message: { text: resultText(p, f, where) },
        ...(where
          ? { locations: [{ physicalLocation: { artifactLocation: { uri: where.file.split(path.sep).join('/'), uriBaseId: '%SRCROOT%' }, region: { startLine: where.line } }, message: { text: where.what } }] }
          : {}),
        partialFingerprints: { policyfuzzFailure: f.id ?? `${p.id}/${f.seed}/${f.path}` },
        properties: { seed: f.seed, path: f.path, replay: f.replay, case: f.case, step: f.step },
      };
    }),
  );
  // One rule per lint that tripped, one result per finding: ERROR an error, WARN a warning.
  for (const { property, finding } of linted) {
    const id = lintRuleId(property, finding);
    if (rules.some((r) => r.id === id)) continue;
    rules.push({
      id,
      name: finding.lint,
      shortDescription: { text: `Supabase lint ${finding.lint}` },
      fullDescription: { text: `${property.id} ${property.title}: splinter's ${finding.lint}` },
      defaultConfiguration: { level: sarifLevel(finding) },
      properties: { tags: ['security', 'supabase-lint'] },
    });
  }
  for (const { property, finding } of linted) {
    const where = options.migrations?.length ? locateLintFinding(finding, options.migrations, root) : undefined;
    const id = lintRuleId(property, finding);
    results.push({
      ruleId: id,
      ruleIndex: rules.findIndex((r) => r.id === id),
      level: sarifLevel(finding),
      message: { text: formatLintFinding(finding) },
      ...(where ? { locations: [{ physicalLocation: { artifactLocation: { uri: where.file.split(path.sep).join('/'), uriBaseId: '%SRCROOT%' }, region: { startLine: where.line } }, message: { text: where.what } }] } : {}),
      partialFingerprints: { policyfuzzFailure: `${id}/${finding.object}` },
      properties: { lint: finding.lint, object: finding.object, fix: finding.fix, replay: property.failures[0].replay },
    });
  }
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'policyfuzz', version: summary.policyfuzzVersion, rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: `file://${root.split(path.sep).join('/').replace(/\/?$/, '/')}` } },
        invocations: [{ executionSuccessful: true, properties: { seed: summary.seed, profile: summary.profile, cases: summary.totals.cases } }],
        results,
      },
    ],
  };
}
