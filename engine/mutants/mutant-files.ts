/**
 * A mutant is a deliberately broken policy. Its header says what it breaks and which
 * properties must catch it:
 *   -- mutant: R02-guard-trigger-dropped
 *   -- rules: R02, R01
 *   -- bug: one line on what real projects get wrong here
 *   -- unreachable: why no REST request can reach it (optional: the mutant is then reported as
 *      reclassified, not run, instead of as a survivor)
 * The body is either SQL applied on top of the migrations (`drop trigger …`), or edits of the
 * migrations themselves, so a mutant states only the lines it breaks and goes stale loudly
 * when the reference changes under it:
 *   -- in 0200_vs.sql replace:
 *     where t.id = p_id and t.deleted_at is null
 *   -- with:
 *     where t.id ilike p_id and t.deleted_at is null
 *   -- end
 * The text to replace must occur exactly once in the named file.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.ts';
import { loadMigrationFolder, type MigrationFile } from '../db/migrations.ts';
import { isPropertyId } from '../property-id.ts';

export interface MigrationEdit {
  file: string;
  find: string;
  replace: string;
}

export interface Mutant {
  name: string;
  rules: string[];
  bug: string;
  /** Set when the broken code cannot be reached through the REST interface: why. Not run. */
  unreachable?: string;
  /** SQL applied after the (edited) migrations; empty for an edit-only mutant. */
  file: MigrationFile;
  edits: MigrationEdit[];
}

function header(sql: string, key: string): string | undefined {
  return new RegExp(`^--\\s*${key}:\\s*(.+)$`, 'm').exec(sql)?.[1].trim();
}

const EDIT = /^-- in (\S+) replace:\n([\s\S]*?)^-- with:\n([\s\S]*?)^-- end[ \t]*$\n?/gm;

export function parseMutant(file: MigrationFile): Mutant {
  const rules = header(file.sql, 'rules');
  const bug = header(file.sql, 'bug');
  if (!rules || !bug) throw new UsageError(`mutant ${file.path} needs a header with "-- rules: R02, …" and "-- bug: …"`);
  const list = rules.split(/[\s,]+/).filter(Boolean);
  const bad = list.find((r) => !isPropertyId(r));
  if (bad) throw new UsageError(`mutant ${file.path}: "${bad}" is not a property id like R02`);
  const edits = [...file.sql.matchAll(EDIT)].map((m) => ({ file: m[1], find: m[2], replace: m[3] }));
  const layoutOnly = edits.find((e) => e.find.replace(/\s+/g, '') === e.replace.replace(/\s+/g, ''));
  if (layoutOnly) throw new UsageError(`mutant ${file.path}: an edit of ${layoutOnly.file} changes only layout, not behaviour`);
  const rest = file.sql.replace(EDIT, '');
  if (/^-- (in \S+ replace|with|end)\b/m.test(rest)) throw new UsageError(`mutant ${file.path}: an edit block must read "-- in <file> replace:", the old lines, "-- with:", the new lines, "-- end"`);
  const unreachable = header(file.sql, 'unreachable');
  return { name: header(file.sql, 'mutant') ?? path.basename(file.name, '.sql'), rules: list, bug, ...(unreachable ? { unreachable } : {}), file: { ...file, sql: rest }, edits };
}

/** The migrations with the mutant's edits made; a stale edit (text not found, or found twice) is an error naming it. */
export function applyEdits(mutant: Pick<Mutant, 'name' | 'edits'>, migrations: MigrationFile[]): MigrationFile[] {
  let out = migrations;
  for (const edit of mutant.edits) {
    const target = out.find((m) => m.name === edit.file);
    if (!target) throw new UsageError(`mutant ${mutant.name}: no migration named ${edit.file}`);
    const count = target.sql.split(edit.find).length - 1;
    if (count !== 1) {
      throw new UsageError(`mutant ${mutant.name}: the text to replace occurs ${count} times in ${edit.file} (it must occur once; has the migration changed?)`);
    }
    out = out.map((m) => (m === target ? { ...m, sql: m.sql.replace(edit.find, () => edit.replace) } : m));
  }
  return out;
}

/** How many of `migrations`, from the first, the mutant leaves unedited. */
export function unchangedPrefix(mutant: Pick<Mutant, 'edits'>, migrations: MigrationFile[]): number {
  const edited = new Set(mutant.edits.map((e) => e.file));
  const first = migrations.findIndex((m) => edited.has(m.name));
  return first < 0 ? migrations.length : first;
}

/** The SQL to apply on top of the migrations, if the mutant has any. */
export function extraSql(mutant: Mutant): MigrationFile[] {
  return mutant.file.sql.split('\n').some((l) => l.trim() && !l.trim().startsWith('--')) ? [mutant.file] : [];
}

/**
 * A folder of mutant files, or a pack's rules folder where each rule keeps its own mutants in
 * `<rule>/mutants/`: every `.sql` found either way, sorted by name.
 */
export function loadMutants(dir: string): Mutant[] {
  if (!existsSync(dir)) throw new UsageError(`mutants folder not found: ${dir}`);
  const perRule = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'mutants')))
    .flatMap((e) => loadMigrationFolder(path.join(dir, e.name, 'mutants')));
  const files = perRule.length ? perRule.sort((a, b) => a.name.localeCompare(b.name)) : loadMigrationFolder(dir);
  return files.map(parseMutant);
}
