/**
 * `policyfuzz completion bash|zsh`: a shell completion script, generated from the commands and
 * options the CLI defines, so it never falls behind them. Load it with
 * `eval "$(policyfuzz completion bash)"` (or zsh) in the shell's rc file.
 */
import type { Command } from 'commander';
import { UsageError } from '../engine/errors.ts';
import { PROFILE_NAMES } from './profiles.ts';
import { REPORT_FORMATS } from '../engine/report/formats.ts';

const SHELLS = ['bash', 'zsh'] as const;

/** Values an option takes from a fixed list (completed after the option). */
const OPTION_VALUES: Record<string, readonly string[]> = {
  '--profile': PROFILE_NAMES,
  '--provider': ['local', 'testcontainers'],
  '--report': REPORT_FORMATS,
};

const flagsOf = (command: Command) => [...command.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))), '--help'];
const words = (list: readonly string[]) => [...new Set(list)].join(' ');

/** The bash function: the first word that is a command picks the words offered (fuzz is the default command). */
export function bashCompletion(program: Command): string {
  const commands = program.commands.filter((c) => c.name() !== 'help');
  const cases: string[] = [];
  for (const c of commands) {
    const subs = c.commands;
    if (subs.length) {
      for (const s of subs) cases.push(`    "${c.name()} ${s.name()}") words="${words(flagsOf(s))}" ;;`);
      cases.push(`    "${c.name()} "*) words="${words(subs.map((s) => s.name()))}" ;;`);
    } else cases.push(`    "${c.name()} "*) words="${words(c.name() === 'completion' ? SHELLS : flagsOf(c))}" ;;`);
  }
  const fuzz = commands.find((c) => c.name() === 'fuzz');
  const values = Object.entries(OPTION_VALUES).map(([flag, list]) => `    ${flag}) COMPREPLY=( $(compgen -W "${words(list)}" -- "$cur") ); return ;;`);
  return `# policyfuzz shell completion (bash). Load it with: eval "$(policyfuzz completion bash)"
_policyfuzz() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="" sub="" words="" w
  case "$prev" in
${values.join('\n')}
  esac
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$w" in
      -*) ;;
      *) if [ -z "$cmd" ]; then cmd="$w"; elif [ -z "$sub" ]; then sub="$w"; fi ;;
    esac
  done
  case " ${commands.map((c) => c.name()).join(' ')} " in
    *" $cmd "*) ;;
    *) cmd="" ;;
  esac
  case "$cmd $sub" in
${cases.join('\n')}
    *) if [[ "$cur" == -* ]]; then words="${words([...(fuzz ? flagsOf(fuzz) : []), ...flagsOf(program)])}"; else words="${words(commands.map((c) => c.name()))}"; fi ;;
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -o default -F _policyfuzz policyfuzz
`;
}

export function completionScript(program: Command, shell: string): string {
  if (shell === 'bash') return bashCompletion(program);
  // zsh runs bash completion functions through bashcompinit.
  if (shell === 'zsh') return `# policyfuzz shell completion (zsh). Load it with: eval "$(policyfuzz completion zsh)"\nautoload -U +X bashcompinit && bashcompinit\n${bashCompletion(program)}`;
  throw new UsageError(`no completion for shell "${shell}" (known: ${SHELLS.join(', ')})`);
}

export function registerCompletionCommand(program: Command, run: (action: () => Promise<number>) => Promise<void>): void {
  program
    .command('completion')
    .description(`print a shell completion script (${SHELLS.join(' or ')}); load it with eval "$(policyfuzz completion bash)"`)
    .argument('[shell]', SHELLS.join(' or '), 'bash')
    .action((shell: string) =>
      run(async () => {
        process.stdout.write(completionScript(program, shell));
        return 0;
      }),
    );
}
