/**
 * callerFilled (mapping `tables.<t>.callerFilled`): the request goes out as drawn and only the
 * model's copy names the caller, so a target whose trigger fills the owner only when it is null
 * (and keeps a forged one) disagrees, where one that always overwrites agrees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceOracle } from '../../packs/reference/model/index.ts';
import { callerFilledRequest, predict } from '../model/predict.ts';
import type { ApiRequest } from '../model/request.ts';
import type { TableModel } from '../model/table-model.ts';
import { rowsOf, type World } from '../model/world.ts';
import type { Oracle } from '../pack.ts';
import { sendableCase, type FixturePlan } from '../target/fixtures.ts';
import { withCallerFilled } from '../target/caller-filled.ts';
import { sqlEnvironment } from '../../testing/sql-environment.ts';
import { checkCase } from './check-case.ts';
import type { Environment } from './environment.ts';
import { withCallerFilledRun } from './caller-filled-run.ts';
import { modelRunOf, withModelRun, type DataCase, type DataStep, type StepExecutor } from './data-case.ts';

const ME = '1f000000-0000-4000-8000-000000000001';
const OTHER = '1f000000-0000-4000-8000-000000000002';
const me = { kind: 'user' as const, id: ME, email: 'me@example.test' };
const filledTickets: Oracle = { ...referenceOracle, callerFilled: { vs_tickets: ['submitter_id'] } };

describe('callerFilledRequest: the model’s copy of a signed-in caller’s INSERT', () => {
  const insert: ApiRequest = { kind: 'insert', table: 'vs_tickets', rows: [{ id: 'VS-1', submitter_id: 'someone-else' }], returning: 'minimal' };
  it('names the caller in the filled column; anon, the server, other tables and an oracle without it as they are', () => {
    expect(callerFilledRequest(filledTickets, me, insert)).toMatchObject({ rows: [{ id: 'VS-1', submitter_id: ME }] });
    expect(callerFilledRequest(filledTickets, { kind: 'anon' }, insert)).toBe(insert);
    expect(callerFilledRequest(filledTickets, { kind: 'service' }, insert)).toBe(insert);
    const other: ApiRequest = { ...insert, table: 'pr_tickets' };
    expect(callerFilledRequest(filledTickets, me, other)).toBe(other);
    expect(callerFilledRequest(referenceOracle, me, insert)).toBe(insert);
  });
  it('is not what goes out: sendableCase leaves the drawn owner in the request', () => {
    const plan: FixturePlan = { users: 'direct', bypassTriggers: false, mapping: { tables: { vs_tickets: { callerFilled: ['submitter_id'] } } } };
    const drawn = { world: {}, steps: [{ caller: me, request: insert }] };
    expect(sendableCase(plan, drawn).testCase?.steps[0].request).toEqual(insert);
  });
});

const person = (id: string, email: string) => ({ id, email, display_name: 'P', avatar_url: null, phone: null, role: 'user', department: 'SE', permissions: [], managed_permissions: [] });
const world: World = { 'auth.users': [{ id: ME, email: 'me@example.test' }, { id: OTHER, email: 'o@example.test' }], users: [person(ME, 'me@example.test'), person(OTHER, 'o@example.test')] };
// Filed as another (a forged submitter_id); what comes next depends on whether the ticket exists.
const forged: DataStep = { caller: me, request: { kind: 'insert', table: 'vs_tickets', rows: [{ id: 'VS-1001', submitter_id: OTHER, submitter_label: 'me', target_dept: 'SE', category: null, report: 'wifi' }], returning: 'minimal' } };
const read = (id: string): DataStep => ({ caller: me, request: { kind: 'select', table: 'vs_tickets', columns: '*', filters: [{ column: 'id', op: 'eq', value: id }] } });
const run = async (execute: StepExecutor) => {
  const after = await execute(forged);
  await execute(rowsOf(after, 'vs_tickets').length ? read('VS-1001') : read('VS-none'));
};
/** Compiled as the lifecycle compiles: on the pack's model alone. */
async function compiled(): Promise<DataCase> {
  const steps: DataStep[] = [];
  let w = world;
  await run(async (step) => (steps.push(step), (w = predict(referenceOracle, w, step.caller, step.request).world)));
  return withModelRun({ world, steps }, run);
}

describe('a model run on a target whose insert trigger fills the owner from auth.uid() (callerFilled)', () => {
  it('is compiled again on the filled predictions, its steps as drawn, and its run sends exactly them', async () => {
    const before = await compiled();
    // On the model alone the forged filing is refused: the run goes on without the ticket.
    expect(before.steps[1]).toEqual(read('VS-none'));
    const after = await withCallerFilledRun(filledTickets, before);
    // Stored as the caller's: the run reads it; the filing goes out with the forged owner.
    expect(after.steps).toEqual([forged, read('VS-1001')]);
    const sent: DataStep[] = [];
    let w = world;
    await modelRunOf(after)!(async (step) => (sent.push(step), (w = predict(filledTickets, w, step.caller, step.request).world)));
    expect(sent).toEqual(after.steps);
    // Without callerFilled: the case as it is.
    expect(await withCallerFilledRun(referenceOracle, before)).toBe(before);
  });
});

