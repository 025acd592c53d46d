/** `policyfuzz mutants`: every broken variant must be killed by the properties that name it. */
import { startDatabaseServer } from '../engine/db/providers/index.ts';
import { killMutant, killVerdict, noVerdictReason, type KillResult } from '../engine/mutants/kill.ts';
import { loadMutants } from '../engine/mutants/mutant-files.ts';
import { packSource, type Pack, type PackSource } from '../engine/pack.ts';
import { catalogPropertiesOf } from '../engine/run/index.ts';
import { autoKillRate, autoVerdict, runAutoMutants, UNCOVERED_HINT, type AutoKillResult } from '../engine/mutants/auto/run-auto.ts';
import { mutantEntry, mutantsErrorReport, mutantsReport, type MutantEntry, type MutantsMade, type MutantsReport } from '../engine/mutants/report.ts';
import { AUTO_MUTATION_KINDS, type AutoMutationKind } from '../engine/mutants/auto/derive.ts';
import { chooseTarget, resolveTarget, ruleAllowed } from '../engine/config/target.ts';
import { loadPackModule } from '../engine/config/pack-module.ts';
import { UsageError } from '../engine/errors.ts';
import { defaultMigrationsOption, shownPath } from './paths.ts';
import { InterruptWatch } from '../engine/db/cleanup.ts';

/**
 * Ctrl-C or SIGTERM during `mutants`: no mutant more is started, the one in flight stops after its
 * cases in flight (a kill already made counts; otherwise it has no verdict), and the kill matrix
 * of those judged is printed, marked interrupted, exit 130, as fuzz reports what completed.
 */
function watchInterrupt(out: (line: string) => void): InterruptWatch {
  return new InterruptWatch('the mutant in flight', (line) => out(`\n${line}`)).arm();
}

function interruptedLine(signal: string, judged: number, total?: number): string {
  return `interrupted by ${signal}: ${judged}${total === undefined ? '' : ` of ${total}`} ${total === 1 ? 'mutant' : 'mutants'} judged before it; the rest not run`;
}

export interface MutantsOptions {
  /** Folder of mutant .sql files (default: the pack's own). */
  dir?: string;
  /** Folders of migrations (default: the pack's own for hand-written mutants; the target the CLI picks for --auto). */
  migrations?: string[];
  seed: number;
  runs: number;
  all?: boolean;
  databaseUrl?: string;
  /** Derive the variants from the target's own catalog instead of reading --dir. */
  auto?: boolean;
  config?: string;
  /** A project pack module (`--pack`): its properties, mutants and migrations. */
  packModule?: string;
  /** With --auto: migration files to skip, or the bundled reference (as for fuzz). */
  skip?: string[];
  reference?: boolean;
  /** With --auto: only these kinds of variant. */
  kind?: string[];
  /** With --auto: run the variants no property covers too, instead of listing them unrun. */
  runUncovered?: boolean;
  /** With --auto: a variant no property covers fails the run (exit 1). */
  failOnUncovered?: boolean;
}

export function killMatrix(results: KillResult[]): string {
  const ids = [...new Set(results.flatMap((r) => Object.keys(r.verdicts)))].sort();
  const nameWidth = Math.max(6, ...results.map((r) => r.mutant.length));
  const mark = { killed: 'X', survived: '.', error: '!' } as const;
  const lines = [`${'mutant'.padEnd(nameWidth)}  ${ids.join(' ')}  time-to-kill`];
  for (const r of results) {
    const cells = ids.map((id) => (r.verdicts[id] ? mark[r.verdicts[id]] : ' ').padEnd(id.length));
    lines.push(`${r.mutant.padEnd(nameWidth)}  ${cells.join(' ')}  ${r.timeToKillMs === undefined ? VERDICT_MARK[killVerdict(r)] : `${r.timeToKillMs} ms`}`);
  }
  return lines.join('\n');
}

/** --kind's values, each one of the kinds --auto derives. */
function autoKinds(names: string[]): AutoMutationKind[] {
  const unknown = names.filter((n) => !(AUTO_MUTATION_KINDS as readonly string[]).includes(n));
  if (unknown.length) throw new UsageError(`--kind: unknown kind ${unknown.map((n) => `"${n}"`).join(', ')}; the kinds are ${AUTO_MUTATION_KINDS.join(', ')}`);
  return names as AutoMutationKind[];
}

/** --auto: the target as fuzz picks it (config, --migrations, supabase/migrations, --pack, --skip, --reference). */
/** An --auto variant's entry in the report. */
function autoEntry(r: AutoKillResult): MutantEntry {
  return mutantEntry(r, autoVerdict(r), { reason: r.reason, kind: r.kind, object: r.target });
}

