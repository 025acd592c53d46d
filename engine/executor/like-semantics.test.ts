/**
 * The model's reading of PostgREST's like/ilike filters agrees with Postgres itself on random
 * strings and patterns over the characters that matter (% _ * \ and case): rule 14's oracle
 * must know exactly what a pattern operator would have matched.
 */
import { fc, test } from '@fast-check/vitest';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { likeToRegExp } from '../model/filters.ts';

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
});
afterAll(() => client?.end());

const text = fc.string({ unit: fc.constantFrom('a', 'A', 'b', '%', '_', '*', '\\', ' ', 'é'), maxLength: 6 });

describe('like and ilike, model vs Postgres', () => {
  test.prop([text, text, fc.boolean()], { numRuns: 300, seed: 14 })('a value matches a PostgREST pattern exactly when Postgres says so', async (value, pattern, insensitive) => {
    const sqlPattern = pattern.replace(/\*/g, '%');
    let database: boolean | 'error';
    try {
      const r = await client.query(`select $1::text ${insensitive ? 'ilike' : 'like'} $2::text as m`, [value, sqlPattern]);
      database = r.rows[0].m;
    } catch {
      database = 'error'; // a pattern ending in a lone backslash is an error in Postgres
    }
    if (database === 'error') {
      expect(sqlPattern.replace(/\\\\/g, '').endsWith('\\')).toBe(true);
      return;
    }
    expect(likeToRegExp(pattern, insensitive).test(value)).toBe(database);
  });
});
