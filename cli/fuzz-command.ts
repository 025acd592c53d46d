/**
 * `policyfuzz fuzz`: the data-layer properties and, for the bundled target, the SSO properties
 * against the bundled emulator. The run is a pipeline of phases (cli/fuzz/): plan → data half
 * (saved failures replayed first, then generation) → SSO half → summary and verdict. The phases
 * only emit events; the console, the failure store, the report files, the GitHub step summary and
 * `--json` subscribe to them (engine/report/reporters/).
 */
import type { Command } from 'commander';
import { COUNTS_LEGEND } from '../engine/report/counts-legend.ts';
import { DEFAULT_REPORT_DIR, DEFAULT_REPORT_FORMATS, REPORT_FORMATS } from '../engine/report/formats.ts';
import { DEFAULT_FAILURES_DIR } from '../engine/failures/default-dir.ts';
import type { PackSource } from '../engine/pack.ts';
import { UsageError } from '../engine/errors.ts';
import type { TargetChoice } from '../engine/config/config-shape.ts';
import { durationValue, idList, migrationTimeoutValue, positiveInt, profileValue, propertyIdList, providerValue, reportFormats, seedValue, shardValue } from './options.ts';
import { PROFILES } from './profiles.ts';
import type { FuzzOptions } from './fuzz/fuzz-options.ts';
import { checkOptionCombinations } from './fuzz/option-combinations.ts';
import { defaultMigrationsOption } from './paths.ts';

export type { FuzzOptions } from './fuzz/fuzz-options.ts';

/** Runs fuzz (cli/fuzz/run-fuzz.ts), loading the engine only now: `--help` and bad input answer without it. */
export async function fuzz(options: FuzzOptions, out: (line: string) => void = console.log): Promise<number> {
  const { runFuzz } = await import('./fuzz/run-fuzz.ts');
  return runFuzz(options, out);
}

