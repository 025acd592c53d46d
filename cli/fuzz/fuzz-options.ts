/** What `policyfuzz fuzz` is asked to do: the command's options, as tests and the CLI pass them. */
import type { Pack } from '../../engine/pack.ts';
import type { Target } from '../../engine/config/target.ts';
import type { ReportFormat } from '../../engine/report/write.ts';
import type { RunReporter } from '../../engine/report/run-events.ts';
import type { ProfileName, Shard } from '../profiles.ts';

export interface FuzzOptions {
  seed?: number;
  runs?: number;
  workers?: number;
  databaseUrl?: string;
  migrations: string;
  only?: string[];
  path?: string;
  provider?: 'local' | 'testcontainers';
  profile?: ProfileName;
  timeBudget?: number;
  shard?: Shard;
  sso?: boolean;
  ssoConfig?: string;
  ssoRuns?: number;
  reportDir?: string;
  failuresDir?: string;
  /** false (`--no-replay`): do not replay the saved failures first. */
  replay?: boolean;
  /** The pack whose rules run (the CLI is given it; it never imports one). */
  pack: Pack;
  /** Settings other than the target's (a test of a setting's meaning). */
  settings?: unknown;
  /** A project config (policyfuzz.config.json/.ts); found in the current folder when not given. */
  config?: string;
  /** Only the properties whose tables or functions the migrations changed since this git ref. */
  changedSince?: string;
  /** A baseline of accepted findings: the run fails only on others. */
  baseline?: string;
  /** Rewrite the baseline: this run's findings in, FIXED entries out. */
  updateBaseline?: boolean;
  /** Fewest cases for a verdict when the budget or an interrupt cuts a property short (default: the profile's). */
  minCases?: number;
  /** Stop a data-layer property at or past its minimum once saturated (default: the profile's). */
  earlyStop?: boolean;
  /** Exit 1 when a property is partial or not reached (CI that wants every property's minimum). */
  failOnPartial?: boolean;
  /** The target, chosen by the CLI (engine/config/target.ts chooseTarget); else resolved from config and migrations. */
  target?: Target;
  /** Property ids left out (`--exclude R07,S10`). */
  exclude?: string[];
  /** Stop after this many failing properties; the rest are not run (and named). */
  maxFailures?: number;
  /** Report files to write (default json, junit, html); `matrix` also prints the access matrix. */
  report?: ReportFormat[];
  /** false (`--no-color`); NO_COLOR in the environment also turns colour off. */
  color?: boolean;
  /** Only the failures and the final line. */
  quiet?: boolean;
  /** Also the access matrix on the console. */
  verbose?: boolean;
  /** Print summary.json to stdout (everything else goes to stderr). */
  json?: boolean;
  /** Print where the time went (summary.json always has it). */
  timings?: boolean;
  /** More subscribers to the run's events (engine/report/run-events.ts), after the built-in reporters. */
  reporters?: RunReporter[];
}