/** Three targets filing a note; the policy trusts the trigger on the first two. */
const SCHEMA = `
create function public.cf_owner_always() returns trigger language plpgsql as $$ begin new.owner_id := auth.uid(); return new; end $$;
create function public.cf_owner_if_null() returns trigger language plpgsql as $$ begin new.owner_id := coalesce(new.owner_id, auth.uid()); return new; end $$;
create table public.cf_overwrite (id int primary key, owner_id uuid not null, body text);
create table public.cf_keep (id int primary key, owner_id uuid not null, body text);
create table public.cf_checked (id int primary key, owner_id uuid not null, body text);
create trigger cf_overwrite_owner before insert on public.cf_overwrite for each row execute function public.cf_owner_always();
create trigger cf_keep_owner before insert on public.cf_keep for each row execute function public.cf_owner_if_null();
create trigger cf_checked_owner before insert on public.cf_checked for each row execute function public.cf_owner_if_null();
alter table public.cf_overwrite enable row level security;
alter table public.cf_keep enable row level security;
alter table public.cf_checked enable row level security;
create policy cf_overwrite_rw on public.cf_overwrite for all to authenticated using (true) with check (true);
create policy cf_keep_rw on public.cf_keep for all to authenticated using (true) with check (true);
create policy cf_checked_read on public.cf_checked for select to authenticated using (true);
create policy cf_checked_own on public.cf_checked for insert to authenticated with check (owner_id = auth.uid());
grant select, insert on public.cf_overwrite, public.cf_keep, public.cf_checked to authenticated;
`;

const note = (table: string): TableModel => ({
  table,
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'owner_id', type: 'uuid', nullable: false },
    { name: 'body', type: 'text', nullable: true },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert'] },
  rowSecurity: true,
  // The rule: a note is filed as its caller's.
  rules: { select: () => true, insertCheck: (row, ctx) => ctx.caller.kind === 'user' && row.owner_id === ctx.caller.id },
});
const TABLES = ['cf_overwrite', 'cf_keep', 'cf_checked'];
const notes: Oracle = { model: { tables: Object.fromEntries(TABLES.map((t) => [t, note(t)])), functions: {}, fixtureOrder: [] }, settings: {} };

describe('on a real target: the owner as sent (BEFORE INSERT triggers of both forms)', () => {
  let env: Environment;
  beforeAll(async () => {
    env = await sqlEnvironment('caller-filled', SCHEMA);
  });
  afterAll(() => env?.close());

  /** A caller files a note as another, as the run sends it (sendableCase, the session's oracle), and reads it back. */
  const fileAsAnother = async (table: string) => {
    const tx = env.workers[0].tx;
    const plan: FixturePlan = { ...tx.fixturePlan, mapping: { tables: Object.fromEntries(TABLES.map((t) => [t, { callerFilled: ['owner_id'] }])) } };
    const filing: ApiRequest = { kind: 'insert', table, rows: [{ id: 1, owner_id: OTHER, body: 'x' }], returning: 'representation' };
    const { testCase } = sendableCase(plan, { world: {}, steps: [{ caller: me, request: filing }] });
    return checkCase(tx, testCase!, withCallerFilled(notes, plan));
  };

  it('a trigger that always sets the owner: stored as the caller’s, as the model predicts', async () => {
    const verdict = await fileAsAnother('cf_overwrite');
    expect(verdict.mismatch).toBeUndefined();
    expect(verdict.history[0].observed).toMatchObject({ kind: 'allowed', rows: [{ owner_id: ME }] });
  });

  it('a trigger that fills only a null, behind a policy that trusts it: the forged owner is kept, a finding', async () => {
    const verdict = await fileAsAnother('cf_keep');
    expect(verdict.mismatch?.actual).toMatchObject({ kind: 'allowed', rows: [{ owner_id: OTHER }] });
    expect(verdict.mismatch?.expected).toMatchObject({ kind: 'allowed', rows: [{ owner_id: ME }] });
  });

  it('a trigger that fills only a null, behind a policy that checks the owner: refusing the forged row is as secure', async () => {
    const verdict = await fileAsAnother('cf_checked');
    expect(verdict.history[0].observed).toMatchObject({ kind: 'rejected', code: '42501' });
    expect(verdict.mismatch).toBeUndefined();
  });
});
