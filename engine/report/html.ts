/**
 * The HTML report: one self-contained page (no scripts, fonts or images from anywhere). A table
 * of the properties with their outcome coverage as small stacked bars, then every failure with
 * the model's prediction and the database's answer side by side, the shrunk case, the replay
 * command and the psql repro.
 */
import { actualOutcomeOf, describeOutcome } from '../failures/describe.ts';
import type { Outcome } from '../model/outcome.ts';
import { apiRoleOf, describeCaller } from '../model/caller.ts';
import { requestLine, differingStep, failureDiff } from './diff.ts';
import { accessMatrix, matrixSteps, outcomeList, type MatrixRow } from './matrix.ts';
import type { FailureSummary, PropertySummary, RunSummary } from './summary.ts';

export function htmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const KNOWN_COLORS: Record<string, string> = { allowed: '#2e8b57', filtered: '#6c8ebf', rejected: '#e69138', errored: '#cc3333' };
const PALETTE = ['#8e7cc3', '#45818e', '#bf9000', '#a64d79', '#3d85c6', '#6aa84f', '#999999'];

function colorOf(key: string, others: string[]): string {
  return KNOWN_COLORS[key] ?? PALETTE[others.indexOf(key) % PALETTE.length];
}

const STATUS: Record<PropertySummary['status'], { label: string; cls: string }> = {
  passed: { label: 'PASS', cls: 'pass' },
  failed: { label: 'FAIL', cls: 'fail' },
  error: { label: 'ERROR', cls: 'fail' },
  'not-applicable': { label: 'N/A', cls: 'na' },
  partial: { label: 'PARTIAL', cls: 'na' },
  'not-reached': { label: 'NOT REACHED', cls: 'na' },
  'no-verdict': { label: 'NO VERDICT', cls: 'fail' },
};

function coverageBar(p: PropertySummary, otherKeys: string[]): string {
  const entries = Object.entries(p.counts).filter(([, v]) => v > 0);
  const total = entries.reduce((n, [, v]) => n + v, 0);
  if (total === 0) return '<div class="bar empty" title="no outcomes recorded"></div>';
  const parts = entries
    .map(([k, v]) => `<span style="width:${((100 * v) / total).toFixed(2)}%;background:${colorOf(k, otherKeys)}" title="${htmlEscape(`${k}: ${v}`)}"></span>`)
    .join('');
  return `<div class="bar" role="img" aria-label="${htmlEscape(entries.map(([k, v]) => `${k} ${v}`).join(', '))}">${parts}</div>`;
}

function outcomeBlock(title: string, value: unknown, outcome: Outcome | undefined, extra = ''): string {
  return `<div class="side"><h4>${htmlEscape(title)}</h4>${outcome ? `<p class="verdict">${htmlEscape(describeOutcome(outcome, { short: true }))}</p>` : ''}<pre>${htmlEscape(JSON.stringify(value, null, 2) ?? 'null')}</pre>${extra}</div>`;
}

/** The database side: its answer as an outcome, with PostgREST's HTTP response folded away. */
function databaseBlock(actual: unknown): string {
  const outcome = actualOutcomeOf(actual);
  if (!outcome) return outcomeBlock('database answered', actual, undefined);
  const response = (actual as { response?: { status?: number } }).response;
  const extra = response ? `<details><summary>HTTP ${htmlEscape(String(response.status ?? '?'))} response as PostgREST sends it</summary><pre>${htmlEscape(JSON.stringify(response, null, 2))}</pre></details>` : '';
  return outcomeBlock('database answered', outcome, outcome, extra);
}

function diffTable(f: FailureSummary): string {
  const diff = failureDiff(f.expected, f.actual, f.masked);
  if (!diff.length) return '';
  const cell = (v: unknown) => (v === undefined ? '<em>absent</em>' : `<code>${htmlEscape(JSON.stringify(v))}</code>`);
  return `<table class="diff"><thead><tr><th>differs at</th><th>model</th><th>database</th></tr></thead><tbody>${diff.map((d) => `<tr><td><code>${htmlEscape(d.path)}</code></td><td>${cell(d.model)}</td><td>${cell(d.database)}</td></tr>`).join('')}</tbody></table>`;
}

