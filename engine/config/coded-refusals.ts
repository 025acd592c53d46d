/**
 * A refusal `policyfuzz init` read off a function's body with its own SQLSTATE
 * (`raise exception 'NOT_AUTHORIZED' using errcode = '42501'` → `refusals.codes.not-authorized:
 * 42501`) is one the model then expects in that code. The refusal conventions
 * (`conventions.functionRefusal`, `guardRefusal`) read a target's refusal as the model's P0001:
 * one naming the same message in the same code would turn the refusal the model now expects as
 * 42501 into a P0001, a FAIL of every such refusal (stranger-app-8). Pure.
 */
import type { Conventions } from '../mapping/mapping.ts';
import { escapeRegExp } from '../regexp.ts';
import { refusalWord } from '../mapping/propose.ts';

/** A refusal whose SQLSTATE a model setting now names: its code and the message text the body raises. */
export interface CodedRefusal {
  code: string;
  text: string;
}

/** The words of a convention's message as propose.ts writes it: `^word` or `^(?:a|b)`, each escaped. */
function conventionWords(message: string): string[] | undefined {
  const one = /^\^((?:[^|()\\]|\\.)*)$/.exec(message);
  if (one) return [one[1]];
  const many = /^\^\(\?:(.*)\)$/.exec(message);
  return many ? many[1].split(/(?<!\\)\|/) : undefined;
}

/**
 * The conventions without the messages of coded refusals raised in the convention's code; a
 * convention left with none is dropped. `dropped` names each convention changed, for init's notes.
 */
export function conventionsWithoutCodedRefusals(conventions: Conventions | undefined, coded: readonly CodedRefusal[]): { conventions: Conventions | undefined; dropped: string[] } {
  if (!conventions) return { conventions, dropped: [] };
  const out: Conventions = { ...conventions };
  const dropped: string[] = [];
  for (const key of ['functionRefusal', 'guardRefusal'] as const) {
    const convention = out[key];
    const words = convention?.message === undefined ? undefined : conventionWords(convention.message);
    if (!convention || !words) continue;
    // A convention names a message by its first words (refusalWord): 'Ticket not found.' is `Ticket not found` there.
    const covered = new Set(coded.filter((c) => c.code === convention.code).map((c) => escapeRegExp(refusalWord(c.text))));
    const kept = words.filter((w) => !covered.has(w));
    if (kept.length === words.length) continue;
    const gone = words.filter((w) => covered.has(w)).map((w) => w.replace(/\\(.)/g, '$1'));
    if (kept.length) out[key] = { ...convention, message: kept.length === 1 ? `^${kept[0]}` : `^(?:${kept.join('|')})` };
    else delete out[key];
    dropped.push(`${key}${kept.length ? ` without ${gone.join(', ')}` : ' left out'} (the model expects ${gone.join(', ')} as ${convention.code}: refusals.codes)`);
  }
  return { conventions: out, dropped };
}
