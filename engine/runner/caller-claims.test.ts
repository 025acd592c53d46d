/**
 * Claims as caller attributes: an aal2-only policy and an app_metadata.role policy, with callers
 * drawn by withClaims, reach both sides (rows shown, rows hidden), the model agreeing each time;
 * with every caller at aal1 and a bare app_metadata (the claims before) only the deny side is met.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appMetadataOf, callerAal, type Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { TableModel } from '../model/table-model.ts';
import { predictTableRequest } from '../model/engine.ts';
import { outcomeClass } from '../model/outcome.ts';
import { compareOutcomes } from '../checker/compare.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Environment } from './environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { withClaims } from './caller-claims.ts';

const SCHEMA = `
create table public.vault (id int primary key);
alter table public.vault enable row level security;
grant select on public.vault to authenticated;
create policy vault_mfa on public.vault for select to authenticated using ((auth.jwt() ->> 'aal') = 'aal2');
create table public.admin_notes (id int primary key);
alter table public.admin_notes enable row level security;
grant select on public.admin_notes to authenticated;
create policy admin_only on public.admin_notes for select to authenticated using ((auth.jwt() -> 'app_metadata' ->> 'role') = 'admin');
-- Also trusting the role a user may give themselves (Supabase lint 0015): the model does not.
create table public.staff_notes (id int primary key);
alter table public.staff_notes enable row level security;
grant select on public.staff_notes to authenticated;
create policy staff_or_self_made on public.staff_notes for select to authenticated
  using ((auth.jwt() -> 'app_metadata' ->> 'role') = 'admin' or (auth.jwt() -> 'user_metadata' ->> 'role') = 'admin');
`;

const table = (name: string, select: (caller: Caller) => boolean): TableModel => ({
  table: name,
  columns: [{ name: 'id', type: 'integer', nullable: false }],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select'] },
  rowSecurity: true,
  rules: { select: (_row, ctx) => select(ctx.caller) },
});
const models = {
  vault: table('vault', (c) => callerAal(c) === 'aal2'),
  admin_notes: table('admin_notes', (c) => appMetadataOf(c, 'role') === 'admin'),
  staff_notes: table('staff_notes', (c) => appMetadataOf(c, 'role') === 'admin'),
};
const world = { vault: [{ id: 1 }], admin_notes: [{ id: 1 }], staff_notes: [{ id: 1 }] };
const FIXTURES = [{ table: 'vault', row: {}, sql: 'insert into public.vault values (1); insert into public.admin_notes values (1); insert into public.staff_notes values (1)' }];

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('claims', SCHEMA);
});
afterAll(() => env?.close());

/** Each drawn caller reads both tables; the classes of outcome met per table, each agreed with the model. */
async function sidesReached(callers: Caller[]): Promise<Record<string, Set<string>>> {
  const reached: Record<string, Set<string>> = { vault: new Set(), admin_notes: new Set() };
  for (const caller of callers) {
    const requests = (['vault', 'admin_notes'] as const).map((t): Extract<ApiRequest, { kind: 'select' }> => ({ kind: 'select', table: t, columns: '*', filters: [] }));
    const responses = await runCase(env, FIXTURES, requests.map((request) => ({ caller, request })));
    for (const [k, request] of requests.entries()) {
      const response = responses[k];
      const predicted = predictTableRequest(models[request.table as keyof typeof models], world, caller, request, undefined).outcome;
      expect(compareOutcomes(predicted, observedOutcome(request, response)), `${JSON.stringify(caller)} ${request.table}`).toBeUndefined();
      reached[request.table].add(outcomeClass(predicted));
    }
  }
  return reached;
}

const user: Caller = { kind: 'user', id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', email: 'a@x' };

describe('claims as caller attributes', () => {
  it('callers drawn with aal and app_metadata.role reach both sides of an aal2-only and an admin-only policy, as the model predicts', async () => {
    const callers = fc.sample(withClaims(user, { aal: true, appMetadataRoles: ['admin', 'member'] }), { seed: 1, numRuns: 12 });
    const reached = await sidesReached(callers);
    expect(reached.vault).toEqual(new Set(['allowed', 'filtered']));
    expect(reached.admin_notes).toEqual(new Set(['allowed', 'filtered']));
  });

  it('without them (aal1, bare app_metadata) only the deny side is met', async () => {
    const reached = await sidesReached(fc.sample(withClaims(user, {}), { seed: 1, numRuns: 3 }));
    expect(reached.vault).toEqual(new Set(['filtered']));
    expect(reached.admin_notes).toEqual(new Set(['filtered']));
  });

  it("with userMetadata, some callers give themselves user_metadata.role: a policy trusting it disagrees with the model, one on app_metadata does not; without it, never met", async () => {
    const request: Extract<ApiRequest, { kind: 'select' }> = { kind: 'select', table: 'staff_notes', columns: '*', filters: [] };
    const disagreements = async (callers: Caller[]) => {
      const found: Caller[] = [];
      for (const caller of callers) {
        const [staff, admin] = await runCase(env, FIXTURES, [{ caller, request }, { caller, request: { ...request, table: 'admin_notes' } }]);
        expect(compareOutcomes(predictTableRequest(models.admin_notes, world, caller, { ...request, table: 'admin_notes' }, {}).outcome, observedOutcome(request, admin))).toBeUndefined();
        if (compareOutcomes(predictTableRequest(models.staff_notes, world, caller, request, {}).outcome, observedOutcome(request, staff))) found.push(caller);
      }
      return found;
    };
    const drawn = fc.sample(withClaims(user, { appMetadataRoles: ['admin', 'member'], userMetadata: true }), { seed: 1, numRuns: 16 });
    const leaked = await disagreements(drawn);
    expect(leaked.length).toBeGreaterThan(0);
    for (const c of leaked) expect(c.kind === 'user' && c.userMetadata?.role === 'admin' && appMetadataOf(c, 'role') !== 'admin', JSON.stringify(c)).toBe(true);
    expect(await disagreements(fc.sample(withClaims(user, { appMetadataRoles: ['admin', 'member'] }), { seed: 1, numRuns: 16 }))).toEqual([]);
  });
});
