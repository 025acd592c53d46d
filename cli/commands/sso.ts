/**
 * The `sso serve|check` command's definition: its options and help, for commander. The implementation
 * (cli/sso-command.ts) loads when the command runs, so `--help`, `--version` and bad input answer without it.
 */
import type { Command } from 'commander';
import { SSO_FAULTS } from '../../sso/emulator/faults/index.ts';
import { durationValue } from '../options.ts';
import type { CheckOptions, ServeOptions } from '../sso-command.ts';
import type { RunCommand } from './run-command.ts';

import { EXPIRY_WAIT_BOUND_S } from '../sso-defaults.ts';

export function registerSsoCommands(program: Command, run: RunCommand): void {
  const sso = program.command('sso').description('SSO: emulator and security properties against any deployment');
  sso
    .command('serve')
    .description('start the strict SSO emulator (web and API on one loopback port)')
    .requiredOption('--config <file>', 'clients and users (JSON)')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
    .option('--auto-login <user>', 'log this user in without a form (for CI)')
    .option('--fault <name...>', `enable a deliberate defect, tests only (${SSO_FAULTS.join(', ')})`)
    .action(async (opts: ServeOptions) => run(async () => (await import('../sso-command.ts')).ssoServeCommand(opts)));
  sso
    .command('check')
    .description('run the SSO properties against a deployment (exit 0 all pass, 1 a property failed, 2 bad input or environment)')
    .requiredOption('--web <url>', '{sso_web_url}: login and logout pages')
    .requiredOption('--api <url>', '{sso_api_url}: auth.token, user.profile, auth.status')
    .requiredOption('--config <file>', 'test clients and users of that deployment (JSON)')
    .option('--seed <n>', 'fast-check seed (same seed, same cases)')
    .option('--runs <n>', 'cases per property', '25')
    .option('--max-requests <n>', 'hard cap on requests for the whole run')
    .option('--throttle-ms <n>', 'least milliseconds between two requests')
    .option('--timeout-ms <n>', 'longest wait for an answer to one request (default 10000)')
    .option('--browser', "log in through Debian's chromium (for a real login page)")
    .option('--no-wait', `do not wait for code/token expiry (S06 N/A); without a control API, sso check waits the configured lifetimes out when they fit the bound`)
    .option('--max-wait <seconds>', `longest wait for expiry (default ${EXPIRY_WAIT_BOUND_S})`)
    .option('--real-time', 'wait for expiry in real time (the default without --control-api; kept for older command lines)')
    .option('--control-api', "the target is policyfuzz's emulator: move its clock through {api}/__control/ (never probed otherwise)")
    .option('--only <ids>', 'comma-separated property ids, e.g. S02,S04')
    .option('--time-budget <duration>', 'stop starting cases after this long, e.g. 90s, 20m: a property cut short is PARTIAL, one never started NOT REACHED', durationValue)
    .option('--path <path>', 'replay a reported failure (with --seed and --only)')
    .action(async (opts: CheckOptions) => run(async () => (await import('../sso-command.ts')).ssoCheckCommand(opts)));
}
