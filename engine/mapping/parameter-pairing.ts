/**
 * A model function's parameters paired with the target's same-named function's, where some are
 * named otherwise. A target name holding the model's words (`p_primary` → `p_primary_id`,
 * `p_title` → `p_public_title`) is that parameter wherever it stands; the rest pair by position
 * among those left, as a caller passing them positionally would. Before (stranger-app-11's
 * `merge_vs_tickets(p_primary_id, p_duplicate_id)` beside the model's `(p_duplicate, p_primary)`),
 * position alone paired `p_duplicate → p_primary_id`: every merge was sent the other way round.
 */

/** A parameter's words, without the `p_`/`_p`/`in_`/`_in` affixes parameter names carry (`p_primary_id` → primary, id). */
function words(name: string): string[] {
  return name
    .toLowerCase()
    .split('_')
    .filter((w, i, all) => w !== '' && !((i === 0 || i === all.length - 1) && ['p', 'in', 'arg'].includes(w)));
}

/** Whether every word of `model` is one of `target`'s. */
const holds = (target: string, model: string): boolean => {
  const t = new Set(words(target));
  const m = words(model);
  return m.length > 0 && m.every((w) => t.has(w));
};

/** Model parameter → target parameter, for the model's parameters the target does not name alike (same count on both sides). */
export function pairParameters(modelArgs: readonly string[], targetArgs: readonly string[]): Record<string, string> {
  const unmatchedModel = modelArgs.filter((a) => !targetArgs.includes(a));
  const unmatchedTarget = targetArgs.filter((n) => !modelArgs.includes(n));
  const pairs: Record<string, string> = {};
  // By words first: a target parameter holding exactly one unmatched model parameter's words, and that one's only such target.
  for (const m of unmatchedModel) {
    const candidates = unmatchedTarget.filter((t) => holds(t, m));
    if (candidates.length !== 1) continue;
    const claimants = unmatchedModel.filter((other) => holds(candidates[0], other));
    if (claimants.length === 1) pairs[m] = candidates[0];
  }
  const leftTarget = unmatchedTarget.filter((t) => !Object.values(pairs).includes(t));
  const leftModel = unmatchedModel.filter((m) => !(m in pairs));
  // By position only where as many are left on each side: beside extra defaulted parameters
  // (`p_summary default null, p_headline default null`) position says nothing of which is which.
  if (leftModel.length === leftTarget.length) leftModel.forEach((m, i) => (pairs[m] = leftTarget[i]));
  // In the model's order, as the note lists them.
  return Object.fromEntries(unmatchedModel.filter((m) => m in pairs).map((m) => [m, pairs[m]]));
}

/**
 * Whether a target function can take the model's call: as many parameters, or more where each
 * extra one has a DEFAULT (`optional`), which the call leaves out.
 */
export function parameterCountsFit(modelArgs: readonly string[], targetArgs: readonly { optional?: true }[]): boolean {
  return targetArgs.length >= modelArgs.length && targetArgs.filter((a) => !a.optional).length <= modelArgs.length;
}

/** Whether every target parameter the call does not give (neither named alike nor paired) has a DEFAULT. */
export function leftOutAreOptional(modelArgs: readonly string[], pairs: Readonly<Record<string, string>>, targetArgs: readonly { name: string; optional?: true }[]): boolean {
  const given = new Set([...modelArgs, ...Object.values(pairs)]);
  return targetArgs.every((a) => given.has(a.name) || a.optional === true);
}