async function autoMutants(options: MutantsOptions, source: PackSource, out: (line: string) => void, made: MutantsMade = { variants: [] }): Promise<MutantsReport> {
  const kinds = options.kind?.length ? autoKinds(options.kind) : undefined;
  const { pack, target } = await chooseTarget(source, { config: options.config, migrations: options.migrations, skip: options.skip, pack: options.packModule, reference: options.reference });
  made.head = { mode: 'auto', target: target.label, seed: options.seed, runs: options.runs, failOnUncovered: options.failOnUncovered === true };
  const properties = pack.properties.filter((p) => ruleAllowed(target.config, p.id));
  const server = await startDatabaseServer({ databaseUrl: options.databaseUrl });
  const interrupt = watchInterrupt(out);
  let results: AutoKillResult[];
  try {
    out(`policyfuzz mutants --auto: variants derived from the catalog of ${target.label}`);
    results = await runAutoMutants({
      server,
      target,
      properties,
      catalogProperties: catalogPropertiesOf(pack).filter((p) => ruleAllowed(target.config, p.id)),
      seed: options.seed,
      runs: options.runs,
      ...(kinds ? { kinds } : {}),
      runUncovered: options.runUncovered,
      stop: interrupt.stopped,
      onExcluded: (id, why) => out(`left out ${id}: it already fails on the unmutated target (${why.split('\n')[0]})`),
      onNotApplicable: (id, note) => out(`left out ${id}: ${note}`),
      onSkipped: (table, policies, why) => out(`skipped ${policies} ${policies === 1 ? 'policy' : 'policies'} of ${table}: ${why}`),
      onResult: (r) => {
        made.variants.push(autoEntry(r));
        out(`${AUTO_MARK[autoVerdict(r)]} ${r.mutant}${r.killedBy.length ? ` by ${r.killedBy.join(', ')} in ${r.timeToKillMs} ms` : ` — ${r.reason}`}`);
      },
    });
  } finally {
    interrupt.end();
    await server.stop();
  }
  out('\nkill matrix (X killed, . survived, ! error):');
  const inMatrix = results.filter((r) => ['killed', 'survived', 'no-verdict'].includes(autoVerdict(r)));
  out(killMatrix(inMatrix));
  const rate = autoKillRate(results);
  const survivors = results.filter((r) => autoVerdict(r) === 'survived');
  const uncovered = results.filter((r) => autoVerdict(r) === 'not-covered');
  out(`\n${killedLine(rate)}, ${rate.equivalent} equivalent not run${rate.uncovered ? `, ${rate.uncovered} not covered by any property (not run)` : ''}${rate.notRun ? `, ${rate.notRun} not run (${NOT_RUN_WHY})` : ''}${rate.noVerdict ? `, ${noVerdictCount(rate.noVerdict)}` : ''}`);
  for (const s of survivors) out(`  survivor ${s.mutant}: ${s.bug} — ${s.reason}`);
  if (uncovered.length) {
    const byObject = new Map<string, number>();
    for (const r of uncovered) byObject.set(r.target, (byObject.get(r.target) ?? 0) + 1);
    out(`\nnot covered by any property (${uncovered.length} variants, not run; ${UNCOVERED_HINT}):`);
    for (const [object, count] of [...byObject].sort(([a], [b]) => a.localeCompare(b))) out(`  ${object}: ${count} ${count === 1 ? 'variant' : 'variants'}`);
  }
  const signal = interrupt.received;
  if (signal) out(interruptedLine(signal, results.length));
  const report = mutantsReport(made.head, results.map(autoEntry), signal);
  // The pack's gaps are reported; they fail the run only when asked (a nightly's choice), as fuzz's PARTIAL with --fail-on-partial.
  if (uncovered.length && !signal) out(`${uncovered.length} not covered by any property: ${options.failOnUncovered ? 'exit 1 (--fail-on-uncovered)' : 'exit 0 without --fail-on-uncovered'}`);
  if (rate.notRun && !signal) out(`${rate.notRun} not run: exit 1 (${NOT_RUN_WHY}; fix that failure, or leave its rule out with rules.exclude, and run again)`);
  if (rate.noVerdict && !signal) out(noVerdictExitLine(rate.noVerdict));
  return report;
}

/** Mutants run that no property judged (killVerdict's no-verdict): the count, with why they are apart. */
function noVerdictCount(count: number): string {
  return `${count} with no verdict (run, but no property judged ${count === 1 ? 'it' : 'them'}: every case dropped, a harness error, or none could run; the reason beside each)`;
}

/** The exit line of a run with mutants no property judged: as fuzz's NO VERDICT, it fails. */
function noVerdictExitLine(count: number): string {
  return `${count} with no verdict: exit 1 (a mutant nothing checked is no pass: the reason beside each says why its properties judged nothing)`;
}

/** Why a NOT RUN variant has no verdict; printed with the count and on the exit line. */
const NOT_RUN_WHY = 'the properties covering them already fail on the unmutated target, left out above';

/** The kill rate over the variants run; none run is said as such, never as 100%. */
function killedLine(rate: ReturnType<typeof autoKillRate>): string {
  if (!rate.total) return 'no automatic variant run';
  return `${rate.killed} of ${rate.total} automatic variants killed (${Math.round((100 * rate.killed) / rate.total)}%)`;
}

/** How a run mutant's verdict is printed, on its line and in the kill matrix's last column. */
const VERDICT_MARK = { killed: 'killed  ', survived: 'SURVIVED', 'no-verdict': 'NO VERDICT' } as const;
const AUTO_MARK = { ...VERDICT_MARK, equivalent: 'equiv.  ', 'not-covered': 'uncov.  ', 'not-run': 'NOT RUN ' } as const;

