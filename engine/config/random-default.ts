/**
 * Whether a column default draws its value at random: by a random function itself
 * (`gen_random_uuid()`, `gen_random_bytes(…)`, `random()`), or through a function of the project
 * whose body does (a nanoid generator, `default nanoid(16)`: stranger-app-11's public handle, which
 * init otherwise read as a formula over the row and the model computed as one).
 */
import type pg from 'pg';

const RANDOM_CALL = /\b(?:gen_random_uuid|uuid_generate_v4|gen_random_bytes|random)\s*\(/i;

/** The functions a default expression calls, by bare name (`public.nanoid(16)` → nanoid). */
function calledNames(expr: string): string[] {
  return [...expr.matchAll(/(?:"?\w+"?\s*\.\s*)?"?(\w+)"?\s*\(/g)].map((m) => m[1].toLowerCase());
}

/** `expr` draws at random, itself or through the body of a function it calls (one level: what a generator's body calls). */
export async function defaultDrawsAtRandom(client: pg.Client, expr: string): Promise<boolean> {
  if (RANDOM_CALL.test(expr)) return true;
  const names = calledNames(expr);
  if (!names.length) return false;
  const bodies = await client.query<{ source: string }>(
    `select coalesce(p.prosrc, '') as source from pg_proc p join pg_language l on l.oid = p.prolang where l.lanname in ('sql', 'plpgsql') and lower(p.proname) = any($1::text[])`,
    [names],
  );
  return bodies.rows.some((b) => RANDOM_CALL.test(b.source));
}