function failureSection(p: PropertySummary, f: FailureSummary, n: number): string {
  const expected = f.expected && typeof f.expected === 'object' && 'kind' in f.expected ? (f.expected as unknown as Outcome) : undefined;
  const anchor = f.id ?? `${p.id}-${n}`;
  const step = p.area === 'data' ? differingStep(f.case, f.step) : undefined;
  return `<section class="failure" id="failure-${htmlEscape(anchor)}">
<h3><span class="badge fail">FAIL</span> ${htmlEscape(`${p.id} ${p.title}`)}</h3>
<p class="message">${htmlEscape(f.message)}</p>
${step ? `<p class="who">caller <strong>${htmlEscape(describeCaller(step.caller))}</strong> (role ${htmlEscape(apiRoleOf(step.caller))})</p><pre class="curl">${htmlEscape(requestLine(step.caller, step.request, f.sentAs))}</pre>` : ''}
<h4>replay</h4>
<pre class="cmd">${htmlEscape(f.replay)}</pre>
${diffTable(f)}
<details class="full"><summary>full values: model and database side by side</summary>
<div class="sidebyside">
${p.area === 'data' ? outcomeBlock('model predicted', f.expected, expected) : outcomeBlock('the property expects', f.expected, undefined)}
${p.area === 'data' ? databaseBlock(f.actual) : outcomeBlock('the SSO target answered', f.actual, undefined)}
</div></details>
${f.file ? `<p class="files">saved as <code>${htmlEscape(f.file)}</code>${f.regressionFile ? `, regression test <code>${htmlEscape(f.regressionFile)}</code>` : ''}</p>` : ''}
<details><summary>shrunk case${f.step !== null ? ` (differs at step ${f.step + 1})` : ''}</summary><pre>${htmlEscape(JSON.stringify(f.case, null, 2) ?? 'null')}</pre></details>${f.unshrunk !== undefined ? `
<details class="unshrunk"><summary>unshrunk case (as first found)</summary><pre>${htmlEscape(JSON.stringify(f.unshrunk, null, 2) ?? 'null')}</pre></details>` : ''}
${f.reproSql ? `<details class="repro"><summary>psql repro (<code>psql "$DATABASE_URL" -v ON_ERROR_STOP=0 -f ${htmlEscape(f.id ?? 'repro')}.sql</code>)</summary><pre>${htmlEscape(f.reproSql)}</pre></details>` : ''}
</section>`;
}

/** Who can do what: the access matrix, a column per caller class, disagreements marked. */
function matrixSection(summary: RunSummary): string {
  const matrix = accessMatrix(summary.properties);
  if (!matrix.length) return '';
  const callers = [...new Set(matrix.map((r) => r.caller))];
  const groups = new Map<string, MatrixRow[]>();
  for (const r of matrix) groups.set(`${r.target}|${r.command}`, [...(groups.get(`${r.target}|${r.command}`) ?? []), r]);
  const body = [...groups.values()]
    .map((rows) => {
      const cells = callers
        .map((c) => {
          const r = rows.find((x) => x.caller === c);
          if (!r) return '<td class="none">–</td>';
          const bad = r.disagreements.map((d) => `<div class="disagree">⚠ ${htmlEscape(`${d.property}: model ${d.model} → database ${d.database}`)}</div>`).join('');
          return `<td class="${bad ? 'bad' : ''}" title="${htmlEscape(r.properties.join(', '))}">${htmlEscape(outcomeList(r.outcomes))}${bad}</td>`;
        })
        .join('');
      return `<tr><td><code>${htmlEscape(rows[0].target)}</code></td><td>${htmlEscape(rows[0].command)}</td>${cells}</tr>`;
    })
    .join('\n');
  return `<h2>Access matrix</h2>
<p class="note">Outcomes the model judged, with how many steps reached each (a column per caller class). ${matrixSteps(matrix)} steps.</p>
<table id="matrix"><thead><tr><th>table / function</th><th>command</th>${callers.map((c) => `<th>${htmlEscape(c)}</th>`).join('')}</tr></thead><tbody>
${body}
</tbody></table>`;
}

const CSS = `
:root{color-scheme:light;--fg:#1d1d1f;--muted:#666;--line:#e3e3e8;--pass:#2e7d32;--fail:#c62828;--na:#777}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);margin:0;background:#fafafa}
header{padding:20px 28px;background:#fff;border-bottom:1px solid var(--line)}h1{margin:0 0 4px;font-size:22px}
.meta{color:var(--muted);font-size:13px}.meta span{margin-right:14px}.verdict-line{font-size:18px;margin-top:8px;font-weight:600}
.warning{margin:8px 0 0;padding:6px 10px;border-left:4px solid #b7791f;background:#fffaf0}
main{padding:20px 28px;max-width:1280px}table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}
th,td{padding:6px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}th{font-size:12px;text-transform:uppercase;color:var(--muted);background:#f4f4f6}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}tr.fail td{background:#fff5f5}
.badge{display:inline-block;min-width:46px;text-align:center;font-size:11px;font-weight:700;padding:2px 6px;border-radius:3px;color:#fff}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.na{background:var(--na)}
.bar{display:flex;width:180px;height:12px;border-radius:2px;overflow:hidden;background:#eee}.bar span{display:block;height:100%}
.legend{margin:8px 0 16px;color:var(--muted);font-size:12px}.legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px;vertical-align:middle}
.failure{background:#fff;border:1px solid var(--line);border-left:4px solid var(--fail);padding:12px 16px;margin:16px 0}
.failure h3{margin:0 0 6px;font-size:16px}.message{white-space:pre-wrap;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px}
.sidebyside{display:grid;grid-template-columns:1fr 1fr;gap:12px}.side{border:1px solid var(--line);padding:8px 10px;min-width:0}
.side h4{margin:0 0 4px}.side .verdict{font-weight:600;margin:0 0 6px;overflow-wrap:anywhere}
pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:420px;font-size:12px;margin:4px 0}pre.cmd,pre.curl{background:#1d1d1f;color:#f5f5f5}pre.curl{white-space:pre-wrap;overflow-wrap:anywhere}
table.diff{margin:8px 0;width:auto}table.diff td{vertical-align:top;overflow-wrap:anywhere;max-width:520px}table.diff td:nth-child(2){background:#f3f8ff}table.diff td:nth-child(3){background:#fff4f4}.who{margin:4px 0}
#matrix td.bad{background:#fff0f0}#matrix .disagree{color:var(--fail);font-weight:600}#matrix td.none{color:var(--muted)}
details{margin:6px 0}summary{cursor:pointer;color:#0b57d0}h2{font-size:18px;margin:24px 0 10px}.note{color:var(--muted);font-size:12px}
`;

