/**
 * Automatic mutants derived from the reference database's own catalog: each kind appears,
 * and every variant applies cleanly on top of the migrations.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceEnvironment } from '../../../testing/reference.ts';
import type { Environment } from '../../runner/environment.ts';
import { readCatalog } from './catalog.ts';
import { deriveMutants, type AutoMutant } from './derive.ts';

let env: Environment;
let mutants: AutoMutant[];

beforeAll(async () => {
  env = await referenceEnvironment();
  mutants = deriveMutants(await readCatalog(env.workers[0].client, ['public', 'passport', 'private']));
});
afterAll(() => env?.close());

describe('automatic mutants of the reference database', () => {
  it('derive the kinds the catalog allows', () => {
    const kinds = new Set(mutants.map((m) => m.kind));
    for (const kind of ['disable-row-security', 'drop-revoke', 'allow-list-drop', 'widen-roles'] as const) expect(kinds).toContain(kind);
    expect(mutants.find((m) => m.name === 'allow-list-drop-guard-users-owner-update-display-name')?.sql).not.toMatch(/'display_name'/);
  });

  it('mark row security on the read-only vs_categories (select using true) equivalent, and not on projects', () => {
    expect(mutants.find((m) => m.name === 'disable-row-security-public-vs-categories')?.equivalent).toMatch(/always true/);
    expect(mutants.find((m) => m.name === 'disable-row-security-public-projects')?.equivalent).toBeUndefined();
    expect(mutants.filter((m) => m.kind === 'disable-row-security' && m.equivalent).map((m) => m.name)).toEqual(['disable-row-security-public-vs-categories']);
  });

  it('have unique names', () => {
    expect(new Set(mutants.map((m) => m.name)).size).toBe(mutants.length);
  });

  it('each applies cleanly on top of the migrations', async () => {
    const client = new pg.Client({ connectionString: env.template.url });
    await client.connect();
    try {
      for (const m of mutants) {
        await client.query('begin');
        try {
          await client.query(m.sql);
        } catch (e) {
          throw new Error(`${m.name} does not apply: ${(e as Error).message}\n${m.sql}`);
        } finally {
          await client.query('rollback');
        }
      }
    } finally {
      await client.end();
    }
  });
});
