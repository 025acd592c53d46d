import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePack, packSettings } from './pack.ts';

describe('definePack', () => {
  it('a pack with no settings of its own may leave settingsSchema out: an empty strict object, overrides refused by name', () => {
    const pack = definePack({ name: 'no-settings', model: { tables: {}, functions: {}, fixtureOrder: ['auth.users'] }, properties: [] });
    expect(packSettings(pack)).toEqual({});
    expect(() => packSettings(pack, { roles: ['x'] })).toThrow(/roles/);
  });

  it("parses the settings without zod compiling a parser of them (a parse made once; the fast path's build cost the reference 35-42 ms of CPU a run)", () => {
    const settingsSchema = z.object({ limit: z.number().default(1), names: z.object({ first: z.string().default('x') }).prefault({}) }).strict();
    const pack = definePack({ name: 'with-settings', model: { tables: {}, fixtureOrder: [] }, properties: [], settingsSchema });
    // zod builds its fast path with the global Function constructor (zod/v4/core/doc.js): count what it is asked to build.
    const built: unknown[][] = [];
    const original = globalThis.Function;
    globalThis.Function = new Proxy(original, { construct: (target, args: unknown[]) => (built.push(args), Reflect.construct(target, args)) });
    try {
      expect(packSettings(pack)).toEqual({ limit: 1, names: { first: 'x' } });
      expect(() => packSettings(pack, { limit: 'many' })).toThrow(/limit/);
    } finally {
      globalThis.Function = original;
    }
    expect(built).toEqual([]);
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
