import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { referencePack } from '../../packs/reference/index.ts';
import { defaultSettings, type ModelSettings } from '../../packs/reference/model/settings.ts';
import { loadConfig, parseConfig } from './config-file.ts';
import { packModuleOf } from './config-shape.ts';
import { tempDir } from '../../testing/temp-dir.ts';

describe('policyfuzz config', () => {
  it('fills defaults and resolves migration folders against the config file', () => {
    const c = parseConfig({ migrations: 'supabase/migrations' }, '/proj/policyfuzz.config.json', referencePack);
    expect(c.migrationDirs).toEqual(['/proj/supabase/migrations']);
    expect(c.supabaseCompat).toBe(true);
    expect(c.model).toEqual(defaultSettings);
    expect(c.fixtures).toEqual({ users: 'direct', bypassTriggers: false });
  });

  it('resolves the "pack" module against the config file, and refuses a pack that is not a path', () => {
    expect(parseConfig({ migrations: 'm', pack: './policyfuzz.pack.ts' }, '/proj/policyfuzz.config.json', referencePack).packModule).toBe('/proj/policyfuzz.pack.ts');
    expect(packModuleOf({ pack: 'pack.ts' }, '/proj/c.json')).toBe('/proj/pack.ts');
    expect(packModuleOf({ migrations: 'm' }, '/proj/c.json')).toBeUndefined();
    expect(() => packModuleOf({ pack: 3 }, 'c.json')).toThrow('c.json is not a valid policyfuzz config:\n  pack: a module path, like "./policyfuzz.pack.ts"');
  });

  it('overrides model settings field by field', () => {
    const c = parseConfig({ migrations: 'm', model: { adminRoles: ['superadmin'] } }, '/p/c.json', referencePack);
    expect((c.model as ModelSettings).adminRoles).toEqual(['superadmin']);
    expect((c.model as ModelSettings).roles).toEqual(defaultSettings.roles);
  });

  it('names every wrong field', () => {
    expect(() => parseConfig({ migrations: 3, rules: { include: ['R2'] }, extra: true }, 'c.json', referencePack)).toThrow(
      /c\.json is not a valid policyfuzz config:\n {2}migrations: .*\n(.|\n)*rules\.include\.0: a property id like R02/,
    );
    expect(() => parseConfig({ migrations: 'm', model: { staffRoles: 'admin' } }, 'c.json', referencePack)).toThrow(/model\.staffRoles/);
  });

  it('takes fixtures.columnsAsRows by model table.column, and names a key that is not one', () => {
    const role = { table: 'app.user_roles', owner: 'user_id', value: 'role_id', lookup: { table: 'app.roles', key: 'id', name: 'slug' } };
    expect(parseConfig({ migrations: 'm', fixtures: { columnsAsRows: { 'users.role': role } } }, 'c.json', referencePack).fixtures.columnsAsRows).toEqual({ 'users.role': role });
    expect(() => parseConfig({ migrations: 'm', fixtures: { columnsAsRows: { role } } }, 'c.json', referencePack)).toThrow('fixtures.columnsAsRows: each key a model column as table.column (users.role)');
    expect(() => parseConfig({ migrations: 'm', fixtures: { columnsAsRows: { 'users.role': { ...role, owner: undefined } } } }, 'c.json', referencePack)).toThrow(/fixtures\.columnsAsRows\.users\.role\.owner/);
  });

  it('takes postgrest.maxRows (db-max-rows), a positive whole number', () => {
    expect(parseConfig({ migrations: 'm', postgrest: { maxRows: 1000 } }, 'c.json', referencePack).postgrest).toEqual({ maxRows: 1000 });
    expect(() => parseConfig({ migrations: 'm', postgrest: { maxRows: 2.5 } }, 'c.json', referencePack)).toThrow('postgrest.maxRows: db-max-rows: a whole number of rows, e.g. 1000');
  });

  it('reports malformed JSON and missing files clearly', async () => {
    const dir = tempDir('config');
    writeFileSync(path.join(dir, 'policyfuzz.config.json'), '{ "migrations": ');
    await expect(loadConfig(path.join(dir, 'policyfuzz.config.json'), referencePack)).rejects.toThrow(/is not valid JSON/);
    await expect(loadConfig(path.join(dir, 'nope.json'), referencePack)).rejects.toThrow(`config file not found: ${path.join(dir, 'nope.json')}`);
  });
});