export function registerFuzzCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>, pack: PackSource): void {
  const p = PROFILES;
  const ssoFlags = new Set<string>();
  program
    .command('fuzz', { isDefault: true })
    .description('run the properties (data layer R01…R20; SSO S01… with --sso) against a migrations folder on a scratch database')
    .addHelpText('after', `\nThe table of results:\n${COUNTS_LEGEND.map((l) => `  ${l}`).join('\n')}\nStatus: PASS, FAIL, ERROR (a harness error, no verdict), N/A (the target lacks the rule's tables),\n  PARTIAL (cut short below --min-cases), NOT REACHED (never started).\nExit: 0 every property holds, 1 one failed, 2 bad input or environment, 130 interrupted.`)
    .option('--profile <name>', `pr (default: ${p.pr.description}) or nightly (${p.nightly.description})`, profileValue)
    .option('--seed <n>', 'seed for generation (default: a fresh one, printed)', seedValue)
    .option('--runs <n>', `cases per property (pr ${p.pr.runs}, nightly ${p.nightly.runs})`, positiveInt('--runs'))
    .option('--workers <n>', `parallel database connections (pr ${p.pr.workers}, nightly ${p.nightly.workers})`, positiveInt('--workers'))
    .option('--time-budget <duration>', `stop generating after this long, e.g. 90s, 20m (pr ${p.pr.timeBudgetMs / 1000}s, nightly ${p.nightly.timeBudgetMs / 60_000}m)`, durationValue)
    .option('--shard <i/n>', 'run shard i of n (a CI matrix; every shard with the same --seed); combine the shards with merge-reports', shardValue)
    .option('--database-url <url>', 'use this Postgres server (default: $DATABASE_URL, else testcontainers, else a local server)')
    .option('--provider <name>', 'force where Postgres comes from: testcontainers or local', providerValue)
    .option('--migrations <dir...>', `folders of .sql migrations, applied in order (default: supabase/migrations when there is one here, else ${defaultMigrationsOption(pack)})`)
    .option('--config <file>', 'a project config (policyfuzz.config.json or .ts); default: the one in this folder, if any')
    .option('--pack <module>', "a project pack module (.ts/.js exporting extendPack(…) or definePack(…) from 'policyfuzz'); default: the config's \"pack\", else the bundled reference pack")
    .option('--skip <file...>', 'migration file names to leave out (data repairs that cannot apply to an empty database)')
    .option('--migration-timeout <seconds>', 'longest one migration statement may run before the run ends naming it (default 300; config "migrationTimeout")', migrationTimeoutValue)
    .option('--reference', 'run on the bundled reference database, even inside a project with a config or supabase/migrations')
    .option('--changed-since <git-ref>', 'only the rules whose tables or functions the migrations changed since this ref')
    .option('--only <ids>', 'comma-separated property ids, e.g. R02,R05 or S03', idList)
    .option('--path <path>', 'with --seed and --only: replay the shrunk case a failure printed')
    .option('--sso', 'run the SSO properties against the bundled emulator too (the default for the bundled target in both profiles)')
    .option('--no-sso', 'leave the SSO properties out')
    .option('--sso-config <file>', 'emulator config for the SSO properties (default: sso/examples/sso.config.json)')
    .option('--sso-runs <n>', `cases per SSO property (pr ${p.pr.ssoRuns}, nightly ${p.nightly.ssoRuns})`, positiveInt('--sso-runs'))
    .option('--report-dir <dir>', 'where the reports go (summary.json, junit.xml, report.html, policyfuzz.sarif, matrix.md)', DEFAULT_REPORT_DIR)
    .option('--failures-dir <dir>', 'saved failures (replayed first, new ones written with their repros)', DEFAULT_FAILURES_DIR)
    .option('--no-replay', 'do not replay the saved failures first')
    .option('--baseline <file>', 'accepted findings by signature (JSON, each with a reason): the run fails only on others and reports entries that are FIXED')
    .option('--update-baseline', 'with --baseline: write the file from this run (new findings added, FIXED entries removed)')
    .option('--min-cases <n>', `cases a property needs for a verdict when the budget cuts it short (pr ${p.pr.minCases}, nightly ${p.nightly.minCases}); below it: PARTIAL`, positiveInt('--min-cases'))
    .option('--early-stop', `stop a data-layer property at or past its --min-cases once saturated: every clause reached on both sides, every model branch taken, no new outcome class or kind of request in its last tranche; with it, --shard splits the data-layer properties (each shard runs every lane of its own), so each stops as on one machine (pr ${p.pr.earlyStop ? 'on' : 'off'}, nightly ${p.nightly.earlyStop ? 'on' : 'off'}; never for a lone property)`)
    .option('--no-early-stop', 'run every property to its --runs (within the budget)')
    .option('--fail-on-partial', 'exit 1 when a property is PARTIAL or NOT REACHED (the budget or an interrupt cut it short)')
    .option('--exclude <ids>', 'comma-separated property ids to leave out, e.g. R07,S10', propertyIdList('--exclude'))
    .option('--max-failures <n>', 'stop after n failing properties (the rest are named as not run)', positiveInt('--max-failures'))
    .option('--report <formats>', `reports to write: ${REPORT_FORMATS.join(',')} (default ${DEFAULT_REPORT_FORMATS.join(',')}; matrix also prints the access matrix)`, reportFormats)
    .option('--json', 'print summary.json to stdout (everything else goes to stderr)')
    .option('--timings', 'print where the time went: start-up (server, migrations, template, workers), then per property generation, model, database, shrinking (always in summary.json)')
    .option('-q, --quiet', 'print only the failures and the final line')
    .option('-v, --verbose', 'also print the access matrix')
    // Commander keeps the last of --sso and --no-sso: note both, to refuse the pair.
    .on('option:sso', () => ssoFlags.add('--sso'))
    .on('option:no-sso', () => ssoFlags.add('--no-sso'))
    .action((opts: Omit<FuzzOptions, 'pack' | 'migrations'> & TargetChoice) =>
      run(async () => {
        if (opts.quiet && opts.verbose) throw new UsageError('--quiet and --verbose contradict each other: give one');
        if (ssoFlags.size === 2) throw new UsageError('--sso and --no-sso contradict each other: give one');
        checkOptionCombinations(opts);
        // --json keeps stdout for the summary: the human output goes to stderr.
        const out = opts.json ? (line: string) => void process.stderr.write(`${line}\n`) : console.log;
        // The config read and checked first: a bad one answers before the pack and the engine load.
        const { readChosenConfig } = await import('../engine/config/config-shape.ts');
        const config = await readChosenConfig(opts);
        const { chooseTarget } = await import('../engine/config/target.ts');
        const chosen = await chooseTarget(pack, opts, config);
        return fuzz({ ...opts, pack: chosen.pack, migrations: chosen.migrations, target: chosen.target }, out);
      }),
    );
}
