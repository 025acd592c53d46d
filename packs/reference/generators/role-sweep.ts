/**
 * Issue 27: the properties still running past their minimum were held by a kind of request first
 * sent between cases 50 and 100, almost always as anon or the server (a tenth of the callers
 * each): early stop reads it as new ground. A role sweep sends, in each lane's first draws, the
 * very case the lane would have drawn there, then its steps again as anon and again as the
 * server, so every kind of request those draws make is asked as each API role in the first
 * tranche.
 *
 * A lane's sweep draw i uses the Random its plain draw i would have used (engine/runner/guided.ts),
 * so the case is the one drawn without the sweep, its own steps first and unchanged: nothing it
 * would have found is lost (replacing the caller instead, session 17's spread, lost kills). On a
 * project's target an appended step may be one it cannot hold (the server inserting again a row
 * under a unique key the model does not know): the case is cut before it, what came before judged
 * (engine/runner/check-case.ts), not dropped whole. A model run's steps are drawn as it runs
 * (fc.commands): left as it is.
 */
import type { Caller } from '../../../engine/model/caller.ts';
import { appendedStep, modelRunOf, type DataCase } from '../../../engine/runner/data-case.ts';
import type { CasesOf, DataProperty } from '../../../engine/runner/data-property.ts';

/** How many of each lane's first draws are also sent as anon and as the server. */
export const ROLE_SWEEP_DRAWS = 10;

const API_ROLES: readonly Caller[] = [{ kind: 'anon' }, { kind: 'service' }];

/** The case, then its steps again as each API role without a token (anon, the server), in turn. */
export function alsoAsApiRoles(testCase: DataCase): DataCase {
  if (modelRunOf(testCase)) return testCase;
  return { ...testCase, steps: [...testCase.steps, ...API_ROLES.flatMap((caller) => testCase.steps.map((step) => appendedStep({ ...step, caller })))] };
}

/** The property with a role sweep (alsoAsApiRoles over its own cases) after any sweep it has; narrowed forms keep it. */
export function withRoleSweep<S>(property: DataProperty<S>): DataProperty<S> {
  const swept: CasesOf<S> = (settings, oracle) => property.cases(settings, oracle).map(alsoAsApiRoles);
  const { narrow } = property;
  return {
    ...property,
    sweep: [...(property.sweep ?? []), ...Array.from({ length: ROLE_SWEEP_DRAWS }, () => swept)],
    ...(narrow ? { narrow: (has: (table: string) => boolean) => { const narrowed = narrow(has); return narrowed && withRoleSweep(narrowed); } } : {}),
  };
}
