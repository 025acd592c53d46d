/**
 * JUnit XML for CI: one test suite per area, one test case per property. A failure carries the
 * model-vs-database difference, the shrunk case and the command that replays it.
 */
import { describeOutcome, actualOutcomeOf } from '../failures/describe.ts';
import type { Outcome } from '../model/outcome.ts';
import { failureDiff, formatDiff } from './diff.ts';
import type { FailureSummary, PropertySummary, RunSummary } from './summary.ts';

export function xmlEscape(text: string): string {
  // XML 1.0 cannot carry most control characters at all, even escaped.
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function isOutcome(v: unknown): v is Outcome {
  return !!v && typeof v === 'object' && 'kind' in v;
}

export function failureText(f: FailureSummary): string {
  const actual = actualOutcomeOf(f.actual);
  const diff = formatDiff(failureDiff(f.expected, f.actual, f.masked));
  return [
    f.message,
    '',
    ...(diff.length ? ['differs (model → database):', ...diff.map((d) => `  ${d}`), ''] : []),
    `model:    ${isOutcome(f.expected) ? describeOutcome(f.expected) : JSON.stringify(f.expected)}`,
    `database: ${actual ? describeOutcome(actual) : JSON.stringify(f.actual)}`,
    '',
    `case:     ${JSON.stringify(f.case)}`,
    '',
    `replay:   ${f.replay}`,
    ...(f.file ? [`saved:    ${f.file}${f.reproSql !== null ? ` (repro: ${f.file.replace(/\.json$/, '.sql')})` : ''}`] : []),
  ].join('\n');
}

function testCase(p: PropertySummary): string {
  const attrs = `classname="policyfuzz.${p.area}" name="${xmlEscape(`${p.id} ${p.title}`)}" time="${(p.durationMs / 1000).toFixed(3)}"`;
  const props = `<properties><property name="cases" value="${p.cases}"/>${Object.entries(p.counts)
    .map(([k, v]) => `<property name="${xmlEscape(k)}" value="${v}"/>`)
    .join('')}</properties>`;
  switch (p.status) {
    case 'passed':
      return `    <testcase ${attrs}>${props}${p.note ? `<system-out>${xmlEscape(p.note)}</system-out>` : ''}</testcase>`;
    case 'not-applicable':
      return `    <testcase ${attrs}><skipped message="${xmlEscape(p.note ?? 'not applicable')}"/></testcase>`;
    // Cut short (time budget, interrupt): skipped, never passed nor failed; the message says how much ran.
    case 'partial':
    case 'not-reached':
      return `    <testcase ${attrs}>${props}<skipped message="${xmlEscape(`${p.status === 'partial' ? 'partial' : 'not reached'}: ${p.cases}${p.planned != null ? ` of ${p.planned}` : ''} cases${p.note ? ` (${p.note})` : ''}`)}"/></testcase>`;
    // Every case dropped: nothing checked, which CI must see (an error, not a skip); the note says why.
    case 'no-verdict':
    case 'error':
      return `    <testcase ${attrs}>${props}<error message="${xmlEscape(p.note ?? 'could not run')}">${xmlEscape(p.note ?? '')}</error></testcase>`;
    case 'failed': {
      const body = p.failures.length ? p.failures.map(failureText).join('\n\n----\n\n') : (p.note ?? 'failed');
      const message = p.failures[0]?.message.split('\n')[0] ?? p.note ?? 'failed';
      return `    <testcase ${attrs}>${props}<failure message="${xmlEscape(message)}" type="PropertyFailure">${xmlEscape(body)}</failure></testcase>`;
    }
  }
}

export function junitXml(summary: RunSummary): string {
  const areas = (['data', 'sso'] as const).filter((a) => summary.properties.some((p) => p.area === a));
  const suites = areas.map((area) => {
    const list = summary.properties.filter((p) => p.area === area);
    const n = (s: PropertySummary['status']) => list.filter((p) => p.status === s).length;
    const time = list.reduce((t, p) => t + p.durationMs, 0) / 1000;
    return [
      `  <testsuite name="policyfuzz ${area === 'data' ? 'data layer' : 'SSO'}" tests="${list.length}" failures="${n('failed')}" errors="${n('error') + n('no-verdict')}" skipped="${n('not-applicable') + n('partial') + n('not-reached')}" time="${time.toFixed(3)}" timestamp="${summary.startedAt.replace(/Z$/, '')}">`,
      ...list.map(testCase),
      '  </testsuite>',
    ].join('\n');
  });
  const all = summary.properties;
  const count = (s: PropertySummary['status']) => all.filter((p) => p.status === s).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    ...(summary.interrupted ? [`<!-- policyfuzz: run interrupted by ${xmlEscape(summary.interrupted)}; only what completed before it is reported -->`] : []),
    `<testsuites name="policyfuzz${summary.interrupted ? ` (interrupted by ${xmlEscape(summary.interrupted)})` : ''}" tests="${all.length}" failures="${count('failed')}" errors="${count('error')}" skipped="${count('not-applicable') + count('partial') + count('not-reached')}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
