/**
 * The model's default words as a target spells them in another case: an ORM's enums (Prisma's
 * `enum OrderStatus { PENDING REVIEW }` is `CREATE TYPE "OrderStatus" AS ENUM ('PENDING', …)`)
 * hold `PENDING` where the model's defaults say `pending`. Once init has read the target's
 * vocabulary (`shop.statuses` off the enum), every other setting naming its words (who may still
 * edit an order, the initial status, who is dept-scoped) is the default respelled, not a gap the
 * user must fill by hand or a harness error on every rule using it. Pure.
 */
import { setPath, valueAtPath } from './dotted-path.ts';

/** The one word of `vocabulary` equal to `word` but for case; none where there is none, or several. */
export function targetSpelling(word: string, vocabulary: readonly string[]): string | undefined {
  const same = vocabulary.filter((w) => w.toLowerCase() === word.toLowerCase());
  return same.length === 1 ? same[0] : undefined;
}

/** `words` each as `vocabulary` spells it, or undefined if any is missing there in every case. */
export function spelledAs(words: readonly string[], vocabulary: readonly string[]): string[] | undefined {
  const spelled = words.map((w) => (vocabulary.includes(w) ? w : targetSpelling(w, vocabulary)));
  return spelled.every((w): w is string => w !== undefined) ? spelled : undefined;
}

type Settings = Record<string, unknown>;


/** Every leaf setting under `settings` by its dotted path. */
function leaves(settings: unknown, prefix = ''): [string, unknown][] {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return prefix ? [[prefix, settings]] : [];
  return Object.entries(settings as Settings).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

/**
 * The settings naming a vocabulary's words: those whose key names it (`roles` → `staffRoles`,
 * `vs.deptScopedRoles`; `shop.statuses` → `shop.buyerEditableStatuses`, `shop.initialStatus`),
 * beside it (a status list of the shop is the shop's) or anywhere for a top-level one (roles).
 */
function namesVocabulary(path: string, vocabularyPath: string): boolean {
  if (path === vocabularyPath) return false;
  const parent = vocabularyPath.split('.').slice(0, -1).join('.');
  if (parent && !path.startsWith(`${parent}.`)) return false;
  const stem = vocabularyPath.split('.').at(-1)!.toLowerCase().replace(/(?<=s)es$|s$/, ''); // statuses → status, roles → role
  return path.split('.').at(-1)!.toLowerCase().includes(stem);
}

/**
 * Defaults naming words of a vocabulary the target spells in another case: each such setting
 * respelled (`settings`, to propose where nothing else did) and `defaults` with them so (for the
 * readers that compare a default with the target's words). Only where every word the setting
 * names is one of the default vocabulary's and each has the target's spelling: a default naming
 * a word the target lacks in every case (`admin`) is left to the helpers or the user.
 */
export function defaultsSpelledAsTarget(
  vocabularyPaths: readonly string[],
  proposed: Settings,
  defaults: unknown,
): { settings: Settings; defaults: unknown; notes: { path: string; text: string }[] } {
  const settings: Settings = {};
  const notes: { path: string; text: string }[] = [];
  const respelled = structuredClone(defaults) as Settings;
  for (const vocabularyPath of vocabularyPaths) {
    const modelWords = valueAtPath(defaults, vocabularyPath);
    const targetWords = valueAtPath(proposed, vocabularyPath);
    if (!Array.isArray(modelWords) || !Array.isArray(targetWords)) continue;
    for (const [path, value] of leaves(defaults)) {
      if (!namesVocabulary(path, vocabularyPath)) continue;
      const words = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((x) => typeof x === 'string') ? (value as string[]) : undefined;
      if (!words?.length || !words.every((w) => modelWords.includes(w)) || words.every((w) => targetWords.includes(w))) continue;
      const spelled = spelledAs(words, targetWords);
      if (!spelled) continue;
      const as = typeof value === 'string' ? spelled[0] : spelled;
      setPath(respelled, path, as);
      if (valueAtPath(proposed, path) !== undefined) continue;
      setPath(settings, path, as);
      notes.push({ path, text: `confirm: model.${path}: ${spelled.join(', ')} (the default ${words.join(', ')} as model.${vocabularyPath} spells them)` });
    }
  }
  return { settings, defaults: respelled, notes };
}

