/** What a person watching the terminal sees: a progress bar while cases run, then one row per property. */
import cliProgress from 'cli-progress';
import type { PropertyResult } from '../runner/result.ts';

export interface Progress {
  tick(label: string): void;
  stop(): void;
}

export function progressBar(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const bar = new cliProgress.SingleBar(
    {
      format: 'fuzzing [{bar}] {percentage}% | {value}/{total} cases | {property} | {duration_formatted}',
      stream,
      noTTYOutput: !stream.isTTY,
      notTTYSchedule: 5000,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { property: '' });
  return {
    tick(label) {
      bar.increment(1, { property: label });
    },
    stop() {
      bar.stop();
    },
  };
}

const STATUS_LABEL: Record<PropertyResult['status'], string> = { passed: 'PASS', failed: 'FAIL', 'not-applicable': 'N/A', error: 'ERROR' };

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

export function summaryTable(results: PropertyResult[]): string {
  const header = ['property', 'status', 'cases', 'allowed', 'filtered', 'rejected', 'errored', 'time'];
  const rows = results.map((r) => [
    `${r.id} ${r.title}`,
    STATUS_LABEL[r.status],
    String(r.cases),
    String(r.counts.allowed ?? '-'),
    String(r.counts.filtered ?? '-'),
    String(r.counts.rejected ?? '-'),
    String(r.counts.errored ?? '-'),
    `${(r.durationMs / 1000).toFixed(1)}s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i])).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function failureDetails(results: PropertyResult[], replayCommand: (r: PropertyResult) => string): string {
  const out: string[] = [];
  for (const r of results) {
    if (r.status === 'failed' && r.failure) {
      out.push(`\n${r.id} FAILED: ${r.failure.message}`);
      out.push(`  model:    ${JSON.stringify(r.failure.expected)}`);
      out.push(`  database: ${JSON.stringify(r.failure.actual)}`);
      out.push(`  case:     ${JSON.stringify(r.failure.counterexample)}`);
      out.push(`  replay:   ${replayCommand(r)}`);
    } else if (r.note && r.status !== 'passed') {
      out.push(`\n${r.id} ${STATUS_LABEL[r.status]}: ${r.note}`);
    }
  }
  return out.join('\n');
}
