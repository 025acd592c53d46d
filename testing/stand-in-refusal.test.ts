/**
 * A stood-in extension's function refusing inside a request (after Grida: its projects' BEFORE
 * INSERT trigger calls pg_hashids' `id_encode`; re-created here as an order's AFTER INSERT trigger
 * posting a webhook through the `http` extension, whose stand-in raises 0A000, "cannot run
 * here"). What the real extension would answer is unknown on this server, so no rule spoke: the
 * case is dropped, named, as a fixture row the stand-in refuses already was. Before, every write
 * the model allowed was a finding, `refused-not-allowed(0A000)`. The write the policy refuses (an
 * order for someone else) is still judged, as the trigger never runs. Through the binary.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runBin } from './run-bin.ts';
import { tempDir } from './temp-dir.ts';

const MIGRATION = `
create extension if not exists http with schema extensions;
create table public.orders (id int primary key, owner uuid not null, note text);
alter table public.orders enable row level security;
create policy orders_insert_own on public.orders for insert to authenticated with check (owner = auth.uid());
create policy orders_read_own on public.orders for select to authenticated using (owner = auth.uid());
revoke all on public.orders from anon, authenticated;
grant select, insert on public.orders to authenticated;
create function public.notify_order() returns trigger language plpgsql security definer set search_path = '' as $$
begin
  if new.note is not null then perform extensions.http_post('https://hooks.example.test/orders', new.note, 'text/plain'); end if;
  return new;
end $$;
create trigger notify_order after insert on public.orders for each row execute function public.notify_order();
`;

const PACK = `
import { definePack, defineProperty, defineTable, fc, z, type Caller, type DataCase } from 'policyfuzz';
const orders = defineTable({
  table: 'orders', primaryKey: ['id'], rowSecurity: true,
  columns: [{ name: 'id', type: 'integer', nullable: false }, { name: 'owner', type: 'uuid', nullable: false }, { name: 'note', type: 'text', nullable: true }],
  grants: { anon: [], authenticated: ['select', 'insert'] },
  rules: { select: (r, ctx) => r.owner === ctx.uid, insertCheck: (r, ctx) => ctx.uid !== null && r.owner === ctx.uid },
});
const O01 = defineProperty({
  id: 'O01', rule: 1, title: 'orders: placed for yourself only', tables: ['orders'],
  cases: () => fc.record({ me: fc.uuid({ version: 4 }), other: fc.uuid({ version: 4 }), mine: fc.boolean(), note: fc.option(fc.constantFrom('gift', 'rush'), { nil: null }) })
    .filter(({ me, other }) => me !== other)
    .map(({ me, other, mine, note }): DataCase => ({
      world: { 'auth.users': [{ id: me, email: 'me@o.test' }, { id: other, email: 'other@o.test' }], orders: [] },
      steps: [{ caller: { kind: 'user', id: me } as Caller, request: { kind: 'insert', table: 'orders', rows: [{ id: 1, owner: mine ? me : other, note }], returning: 'minimal' } }],
    })),
});
export default definePack({ name: 'orders', model: { tables: { orders }, functions: {}, fixtureOrder: ['auth.users', 'orders'] }, settingsSchema: z.object({}).strict(), properties: [O01] });
`;

describe("a stood-in extension's function refusing inside a request", () => {
  it('drops the case, named (the real extension’s answer is unknown here); the writes the policy refuses are judged', async () => {
    const dir = tempDir('stand-in-refusal');
    mkdirSync(path.join(dir, 'migrations'));
    writeFileSync(path.join(dir, 'migrations', '20250101000000_orders.sql'), MIGRATION);
    writeFileSync(path.join(dir, 'policyfuzz.pack.ts'), PACK);
    const run = await runBin(['fuzz', '--pack', path.join(dir, 'policyfuzz.pack.ts'), '--migrations', path.join(dir, 'migrations'), '--only', 'O01', '--runs', '30', '--database-url', inject('databaseUrl'), '--seed', '1', '--no-replay', '--no-color', '--report', 'json', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f')], { cwd: dir });
    const summary = JSON.parse(readFileSync(path.join(dir, 'r', 'summary.json'), 'utf8')) as { properties: { id: string; status: string; cases: number; dropped?: Record<string, number> }[] };
    const o01 = summary.properties.find((p) => p.id === 'O01');
    expect(o01?.status, run.stdout + run.stderr).toBe('passed');
    expect(o01?.dropped?.['http_post cannot run on this server: http is stood in for (its answer is unknown here; a server that has http: --database-url <url>)']).toBeGreaterThan(0);
    expect(o01?.cases).toBeGreaterThan(10);
    expect(run.code).toBe(0);
  });
});
