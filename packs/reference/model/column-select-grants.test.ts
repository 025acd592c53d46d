/**
 * Column-level SELECT grants (`grant select (id, …) on vs_tickets to authenticated`, rule 12's
 * allow-list, stranger-app-12): PostgREST's `select=*` is refused (42501) where a column is not
 * granted, so a role the model grants some columns only reads those (engine/model/granted-columns.ts),
 * R16 keeps the whole-row read as its probe, and a column the model names that the target does not
 * grant still fails. An embedded `table(*)` of such a table is narrowed alike (PostgREST expands it
 * to `"t_1".*`, refused 42501 as a whole-row read is).
 */
import { describe, expect, it } from 'vitest';
import type { DataProperty } from '../../../engine/runner/data-property.ts';
import type { ApiRequest } from '../../../engine/model/request.ts';
import { R10 } from '../rules/R10-projects/property.ts';
import { sidedClause } from '../rules/clauses.ts';
import { referenceCopies } from '../../../testing/reference-copies.ts';
import { R06 } from '../rules/R06-vs-scope-move/property.ts';
import { R16 } from '../rules/R16-table-grants/property.ts';
import { R07 } from '../rules/R07-soft-delete/property.ts';
import { vsTicketsTable } from './tables/vs-tickets.ts';

const { copyWith, run } = referenceCopies();

const staffInternal = ['duplicate_of', 'tags', 'remarks'];
const readable = vsTicketsTable.columns.map((c) => c.name).filter((c) => !staffInternal.includes(c));
const grantFind = 'grant select, insert, update on table public.vs_tickets to authenticated;\n';
const grantOf = (columns: string[]) => `grant insert, update on table public.vs_tickets to authenticated;\ngrant select (${columns.join(', ')}) on table public.vs_tickets to authenticated;\n`;
const setting = (columns: string[]) => ({ tableGrants: { vs_tickets: { authenticated: ['insert', 'update'], columnSelect: { authenticated: columns } } } });

describe('column-level SELECT grants (tableGrants.<t>.columnSelect)', () => {
  it('handlers read the granted columns: R06 passes with the setting, and fails without it naming the setting', async () => {
    const env = await copyWith('vs-tickets-column-select', [{ file: '0200_vs.sql', find: grantFind, replace: grantOf(readable) }]);
    const withSetting = await run(env, R06, setting(readable));
    expect(withSetting.failure?.message ?? withSetting.note).toBeUndefined();
    expect(withSetting.status).toBe('passed');
    const without = await run(env, R06, {});
    expect(without.status).toBe('failed');
    expect(without.failure?.message).toMatch(/42501 \(grant\).*setting tableGrants\.vs_tickets; a role granted SELECT on some columns only: tableGrants\.vs_tickets\.columnSelect/);
    // A model run (R07's lifecycle, fc.commands) sends its reads narrowed as its compiled steps are.
    const lifecycle = await run(env, R07, setting(readable));
    expect(lifecycle.failure?.message ?? lifecycle.note).toBeUndefined();
    expect(lifecycle.status).toBe('passed');
    // R16's whole-row probe (`select=*`): refused as the setting says, a finding without it.
    expect((await run(env, R16, setting(readable))).status).toBe('passed');
    expect((await run(env, R16, {})).status).toBe('failed');
  });

  it('a column the setting names that the target does not grant is still a finding (the read names it)', async () => {
    const env = await copyWith('vs-tickets-column-select-no-status', [{ file: '0200_vs.sql', find: grantFind, replace: grantOf(readable.filter((c) => c !== 'status')) }]);
    const result = await run(env, R06, setting(readable));
    expect(result.status).toBe('failed');
    expect(result.failure?.message).toMatch(/42501 \(grant\)[\s\S]*select=[^\n]*status/);
    // The setting is set (the read names its columns): the failure names the table's grants, not columnSelect again.
    expect(result.failure?.message).toMatch(/\(table grants: setting tableGrants\.vs_tickets\)/);
    expect(result.failure?.message).not.toMatch(/some columns only/);
  });

  it("an embedded table(*) of a table the role reads some columns of only reads those: the embedded table's row rules are checked, not refused by the grant", async () => {
    // Sign requests granted column by column to authenticated (all but status); a projects read embedding them whole.
    const revoked = 'grant select, insert on table public.project_sign_requests to authenticated;\n';
    const granted = 'grant insert on table public.project_sign_requests to authenticated;\ngrant select (id, project_id, actor_id, professor_id) on table public.project_sign_requests to authenticated;\n';
    const env = await copyWith('project-sign-requests-column-select', [{ file: '0400_projects.sql', find: revoked, replace: granted }]);
    const embedding: ApiRequest = { kind: 'select', table: 'projects', columns: ['id', 'title'], filters: [], embeds: [{ table: 'project_sign_requests', columns: '*' }] };
    const embedRead: DataProperty = {
      ...R10,
      id: 'R10-embed',
      // R10's worlds (a pending sign request often addresses the caller), each read by a signed-in caller embedding the requests whole.
      cases: (settings, oracle) => R10.cases(settings, oracle).filter((c) => c.steps[0].caller.kind === 'user').map((c) => ({ world: c.world, steps: [{ caller: c.steps[0].caller, request: embedding }] })),
      clauses: [
        sidedClause('embed', 'sign requests embedded whole: shown / refused by the grant', (s) => {
          if (s.outcome.kind === 'rejected') return 'refused';
          const shown = s.outcome.kind === 'allowed' || s.outcome.kind === 'filtered' ? (s.outcome.rows ?? []).some((r) => Array.isArray(r.project_sign_requests) && r.project_sign_requests.length > 0) : false;
          return shown ? 'allowed' : undefined;
        }),
      ],
    };
    const result = await run(env, embedRead, { tableGrants: { project_sign_requests: { authenticated: ['insert'], columnSelect: { authenticated: ['id', 'project_id', 'actor_id', 'professor_id'] } } } });
    expect(result.failure?.message ?? result.note).toBeUndefined();
    expect(result.status).toBe('passed');
    const [embed] = result.clauses ?? [];
    expect(embed.refused).toBe(0);
    expect(embed.allowed).toBeGreaterThan(0);
  });
});
