/**
 * The order a migrations folder's files apply in. Name order, as the Supabase CLI applies
 * `supabase/migrations` (it reads the folder sorted by name), unless the files are numbered
 * without zero-padding (`1_…`, `2_…`, `10_…`) in a folder that is no Supabase CLI project: there
 * name order puts `10_` before `2_`, and the numbers are the order meant (as golang-migrate, goose,
 * sqlx and Flyway read them; changes-page's `packages/supabase/migrations` is such a folder).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

const LEADING_NUMBER = /^(\d+)/;

/** A folder the Supabase CLI applies: a `config.toml` beside it (`supabase/migrations` + `supabase/config.toml`). */
export function isSupabaseCliFolder(dir: string): boolean {
  return existsSync(path.join(dir, '..', 'config.toml'));
}

/**
 * True when every name starts with a number and the numbers' lengths differ: name order and
 * number order then disagree (`10_` before `9_`), and the numbers decide.
 */
function numberedWithoutPadding(names: string[]): boolean {
  const lengths = new Set<number>();
  for (const name of names) {
    const number = LEADING_NUMBER.exec(name);
    if (!number) return false;
    lengths.add(number[1].length);
  }
  return lengths.size > 1;
}

/** Sorts a folder's migration names (files, or Prisma's folders) into the order they apply in. */
export function orderMigrationNames(dir: string, names: string[]): string[] {
  const byName = [...names].sort();
  if (!numberedWithoutPadding(byName) || isSupabaseCliFolder(dir)) return byName;
  const numberOf = (name: string) => BigInt(LEADING_NUMBER.exec(name)![1]);
  // Equal numbers (`8_add_reactions.sql` beside `8_add_publication_date.sql`) keep name order.
  return byName.sort((a, b) => {
    const [x, y] = [numberOf(a), numberOf(b)];
    return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
  });
}

/**
 * A migration tool's undo files: postgrator's `0001.undo.name.sql` beside `0001.do.name.sql`
 * (Omnivore's `packages/db/migrations`), Flyway's `U1__name.sql` beside `V1__name.sql`. The tool
 * applies only the do files going up; in name order each undo file would run right after (or, for
 * Flyway, before) its do file and drop what it made, without a word. An undo file with no do file
 * of its version in the folder is no such pair, and is kept.
 */
const POSTGRATOR = /^(\d+)\.(do|undo)\./i;
const FLYWAY = /^([VU])(\d+(?:[._]\d+)*)__/;

export function withoutUndoFiles(names: string[]): string[] {
  const doVersions = new Set<string>();
  for (const name of names) {
    const postgrator = POSTGRATOR.exec(name);
    if (postgrator && postgrator[2].toLowerCase() === 'do') doVersions.add(`p${BigInt(postgrator[1])}`);
    const flyway = FLYWAY.exec(name);
    if (flyway && flyway[1] === 'V') doVersions.add(`f${flyway[2]}`);
  }
  return names.filter((name) => {
    const postgrator = POSTGRATOR.exec(name);
    if (postgrator && postgrator[2].toLowerCase() === 'undo') return !doVersions.has(`p${BigInt(postgrator[1])}`);
    const flyway = FLYWAY.exec(name);
    return !(flyway && flyway[1] === 'U' && doVersions.has(`f${flyway[2]}`));
  });
}

/**
 * Postgrator sends each do file to Postgres as one query: a file of a single statement then runs
 * outside any transaction block (Omnivore's `CREATE INDEX CONCURRENTLY` files), where a file of
 * several runs in the query's implicit one.
 */
export function appliedAsOneQuery(name: string): boolean {
  const postgrator = POSTGRATOR.exec(name);
  return postgrator !== null && postgrator[2].toLowerCase() === 'do';
}

/**
 * A file no migration tool we know applies: not in a Supabase CLI folder (`supabase/migrations`, or one beside a `config.toml`: each file in one
 * transaction), not Prisma's `<name>/migration.sql`, not a Drizzle folder (`meta/_journal.json`),
 * not named as postgrator or Flyway name theirs. Such a folder is applied by a script running
 * `psql -f` (Readest's `docker/volumes/db/migrations`, "RUN ONLINE, NOT INSIDE A TRANSACTION"),
 * which sends each statement in its own transaction.
 */
export function appliedByPsqlFile(filePath: string): boolean {
  const dir = path.dirname(filePath);
  const name = path.basename(filePath);
  if (name === 'migration.sql' || POSTGRATOR.test(name) || FLYWAY.test(name)) return false;
  // `supabase/migrations` is the CLI's even where the repository leaves config.toml out (Hyprnote's).
  const cliLayout = path.basename(dir) === 'migrations' && path.basename(path.dirname(dir)) === 'supabase';
  return !isSupabaseCliFolder(dir) && !cliLayout && !existsSync(path.join(dir, 'meta', '_journal.json'));
}
