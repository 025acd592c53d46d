/** Project policy helpers (spec §4.2 last row): about the caller only, callable by anon and authenticated. */
import type { FunctionModel } from '../../../../engine/model/function-model.ts';
import { allowed } from '../../../../engine/model/outcome.ts';
import { currentUserIsAddressedProfessor, currentUserIsProjectActor } from '../tables/projects.ts';
import { ruleContext } from './identity.ts';

export const projectFunctions: FunctionModel[] = [
  {
    name: 'current_user_is_project_actor',
    args: [],
    executableBy: ['anon', 'authenticated', 'service_role'],
    predict: (world, caller, _args, settings) => ({ outcome: allowed([{ value: currentUserIsProjectActor(ruleContext(world, caller, settings)) }], 1), world }),
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
