/** Project policy helpers (spec §4.2 last row): about the caller only, callable by anon and authenticated. */
import type { FunctionModel } from '../../../../engine/model/function-model.ts';
import { allowed, secureReading } from '../../../../engine/model/outcome.ts';
import { currentUserIsAddressedProfessor, currentUserIsProjectActor } from '../tables/projects.ts';
import { ruleContext } from './identity.ts';

/** The secure reading of current_user_is_project_actor's answer where the spec leaves "actor" open. */
export const PROJECT_ACTOR_MEANING_OPEN = 'project-actor-meaning-open';

export const projectFunctions: FunctionModel[] = [
  {
    name: 'current_user_is_project_actor',
    args: [],
    executableBy: ['anon', 'authenticated', 'service_role'],
    predict: (world, caller, _args, settings) => {
      const value = currentUserIsProjectActor(ruleContext(world, caller, settings));
      // The spec names the helper but not who an actor is (projects.actorRoles is the model's reading;
      // stranger-app-3 reads ownership of a project or a sign request): its answer about a signed-in
      // caller themselves tells nothing of anyone else, so the other answer is as secure.
      const other = caller.kind === 'user' ? [secureReading(PROJECT_ACTOR_MEANING_OPEN, allowed([{ value: !value }], 1))] : [];
      return { outcome: { ...allowed([{ value }], 1), ...(other.length ? { orElse: other } : {}) }, world };
    },
  },
  {
    name: 'current_user_is_addressed_professor',
    args: ['p_project_id'],
    executableBy: ['anon', 'authenticated', 'service_role'],
    predict: (world, caller, args, settings) => ({
      outcome: allowed([{ value: currentUserIsAddressedProfessor(ruleContext(world, caller, settings), args.p_project_id) }], 1),
      world,
    }),
  },
];