/** `made` is filled as the run goes: what --json prints if a harness error ends it. */
export async function mutants(options: MutantsOptions & { pack: Pack }, out: (line: string) => void = console.log, made: MutantsMade = { variants: [] }): Promise<MutantsReport> {
  if (options.auto) return autoMutants(options, packSource(options.pack), out, made);
  const onlyWithAuto = [
    options.skip?.length && '--skip',
    options.reference && '--reference',
    options.config && '--config',
    options.kind?.length && '--kind',
    options.runUncovered && '--run-uncovered',
    options.failOnUncovered && '--fail-on-uncovered',
  ].filter(Boolean);
  if (onlyWithAuto.length) throw new UsageError(`${onlyWithAuto.join(', ')} go with --auto (hand-written mutants apply to --migrations)`);
  const pack = options.packModule ? await loadPackModule(options.packModule, '--pack') : options.pack;
  const list = loadMutants(options.dir ?? shownPath(pack.mutants ?? 'mutants'));
  // The pack on these folders, as fuzz resolves a --migrations target (its settings, its mapping).
  const target = await resolveTarget(pack, { migrations: options.migrations?.length ? options.migrations : [defaultMigrationsOption(pack)], explicitMigrations: true });
  made.head = { mode: 'hand-written', target: target.label, seed: options.seed, runs: options.runs, failOnUncovered: false };
  const server = await startDatabaseServer({ databaseUrl: options.databaseUrl });
  const results: KillResult[] = [];
  const entries = made.variants;
  const unreachable = list.filter((m) => m.unreachable);
  const interrupt = watchInterrupt(out);
  try {
    for (const mutant of list) {
      if (interrupt.stopped()) break;
      if (mutant.unreachable) {
        out(`unreach. ${mutant.name} — not run: ${mutant.unreachable}`);
        entries.push(mutantEntry({ mutant: mutant.name, bug: mutant.bug, verdicts: {}, killedBy: [], notes: [] }, 'unreachable', { reason: mutant.unreachable }));
        continue;
      }
      const r = await killMutant(mutant, { server, target, properties: pack.properties, catalogProperties: catalogPropertiesOf(pack), seed: options.seed, runs: options.runs, all: options.all, stop: interrupt.stopped });
      if (r.interrupted) {
        out(`cut      ${r.mutant} — interrupted before any property killed it: no verdict`);
        break;
      }
      results.push(r);
      const verdict = killVerdict(r);
      entries.push(mutantEntry(r, verdict, verdict === 'no-verdict' ? { reason: noVerdictReason(r) } : {}));
      if (verdict === 'no-verdict') out(`${VERDICT_MARK[verdict]} ${r.mutant} — ${noVerdictReason(r)}`);
      else out(`${VERDICT_MARK[verdict]} ${r.mutant}${r.killedBy.length ? ` by ${r.killedBy.join(', ')} in ${r.timeToKillMs} ms` : ''}${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`);
    }
  } finally {
    interrupt.end();
    await server.stop();
  }
  out('\nkill matrix (X killed, . survived, ! error):');
  out(killMatrix(results));
  const survivors = results.filter((r) => killVerdict(r) === 'survived');
  const judged = results.filter((r) => killVerdict(r) !== 'no-verdict');
  const noVerdict = results.length - judged.length;
  out(`\n${judged.length - survivors.length} of ${judged.length} mutants killed${noVerdict ? `, ${noVerdictCount(noVerdict)}` : ''}${unreachable.length ? ` (${unreachable.length} reclassified as unreachable through REST, not run)` : ''}${survivors.length ? `; survivors: ${survivors.map((s) => `${s.mutant} (${s.bug})`).join('; ')}` : ''}`);
  const signal = interrupt.received;
  if (signal) out(interruptedLine(signal, entries.length, list.length));
  else if (noVerdict) out(noVerdictExitLine(noVerdict));
  return mutantsReport(made.head, entries, signal);
}

/** `policyfuzz mutants` as the CLI runs it (cli/commands/mutants.ts defines its options): the report, or its JSON. */
export async function mutantsCommand(opts: Omit<MutantsOptions, 'packModule'> & { pack?: string; json?: boolean }, pack: PackSource): Promise<number> {
    const { pack: packModule, json, ...rest } = opts;
    // --json keeps stdout for the result: the human output goes to stderr (as fuzz --json).
    const out = json ? (line: string) => void process.stderr.write(`${line}\n`) : console.log;
    const made: MutantsMade = { variants: [] };
    let report: MutantsReport;
    try {
      report = rest.auto ? await autoMutants({ ...rest, packModule }, pack, out, made) : await mutants({ ...rest, packModule, pack: await pack.load() }, out, made);
    } catch (error) {
      // A nightly reading stdout gets the error and the verdicts made before it; stderr and exit 2 as without --json.
      if (json) process.stdout.write(`${JSON.stringify(mutantsErrorReport(made, error instanceof Error ? error.message : String(error)), null, 2)}\n`);
      throw error;
    }
    if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return report.exitCode;
}
