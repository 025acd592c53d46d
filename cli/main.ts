/**
 * The `policyfuzz` command. Exit codes: 0 every property holds, 1 a property failed,
 * 2 bad input or a broken environment (a clear message, never a stack trace).
 */
import { Command, CommanderError } from 'commander';
import { announceInterrupt, INTERRUPTED_EXIT_CODE, installSignalHandlers, interruptSignal, stopAll } from '../engine/db/cleanup.ts';
import { isUserFacingError, UsageError } from '../engine/errors.ts';
import { editDistance } from '../engine/nearest-names.ts';
import type { Pack } from '../engine/pack.ts';
import { packSource } from '../engine/pack-source.ts';
import type { PackSource } from '../engine/pack.ts';
import { registerCacheCommand } from './commands/cache.ts';
import { registerCompletionCommand } from './completion-command.ts';
import { registerDiffCommand } from './commands/diff.ts';
import { registerFuzzCommand } from './fuzz-command.ts';
import { registerMergeReportsCommand } from './commands/merge-reports.ts';
import { registerMutantsCommand } from './commands/mutants.ts';
import { registerReplayCommand } from './commands/replay.ts';
import { registerInitCommand } from './commands/init.ts';
import { POLICYFUZZ_VERSION } from './paths.ts';
import { registerSsoCommands } from './commands/sso.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** `pack`: the rules to run, handed in by whoever starts the CLI (bin/ passes the reference pack). */
export async function main(argv: string[], options: { pack: Pack | PackSource }): Promise<number> {
  // Before anything starts: a signal during a server's start-up must stop what has started.
  installSignalHandlers();
  keepRunningWhenOutputCloses();
  const pack = 'load' in options.pack ? options.pack : packSource(options.pack);
  let exitCode: number = EXIT.ok;
  const run = async (action: () => Promise<number>) => {
    exitCode = await action();
  };
  const program = new Command('policyfuzz')
    .description('property-based security tests for Supabase-style row-level security and SSO')
    .version(POLICYFUZZ_VERSION, '-V, --version', 'print the policyfuzz version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerFuzzCommand(program, run, pack);
  registerReplayCommand(program, run, pack);
  registerDiffCommand(program, run, pack);
  registerMergeReportsCommand(program, run);
  registerMutantsCommand(program, run, pack);
  registerInitCommand(program, run, pack);
  registerSsoCommands(program, run);
  registerCacheCommand(program, run);
  registerCompletionCommand(program, run);
  addCommonOptions(program);
  try {
    refuseUnknownCommand(program, argv[2]);
    await program.parseAsync(argv);
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    // Stopped by a signal: what failed since (a migration, the schema load) failed because its
    // server or connection was stopped. One line says so, never the failure as if it were the cause.
    if (interruptSignal()) {
      announceInterrupt();
      return INTERRUPTED_EXIT_CODE;
    }
    if (isUserFacingError(e)) {
      process.stderr.write(`policyfuzz: ${(e as Error).message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`policyfuzz: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return EXIT.usage;
  } finally {
    await stopAll();
  }
}

/**
 * A reader that closes the pipe early (`policyfuzz fuzz --help | head -1`, or a nightly's log
 * tail dying) must not crash the run with Node's EPIPE stack: nothing more is written there, and
 * the run goes on to its reports, its verdict and its clean-up.
 */
function keepRunningWhenOutputCloses(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') > 0) continue;
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
      throw error;
    });
  }
}

/**
 * Options every command takes, so one wrapper script's flags suit any command: `--no-color`
 * (fuzz paints; the others print no colour and accept it all the same).
 */
function addCommonOptions(command: Command): void {
  for (const c of command.commands) {
    if (c.commands.length) addCommonOptions(c);
    else c.option('--no-color', 'no colour (also when NO_COLOR is set or the output is not a terminal)');
  }
}

/**
 * `fuzz` is the default command, so a mistyped command would reach it as an argument ("too many
 * arguments"): a first word that names no command and is no option or path is refused with the
 * nearest command.
 */
function refuseUnknownCommand(program: Command, first: string | undefined): void {
  if (!first || first.startsWith('-') || /[./\\]/.test(first)) return;
  const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  if (names.includes(first) || first === 'help') return;
  const nearest = names.map((n) => ({ n, d: editDistance(first, n) })).sort((a, b) => a.d - b.d)[0];
  const hint = nearest && nearest.d <= Math.max(2, Math.floor(nearest.n.length / 3)) ? `did you mean \`policyfuzz ${nearest.n}\`? ` : '';
  throw new UsageError(`unknown command "${first}": ${hint}commands: ${program.commands.map((c) => c.name()).join(', ')} (policyfuzz --help)`);
}
