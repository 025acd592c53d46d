/**
 * The answers a target's shape justifies (mapping.ts CatalogFacts), read from a real catalog: a
 * 23503 for the model's 23514 only on a column that is a foreign key to a lookup table, named in
 * the run's note when a step agreed only by it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableModel } from '../model/table-model.ts';
import type { FunctionModel } from '../model/function-model.ts';
import { allowed, raised, secureReading } from '../model/outcome.ts';
import type { Oracle } from '../pack.ts';
import { checkCase } from '../runner/check-case.ts';
import type { Environment } from '../runner/environment.ts';
import { acceptedNote } from '../runner/run-data-property.ts';
import { sqlEnvironment } from '../../testing/sql-environment.ts';
import { catalogFacts, functionTypesOf } from './catalog-facts.ts';

const SCHEMA = `
create table public.cl_departments (code text primary key);
create table public.cl_tickets (id int primary key, dept text not null references public.cl_departments (code), label text not null default 'a');
create function public.cl_find(p int) returns jsonb language sql stable as $$ select null::jsonb $$;
create function public.cl_label(p int) returns text language sql stable as $$ select null::text $$;
create function public.cl_strict(p int) returns int language plpgsql as $$ begin if p = 1 then raise exception 'NOT_AUTHORIZED'; end if; return p + 100; end $$;
grant execute on function public.cl_strict(int) to authenticated, service_role;
grant select, insert on public.cl_tickets to authenticated;
`;

// The model keeps departments (and labels) as vocabularies, refused by a CHECK (23514).
const tickets: TableModel = {
  table: 'cl_tickets',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'dept', type: 'text', nullable: false, check: (v) => v === 'A' },
    { name: 'label', type: 'text', nullable: false, check: (v) => v === 'a' },
  ],
  primaryKey: ['id'],
  grants: { anon: [], authenticated: ['select', 'insert'] },
  rowSecurity: false,
  rules: {},
};
// The model answers p; a schema refusing instead is accepted as the secure reading `cl.strict-refusal`.
const strict: FunctionModel = {
  name: 'cl_strict',
  args: ['p'],
  executableBy: ['authenticated', 'service_role'],
  predict: (w, _caller, args) => ({ outcome: { ...allowed([{ value: args.p ?? null }], 1), orElse: [secureReading('cl.strict-refusal', raised('P0001', 'NOT_AUTHORIZED'))] }, world: w }),
};
const oracle: Oracle = { model: { tables: { cl_tickets: tickets }, functions: { cl_strict: strict }, fixtureOrder: ['cl_departments', 'cl_tickets'] }, settings: {} };
const world = { cl_departments: [{ code: 'A' }], cl_tickets: [] };
const file = (row: Record<string, string | number>) => ({ world, steps: [{ caller: { kind: 'service' as const }, request: { kind: 'insert' as const, table: 'cl_tickets', rows: [row], returning: 'minimal' as const } }] });

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('catalog-facts', SCHEMA, { users: 'direct', bypassTriggers: false, mapping: {} });
});
afterAll(() => env?.close());

describe('catalog facts of a real target', () => {
  it('reads foreign keys from the table shapes and return types from the schema cache', () => {
    const facts = catalogFacts(env.workers[0].tx.fixturePlan)!;
    expect(facts.referencedTable('cl_tickets', 'dept')).toBe('cl_departments');
    expect(facts.referencedTable('cl_tickets', 'label')).toBeUndefined();
    expect(functionTypesOf(env.cache.functions).get('cl_find')).toBe('jsonb');
    expect(functionTypesOf(env.cache.functions).get('public.cl_label')).toBe('text');
  });

  it('a department outside the model’s vocabulary: the foreign key’s 23503 agrees, and the step says what justified it', async () => {
    const verdict = await checkCase(env.workers[0].tx, file({ id: 1, dept: 'XX', label: 'a' }), oracle);
    expect(verdict.mismatch).toBeUndefined();
    expect(verdict.history[0].observed).toMatchObject({ kind: 'error', code: '23503' });
    expect(verdict.history[0].leniency).toBe('23503 read as 23514: cl_tickets.dept references cl_departments');
    expect(acceptedNote({ [verdict.history[0].leniency!]: 2 })).toMatch(/^accepted by the target's shape: 23503 read as 23514: .* \(2 steps\)$/);
    // Agreeing as the model does: nothing named.
    expect((await checkCase(env.workers[0].tx, file({ id: 1, dept: 'A', label: 'a' }), oracle)).history[0].leniency).toBeUndefined();
  });

  it('a step agreed only by a secure reading carries its name (counted in the note); a failure near one names it', async () => {
    const call = (p: number) => ({ world, steps: [{ caller: { kind: 'service' as const }, request: { kind: 'rpc' as const, fn: 'cl_strict', args: { p } } }] });
    const refused = await checkCase(env.workers[0].tx, call(1), oracle);
    expect(refused.mismatch).toBeUndefined();
    expect(refused.history[0].reading).toBe('cl.strict-refusal');
    // The target answers 102 where the model says 2 (or a refusal): a failure naming the reading it also accepted.
    const wrong = await checkCase(env.workers[0].tx, call(2), oracle);
    expect(wrong.mismatch?.reason).toMatch(/\(also accepted as secure, and not met either: cl\.strict-refusal\)$/);
  });
});
