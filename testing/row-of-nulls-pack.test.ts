/**
 * A pack on its own migrations (no mapping) with a lookup returning one composite, not a set
 * (`returns public.label_card`): finding nothing, PostgREST v12.2 shows its NULL as an object whose
 * every field is null, where the pack's model answers no row. That reading (mapping.ts
 * rowOfNullsAsNoRow) was applied on mapped targets only, so such a pack failed on its own correct
 * function; it is read where every answer is compared now, named in the run's note. A row with a
 * value still differs: a lookup that finds what the model says it must not is a finding. Through
 * the binary, on the shared server.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runBin } from './run-bin.ts';
import { tempDir } from './temp-dir.ts';

const MIGRATION = `
create table public.labels (code int primary key, caption text not null, hidden boolean not null default false);
alter table public.labels enable row level security;
create policy labels_read on public.labels for select to authenticated using (not hidden);
grant select on public.labels to authenticated;
create type public.label_card as (code int, caption text);
create function public.label_by_code(p_code int) returns public.label_card language sql stable security invoker set search_path = ''
  as $$ select l.code, l.caption from public.labels l where l.code = p_code $$;
revoke execute on function public.label_by_code(int) from public, anon;
grant execute on function public.label_by_code(int) to authenticated, service_role;
`;

/** The lookup skips hidden labels (the policy does, the function running as the invoker). */
const PACK = `
import { allowed, definePack, defineFunction, defineProperty, defineTable, fc, z, type Caller, type DataCase } from 'policyfuzz';
const labels = defineTable({
  table: 'labels', primaryKey: ['code'], rowSecurity: true,
  columns: [{ name: 'code', type: 'integer', nullable: false }, { name: 'caption', type: 'text', nullable: false }, { name: 'hidden', type: 'boolean', nullable: false, default: false }],
  grants: { anon: [], authenticated: ['select'] },
  rules: { select: (r) => r.hidden !== true },
});
const labelByCode = defineFunction({
  name: 'label_by_code', args: ['p_code'], executableBy: ['authenticated', 'service_role'],
  predict: (world, caller, args) => {
    const found = (world.labels ?? []).filter((l) => l.code === args.p_code && (caller.kind === 'service' || l.hidden !== true));
    return { outcome: allowed(found.map((l) => ({ code: l.code, caption: l.caption })), found.length), world };
  },
});
const L01 = defineProperty({
  id: 'L01', rule: 1, title: 'label_by_code: a visible label, or none', tables: ['labels'],
  cases: () => fc.record({ id: fc.uuid({ version: 4 }), hidden: fc.boolean(), code: fc.integer({ min: 1, max: 3 }) }).map(({ id, hidden, code }): DataCase => ({
    world: { 'auth.users': [{ id, email: 'a@l.test' }], labels: [{ code: 1, caption: 'jam', hidden }] },
    steps: [{ caller: { kind: 'user', id } as Caller, request: { kind: 'rpc', fn: 'label_by_code', args: { p_code: code } } }],
  })),
});
export default definePack({ name: 'labels', model: { tables: { labels }, functions: { label_by_code: labelByCode }, fixtureOrder: ['auth.users', 'labels'] }, settingsSchema: z.object({}).strict(), properties: [L01] });
`;

function project(extra?: string): string {
  const dir = tempDir('row-of-nulls-pack');
  mkdirSync(path.join(dir, 'migrations'));
  writeFileSync(path.join(dir, 'migrations', '20250101000000_labels.sql'), MIGRATION);
  if (extra) writeFileSync(path.join(dir, 'migrations', '20250201000000_later.sql'), extra);
  writeFileSync(path.join(dir, 'policyfuzz.pack.ts'), PACK);
  return dir;
}

async function fuzz(dir: string) {
  const run = await runBin(['fuzz', '--pack', path.join(dir, 'policyfuzz.pack.ts'), '--migrations', path.join(dir, 'migrations'), '--only', 'L01', '--runs', '40', '--database-url', inject('databaseUrl'), '--seed', '1', '--no-replay', '--no-color', '--report', 'json', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')], { cwd: dir });
  const summary = JSON.parse(readFileSync(path.join(dir, 'r', 'summary.json'), 'utf8')) as { properties: { id: string; status: string; cases: number; note?: string; accepted?: Record<string, number> }[] };
  return { ...run, property: summary.properties.find((p) => p.id === 'L01') };
}

describe("a one-composite function's NULL on a pack's own migrations", () => {
  it('agrees with the model\'s no row (an object of nulls, counted and named in the note): no false alarm', async () => {
    const run = await fuzz(project());
    expect(run.property, run.stdout + run.stderr).toMatchObject({ status: 'passed', cases: 40 });
    const reading = 'a row of nulls read as no row: public.label_by_code returns one label_card, not a set (PostgREST shows its NULL so)';
    expect(run.property?.accepted?.[reading]).toBeGreaterThan(0);
    expect(run.property?.note).toContain(reading);
    expect(run.code).toBe(0);
  });

  it('a lookup that shows a hidden label is still a finding', async () => {
    const run = await fuzz(project('drop policy labels_read on public.labels;\ncreate policy labels_read on public.labels for select to authenticated using (true);\n'));
    expect(run.property?.status).toBe('failed');
    expect(run.stdout).toMatch(/L01 FAILED: step 1: /);
    expect(run.code).toBe(1);
  });
});
