/**
 * Issue 11, point 10: where the spec leaves a choice, the reference's is a named setting. A copy
 * of the reference migrations that made another allowed choice passes once the setting says so,
 * and fails without it, with a failure that names the setting.
 */
import { describe, expect, it } from 'vitest';
import { defaultSettings, ModelSettingsSchema, roleListMisfits } from './settings.ts';
import { runCatalogProperty } from '../../../engine/runner/catalog-property.ts';
import { referenceCopies } from '../../../testing/reference-copies.ts';
import { referenceModel } from './index.ts';
import { R12 } from '../rules/R12-vs-submitter-view/property.ts';
import { R13 } from '../rules/R13-vs-public-board/property.ts';
import { R16, R16_CATALOG } from '../rules/R16-table-grants/property.ts';

const { copyWith, run } = referenceCopies();

describe('table grants per role (tableGrants)', () => {
  const find = 'grant select on table public.vs_categories to anon, authenticated;\n';
  const replace = 'grant select on table public.vs_categories to authenticated;\n';
  const chosen = { tableGrants: { vs_categories: { anon: [] } } };

  it('a project that does not grant anon SELECT on vs_categories passes with the setting, fails without it naming it', async () => {
    const env = await copyWith('anon-reads-no-categories', [{ file: '0200_vs.sql', find, replace }]);
    const withSetting = await run(env, R16, chosen);
    expect(withSetting.failure?.message ?? withSetting.note).toBeUndefined();
    expect(withSetting.status).toBe('passed');
    const without = await run(env, R16, {});
    expect(without.status).toBe('failed');
    expect(without.failure?.message).toMatch(/setting tableGrants\.vs_categories/);
  });

  it('the catalog half agrees, and names the setting', async () => {
    const env = await copyWith('anon-reads-no-categories-catalog', [{ file: '0200_vs.sql', find, replace }]);
    expect((await runCatalogProperty(env, R16_CATALOG, { seed: 11, model: referenceModel, settings: ModelSettingsSchema.parse(chosen) })).status).toBe('passed');
    const without = await runCatalogProperty(env, R16_CATALOG, { seed: 11, model: referenceModel, settings: defaultSettings });
    expect(without.status).toBe('failed');
    expect(without.failure?.message).toMatch(/vs_categories: anon lacks SELECT, the model says it holds it \(setting tableGrants\.vs_categories\)/);
  });
});

describe('function output columns (functionColumns)', () => {
  it('a get_vs_ticket_by_id that does not return the report passes with the setting, fails without it naming it', async () => {
    const env = await copyWith('tracking-without-report', [
      { file: '0200_vs.sql', find: '  public_title text, duplicate_of text, is_duplicate boolean, tags text[], remarks jsonb, report text,\n', replace: '  public_title text, duplicate_of text, is_duplicate boolean, tags text[], remarks jsonb,\n' },
      { file: '0200_vs.sql', find: "'{}'::text[], private.vs_submitter_remarks(t.remarks), t.report, t.updated_at\n", replace: "'{}'::text[], private.vs_submitter_remarks(t.remarks), t.updated_at\n" },
    ]);
    const columns = defaultSettings.functionColumns.get_vs_ticket_by_id.filter((c) => c !== 'report');
    const withSetting = await run(env, R12, { functionColumns: { get_vs_ticket_by_id: columns } });
    expect(withSetting.failure?.message ?? withSetting.note).toBeUndefined();
    expect(withSetting.status).toBe('passed');
    const without = await run(env, R12, {});
    expect(without.status).toBe('failed');
    expect(without.failure?.message).toMatch(/returned columns differ.*\(setting functionColumns\.get_vs_ticket_by_id\)/);
  });

  it('a column the model does not know is a settings error that names the setting', () => {
    const settings = ModelSettingsSchema.parse({ functionColumns: { get_pr_ticket_by_id: ['id', 'handler_note'] } });
    expect(roleListMisfits(settings)).toEqual([expect.stringMatching(/^model\.functionColumns\.get_pr_ticket_by_id names handler_note/)]);
  });

  it('a handler list naming a role the vocabulary lacks stops only the properties on its table (campus-shop: moderators handle the shop)', () => {
    const settings = ModelSettingsSchema.parse({ roles: ['user', 'moderator', 'dev', 'admin'], staffRoles: ['moderator', 'dev', 'admin'], vs: { handlerRoles: ['dev'] }, pr: { handlerRoles: ['dev'] }, projects: { actorRoles: ['dev'] } });
    expect(roleListMisfits(settings)).toEqual([{ table: 'shop_orders', text: expect.stringMatching(/^model\.shop\.handlerRoles names staff, which model\.roles \(user, moderator, dev, admin\) does not have/) }]);
  });
});

describe('the public handle formula (vs.publicHandle)', () => {
  it("a handle of 'ref-' and 24 hex digits of md5 passes with the setting, fails without it naming it", async () => {
    const env = await copyWith('other-public-handle', [
      { file: '0200_vs.sql', find: "  public_ref text generated always as ('pub-' || substr(md5(id), 1, 16)) stored,\n", replace: "  public_ref text generated always as ('ref-' || substr(md5(id), 1, 24)) stored,\n" },
    ]);
    const withSetting = await run(env, R13, { vs: { publicHandle: { prefix: 'ref-', length: 24 } } });
    expect(withSetting.failure?.message ?? withSetting.note).toBeUndefined();
    expect(withSetting.status).toBe('passed');
    const without = await run(env, R13, {});
    expect(without.status).toBe('failed');
    expect(without.failure?.message).toMatch(/public_ref: setting vs\.publicHandle/);
  });
});
