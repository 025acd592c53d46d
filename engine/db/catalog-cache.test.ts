/**
 * The catalog reads kept with a kept template (catalog-cache.ts): a second start on the same
 * migrations reads them from the kept file, and a changed migration never reuses them.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedServer } from '../../testing/shared-server.ts';
import { keptTemplateKey } from './databases.ts';
import type { MigrationFile } from './migrations.ts';
import { cachedTemplateName } from './template-cache.ts';
import { catalogCacheFile, decodeCatalog, encodeCatalog } from './catalog-cache.ts';
import { CATALOG_CACHE_DIR, openEnvironment } from '../runner/environment.ts';

describe('kept catalog files', () => {
  it('Maps and Sets, nested, come back as they went', () => {
    const value = { tables: new Map([['public.a', [{ name: 'id', type: 'int' }]]]), grants: new Set(['a', 'b']), nested: { m: new Map([['x', new Set([1])]]) }, list: [1, 'two', null] };
    expect(decodeCatalog(encodeCatalog(value))).toEqual(value);
  });

  it('a file per template digest, reads’ inputs and engine code', () => {
    const file = catalogCacheFile('/c', 'aaaa', { exposedSchemas: ['public'] }, 'code1');
    expect(catalogCacheFile('/c', 'bbbb', { exposedSchemas: ['public'] }, 'code1')).not.toBe(file);
    expect(catalogCacheFile('/c', 'aaaa', { exposedSchemas: ['public', 'api'] }, 'code1')).not.toBe(file);
    expect(catalogCacheFile('/c', 'aaaa', { exposedSchemas: ['public'] }, 'code2')).not.toBe(file);
    expect(catalogCacheFile('/c', 'aaaa', { exposedSchemas: ['public'] }, 'code1')).toBe(file);
  });
});

describe('a second start on a kept template', () => {
  const id = randomUUID().replace(/-/g, '').slice(0, 12);
  const migration = (sql: string): MigrationFile => ({ name: '001_items.sql', path: '001_items.sql', sql });
  const first = migration(`create table public.items_${id} (id int primary key);`);
  // The same file edited: another table.
  const edited = migration(`create table public.things_${id} (id int primary key);`);
  const keptFiles = (digest: string) => readdirSync(CATALOG_CACHE_DIR).filter((n) => n.startsWith(`${digest}-`)).map((n) => path.join(CATALOG_CACHE_DIR, n));
  afterAll(async () => {
    const server = await sharedServer();
    const c = new pg.Client({ connectionString: server.adminUrl });
    await c.connect();
    for (const file of [first, edited]) {
      const key = keptTemplateKey([file]);
      await c.query(`drop database if exists ${cachedTemplateName(key)}`);
      for (const kept of keptFiles(key.digest)) rmSync(kept, { force: true });
    }
    await c.end();
  });

  const start = async (file: MigrationFile) => {
    const env = await openEnvironment({ server: await sharedServer(), migrations: [file], workers: 1, cacheTemplate: true });
    await env.close();
    return env;
  };

  it('reads the catalog from the file kept by the first; an edited migration reads its own', async () => {
    const built = await start(first);
    expect(built.readyNote).not.toContain('catalog read from the cache');
    expect(built.cache.tables.has(`public.items_${id}`)).toBe(true);
    const [kept] = keptFiles(keptTemplateKey([first]).digest);
    expect(kept).toBeDefined();

    // A table only the kept file names: the second start's schema cache has it, so the file was read.
    const marked = readFileSync(kept, 'utf8').replace(`"public.items_${id}"`, `"public.kept_${id}"`);
    writeFileSync(kept, marked);
    const second = await start(first);
    expect(second.readyNote).toContain(`cached template ${keptTemplateKey([first]).digest}, its catalog read from the cache`);
    expect(second.cache.tables.has(`public.kept_${id}`)).toBe(true);

    // The edited migration: its own template and catalog, never the first's.
    const changed = await start(edited);
    expect(changed.readyNote).not.toContain('catalog read from the cache');
    expect(changed.cache.tables.has(`public.things_${id}`)).toBe(true);
    expect(changed.cache.tables.has(`public.kept_${id}`)).toBe(false);
    expect(changed.cache.tables.has(`public.items_${id}`)).toBe(false);
  });
});
