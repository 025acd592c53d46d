/**
 * Column-level SELECT grants (`grant select (id, …) on vs_tickets to authenticated`, rule 12's
 * allow-list, stranger-app-12): PostgREST's `select=*` is refused (42501) where a column is not
 * granted, so a role the model grants some columns only reads those (engine/model/granted-columns.ts),
 * R16 keeps the whole-row read as its probe, and a column the model names that the target does not
 * grant still fails.
 */
import { describe, expect, it } from 'vitest';
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
  });
});