/** Model-branch coverage of a property: taken / known, and the branches never taken, named. */
function branchCell(p: PropertySummary): string {
  if (!p.branches?.length) return '<span class="note">–</span>';
  const untaken = p.branches.filter((b) => b.taken === 0);
  const ratio = `<span class="num" data-branches="${p.branches.length - untaken.length}/${p.branches.length}">${p.branches.length - untaken.length}/${p.branches.length}</span>`;
  if (!untaken.length) return ratio;
  return `${ratio}<div class="note">never reached: ${untaken.map((b) => `<span class="untaken" title="${htmlEscape(b.label)}">${htmlEscape(b.id)}</span>`).join(', ')}</div>`;
}

export function htmlReport(summary: RunSummary): string {
  const keys = [...new Set(summary.properties.flatMap((p) => Object.keys(p.counts)))];
  const others = keys.filter((k) => !(k in KNOWN_COLORS));
  const rows = summary.properties
    .map((p) => {
      const s = STATUS[p.status];
      const counts = Object.entries(p.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(' · ');
      const failLinks = p.failures.map((f, i) => `<a href="#failure-${htmlEscape(f.id ?? `${p.id}-${i}`)}">failure ${i + 1}</a>`).join(' ');
      return `<tr class="${s.cls}" data-property="${htmlEscape(p.id)}"><td><strong>${htmlEscape(p.id)}</strong> ${htmlEscape(p.title)}${p.note ? `<div class="note">${htmlEscape(p.note)}</div>` : ''}</td><td><span class="badge ${s.cls}">${s.label}</span> ${failLinks}</td><td class="num">${p.stoppedEarly && p.planned != null && p.cases < p.planned ? `${p.cases}/${p.planned}<div class="note" title="${htmlEscape(p.stoppedEarly.reason)}">stopped early</div>` : p.cases}</td><td>${coverageBar(p, others)}</td><td class="note">${htmlEscape(counts)}</td><td class="branches">${branchCell(p)}</td><td class="num">${(p.durationMs / 1000).toFixed(1)} s</td></tr>`;
    })
    .join('\n');
  const failures = summary.properties.flatMap((p) => p.failures.map((f, i) => failureSection(p, f, i)));
  const t = summary.totals;
  const shards = summary.shards.length > 1 || summary.shards[0]?.count > 1 ? `shards ${summary.shards.map((s) => `${s.index}/${s.count}`).join(', ')}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>policyfuzz: ${t.passed} passed, ${t.failed} failed</title>
<style>${CSS}</style></head>
<body>
<header><h1>policyfuzz report</h1>
<div class="meta"><span>seed ${summary.seed}</span>${summary.profile ? `<span>profile ${htmlEscape(summary.profile)}</span>` : ''}${shards ? `<span>${shards}</span>` : ''}<span>migrations ${htmlEscape(summary.migrations ?? '-')} (digest ${htmlEscape(summary.migrationsDigest ?? '-')})</span><span>started ${htmlEscape(summary.startedAt)}</span><span>${(summary.durationMs / 1000).toFixed(1)} s</span><span>policyfuzz ${htmlEscape(summary.policyfuzzVersion)}</span></div>
<div class="verdict-line" id="verdict">${t.passed} passed, ${t.failed} failed · ${t.cases} cases</div>
${(summary.warnings ?? []).map((w) => `<p class="warning">warning: ${htmlEscape(w)}</p>`).join('\n')}
</header>
<main>
<h2>Properties</h2>
<div class="legend">outcomes:${keys.map((k) => `<i style="background:${colorOf(k, others)}"></i>${htmlEscape(k)}`).join('')}</div>
<table id="properties"><thead><tr><th>property</th><th>status</th><th>cases</th><th>coverage</th><th>outcomes</th><th>model branches</th><th>time</th></tr></thead>
<tbody>
${rows}
</tbody></table>
${matrixSection(summary)}
<h2>Failures (${failures.length})</h2>
${failures.length ? failures.join('\n') : '<p>None: every property held.</p>'}
</main></body></html>
`;
}
