import { describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { predict } from '../model/predict.ts';
import { rowsOf, type World } from '../model/world.ts';
import type { FixturePlan } from '../target/fixtures.ts';
import { withCallerFilledRun } from './caller-filled-run.ts';
import { modelRunOf, withModelRun, type DataCase, type DataStep, type StepExecutor } from './data-case.ts';

const ME = '1f000000-0000-4000-8000-000000000001';
const OTHER = '1f000000-0000-4000-8000-000000000002';
const me = { kind: 'user' as const, id: ME, email: 'me@example.test' };
const person = (id: string, email: string) => ({ id, email, display_name: 'P', avatar_url: null, phone: null, role: 'user', department: 'SE', permissions: [], managed_permissions: [] });
const world: World = { 'auth.users': [{ id: ME, email: 'me@example.test' }, { id: OTHER, email: 'o@example.test' }], users: [person(ME, 'me@example.test'), person(OTHER, 'o@example.test')] };
// Filed as another (a forged submitter_id); what comes next depends on whether the ticket exists.
const forged: DataStep = { caller: me, request: { kind: 'insert', table: 'vs_tickets', rows: [{ id: 'VS-1001', submitter_id: OTHER, submitter_label: 'me', target_dept: 'SE', category: null, report: 'wifi' }], returning: 'minimal' } };
const read = (id: string): DataStep => ({ caller: me, request: { kind: 'select', table: 'vs_tickets', columns: '*', filters: [{ column: 'id', op: 'eq', value: id }] } });
const run = async (execute: StepExecutor) => {
  const after = await execute(forged);
  await execute(rowsOf(after, 'vs_tickets').length ? read('VS-1001') : read('VS-none'));
};
/** Compiled as the lifecycle compiles: on the model alone. */
async function compiled(): Promise<DataCase> {
  const steps: DataStep[] = [];
  let w = world;
  await run(async (step) => (steps.push(step), (w = predict(referenceOracle, w, step.caller, step.request).world)));
  return withModelRun({ world, steps }, run);
}

describe('a model run on a target whose insert trigger fills the owner from auth.uid() (callerFilled)', () => {
  const plan: FixturePlan = { users: 'direct', bypassTriggers: false, mapping: { tables: { vs_tickets: { callerFilled: ['submitter_id'] } } } };

  it('is compiled again with the column filled, and its run sends exactly the new steps', async () => {
    const before = await compiled();
    // On the model alone the forged filing is refused: the run goes on without the ticket.
    expect(before.steps[1]).toEqual(read('VS-none'));
    const after = await withCallerFilledRun(plan, referenceOracle, before);
    expect(after.steps.map((s) => s.request)).toEqual([{ ...forged.request, rows: [{ ...(forged.request as { rows: object[] }).rows[0], submitter_id: ME }] }, read('VS-1001').request]);
    const sent: DataStep[] = [];
    let w = world;
    await modelRunOf(after)!(async (step) => (sent.push(step), (w = predict(referenceOracle, w, step.caller, step.request).world)));
    expect(sent).toEqual(after.steps);
    // Without callerFilled: the case as it is.
    expect(await withCallerFilledRun({ users: 'direct', bypassTriggers: false }, referenceOracle, before)).toBe(before);
  });
});
