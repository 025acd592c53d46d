import { describe, expect, it } from 'vitest';
import { definePack, packSettings } from './pack.ts';

describe('definePack', () => {
  it('a pack with no settings of its own may leave settingsSchema out: an empty strict object, overrides refused by name', () => {
    const pack = definePack({ name: 'no-settings', model: { tables: {}, functions: {}, fixtureOrder: ['auth.users'] }, properties: [] });
    expect(packSettings(pack)).toEqual({});
    expect(() => packSettings(pack, { roles: ['x'] })).toThrow(/roles/);
  });

  it('a tables-only pack may leave model.functions out: it is empty (init read Object.values of it and crashed)', () => {
    const pack = definePack({ name: 'tables-only', model: { tables: {}, fixtureOrder: [] }, properties: [] });
    expect(pack.model.functions).toEqual({});
  });

  it('a misshapen argument (tables beside name, no model) is returned as given, for the loader to name what it lacks: never a TypeError', () => {
    const misshapen = { name: 'tables-beside-name', tables: [], fixtureOrder: [], properties: [] } as unknown as Parameters<typeof definePack>[0];
    expect(() => definePack(misshapen)).not.toThrow();
    expect(definePack(misshapen).model).toBeUndefined();
  });
});
