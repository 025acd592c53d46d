/**
 * A mutant is a deliberately broken policy: a `.sql` file applied on top of the migrations.
 * Its header says what it breaks and which properties must catch it:
 *   -- mutant: R02-guard-trigger-dropped
 *   -- rules: R02, R01
 *   -- bug: one line on what real projects get wrong here
 */
import path from 'node:path';
import { UsageError } from '../errors.ts';
import { loadMigrationFolder, type MigrationFile } from '../db/migrations.ts';

export interface Mutant {
  name: string;
  rules: string[];
  bug: string;
  file: MigrationFile;
}

function header(sql: string, key: string): string | undefined {
  return new RegExp(`^--\\s*${key}:\\s*(.+)$`, 'm').exec(sql)?.[1].trim();
}

export function parseMutant(file: MigrationFile): Mutant {
  const rules = header(file.sql, 'rules');
  const bug = header(file.sql, 'bug');
  if (!rules || !bug) throw new UsageError(`mutant ${file.path} needs a header with "-- rules: R02, …" and "-- bug: …"`);
  const list = rules.split(/[\s,]+/).filter(Boolean);
  const bad = list.find((r) => !/^[RS]\d\d$/.test(r));
  if (bad) throw new UsageError(`mutant ${file.path}: "${bad}" is not a property id like R02`);
  return { name: header(file.sql, 'mutant') ?? path.basename(file.name, '.sql'), rules: list, bug, file };
}

export function loadMutants(dir: string): Mutant[] {
  return loadMigrationFolder(dir).map(parseMutant);
}
