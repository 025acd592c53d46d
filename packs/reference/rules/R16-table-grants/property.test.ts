import { describe, expect, it } from 'vitest';
import { compareTables } from '../../../../engine/checker/catalog.ts';
import { describeBothHalvesHold } from '../../../../testing/property-holds.ts';
import { schemaInTransaction } from '../../../../testing/schema-in-transaction.ts';
import { referenceModel } from '../../model/index.ts';
import { tableModels } from '../../model/tables/index.ts';
import { defaultSettings } from '../../model/settings.ts';
import { R16, R16_CATALOG, tablesByTargetName } from './property.ts';

describeBothHalvesHold(R16, R16_CATALOG, {
  data: 'holds, and its requests reach both the granted and the refused side',
  catalog: 'every table and view holds exactly the model’s grants',
});

describe('compareTables', () => {
  it('a table unknown to the model, and a table without row security the model has rules for, are findings', () => {
    const none = { anon: [], authenticated: [] };
    const r = compareTables(
      [
        { name: 'later_table', kind: 'table', rowSecurity: true, securityInvoker: false, privileges: { anon: ['select'], authenticated: ['select'] } },
        { name: 'identity_conflicts', kind: 'table', rowSecurity: false, securityInvoker: false, privileges: { ...none, authenticated: ['select'] } },
      ],
      tableModels,
      defaultSettings,
    );
    expect(r.findings).toHaveLength(2);
  });
  it('a view unknown to the model that runs as its owner points at the lint that says what it exposes', () => {
    const r = compareTables([{ name: 'ticket_overview', kind: 'view', rowSecurity: false, securityInvoker: false, privileges: { anon: [], authenticated: ['select'] } }], tableModels, defaultSettings);
    expect(r.findings).toEqual(['ticket_overview: view not in the model (authenticated: select); no security_invoker: LINT01 (security_definer_view) names the rows it shows them']);
  });
  it('a partition of a modelled table is no table of its own: a finding only where an API role reaches it without row security', () => {
    const partition = (name: string, rowSecurity: boolean, anon: ('select' | 'insert')[]) => ({ name, kind: 'table' as const, rowSecurity, securityInvoker: false, partitionOf: 'shop_orders', privileges: { anon, authenticated: [] } });
    const r = compareTables([partition('shop_orders_2025', true, []), partition('shop_orders_2026', true, ['select']), partition('shop_orders_default', false, ['select', 'insert'])], tableModels, defaultSettings);
    expect(r.findings).toEqual(["shop_orders_default: partition of shop_orders with row security off (anon: select/insert): read by its own name, none of shop_orders's row rules apply"]);
  });
  it('a view the model reads with row rules must run with the invoker’s rights', () => {
    const r = compareTables([{ name: 'passport.user_tiers', kind: 'view', rowSecurity: false, securityInvoker: false, privileges: { anon: [], authenticated: ['select'] } }], tableModels, defaultSettings);
    expect(r.findings).toHaveLength(1);
  });
  it('under a mapping a model table is found by the target’s name (stranger-app-4: users is profiles), not reported as a table not in the model', () => {
    const profiles = { name: 'profiles', kind: 'table' as const, rowSecurity: true, securityInvoker: false, privileges: { anon: [], authenticated: ['select' as const, 'update' as const] } };
    const mapped = compareTables([profiles], tablesByTargetName(tableModels, { tables: { users: { name: 'profiles' } } }), defaultSettings);
    expect(mapped.findings.filter((f) => /not in the model/.test(f))).toEqual([]);
    expect(compareTables([profiles], tablesByTargetName(tableModels, undefined), defaultSettings).findings).toContainEqual(expect.stringMatching(/^profiles: table not in the model/));
  });
});

describe('R16 (catalog) reads the schemas the run exposes', () => {
  // stranger-app-9: `[api] schemas = ["api", "passport"]`, an api schema of views over app.*; the
  // catalog half read public and passport only, so it never saw the views callers reach.
  const client = schemaInTransaction(`
    do $$ begin create role anon nologin; exception when duplicate_object then null; end $$;
    do $$ begin create role authenticated nologin; exception when duplicate_object then null; end $$;
    create schema r16_app;
    create schema r16_api;
    grant usage on schema r16_api, r16_app to anon, authenticated;
    create table r16_app.notes (id int primary key, body text);
    alter table r16_app.notes enable row level security;
    create view r16_api.notes with (security_invoker = true) as select id, body from r16_app.notes;
    grant select, insert, update, delete on r16_api.notes to anon, authenticated;
    create table r16_app.vs_categories (id uuid primary key, name text);
    alter table r16_app.vs_categories enable row level security;
    create table r16_app.users (id uuid primary key, display_name text);
    grant select, insert, update, delete on r16_app.vs_categories, r16_app.users to authenticated;
    create view r16_api.vs_categories with (security_invoker = true) as select id, name from r16_app.vs_categories;
    create view r16_api.users with (security_invoker = true) as select id, display_name from r16_app.users;
    grant select, insert, update, delete on r16_api.vs_categories, r16_api.users to authenticated;
    create schema if not exists storage;
    create table storage.r16_buckets (id text primary key);
    grant select on storage.r16_buckets to anon, authenticated;
  `);
  it("an exposed Supabase schema (config.toml's `storage`): its tables the project did not write are not compared", async () => {
    const r = await R16_CATALOG.check(client(), defaultSettings, { exposedSchemas: ['r16_api', 'storage'], extraSearchPath: [], model: referenceModel });
    expect(r.findings.filter((f) => f.startsWith('storage.'))).toEqual([]);
    expect(r.findings).toContainEqual(expect.stringMatching(/^r16_api\.notes: view not in the model/));
  });
  it("a view of an exposed `api` schema the model does not know is a finding; a schema the API does not expose is not read", async () => {
    const context = { exposedSchemas: ['r16_api'], extraSearchPath: [], model: referenceModel };
    const r = await R16_CATALOG.check(client(), defaultSettings, context);
    // r16_app.notes grants the API roles nothing: through the invoker view they hold nothing either.
    expect(r.findings).toContainEqual('r16_api.notes: view not in the model (no grants to the API roles)');
    expect(r.objects).toBe(3);
  });
  it('a privilege beyond the model’s that row security decides under an invoker view is the secure reading granted-under-row-security; over a table with it off, a finding', async () => {
    const mapping = { tables: { vs_categories: { name: 'r16_api.vs_categories' }, users: { name: 'r16_api.users' } } };
    const r = await R16_CATALOG.check(client(), defaultSettings, { exposedSchemas: ['r16_api'], extraSearchPath: [], model: referenceModel, mapping });
    const held = (table: string) => r.findings.filter((f) => f.startsWith(`${table}: authenticated holds`));
    expect(held('r16_api.vs_categories')).toEqual([]);
    expect(r.readings?.['granted-under-row-security']).toContainEqual('r16_api.vs_categories: authenticated holds DELETE');
    expect(held('r16_api.users')).toContainEqual(expect.stringMatching(/^r16_api\.users: authenticated holds DELETE/));
  });
});
