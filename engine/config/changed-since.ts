/**
 * `--changed-since <git-ref>`: which tables and functions the migrations changed since a ref,
 * read from the changed files' SQL, so a pre-merge run focuses on the rules they touch.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.ts';
import type { DataProperty } from '../runner/data-property.ts';
import { targetFunction, targetTable, type TargetMapping } from '../mapping/mapping.ts';

const NAME = String.raw`((?:"[^"]+"|[a-zA-Z_][\w$]*)(?:\s*\.\s*(?:"[^"]+"|[a-zA-Z_][\w$]*))?)`;
const PATTERNS: RegExp[] = [
  new RegExp(String.raw`create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?${NAME}`, 'gi'),
  new RegExp(String.raw`alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?${NAME}`, 'gi'),
  new RegExp(String.raw`(?:create|alter|drop)\s+policy\s+(?:if\s+exists\s+)?(?:"[^"]+"|\w+)\s+on\s+${NAME}`, 'gi'),
  new RegExp(String.raw`create\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+\w+[\s\S]*?\son\s+${NAME}`, 'gi'),
  new RegExp(String.raw`(?:grant|revoke)\s+[\w\s,]*?\s+on\s+(?:table\s+)?${NAME}`, 'gi'),
  new RegExp(String.raw`create\s+(?:or\s+replace\s+)?(?:materialized\s+)?view\s+(?:if\s+not\s+exists\s+)?${NAME}`, 'gi'),
  new RegExp(String.raw`create\s+(?:or\s+replace\s+)?function\s+${NAME}\s*\(`, 'gi'),
  new RegExp(String.raw`(?:alter|drop)\s+function\s+(?:if\s+exists\s+)?${NAME}\s*\(`, 'gi'),
  new RegExp(String.raw`(?:grant|revoke)\s+[\w\s,]*?\s+on\s+function\s+${NAME}`, 'gi'),
];

function normalize(name: string): string {
  const bare = name.replace(/"/g, '').replace(/\s+/g, '');
  return bare.startsWith('public.') ? bare.slice('public.'.length) : bare;
}

/** Tables, views and functions a SQL text creates, alters or grants on. */
export function objectsInSql(sql: string): string[] {
  const text = sql.replace(/--[^\n]*/g, '');
  const found = new Set<string>();
  for (const pattern of PATTERNS) for (const m of text.matchAll(pattern)) found.add(normalize(m[1]));
  for (const noise of ['all', 'schema', 'function', 'table', 'sequence']) found.delete(noise);
  return [...found].sort();
}

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new UsageError(`--changed-since: git ${args.join(' ')} failed: ${(err.stderr ?? err.message).trim().split('\n')[0]}`);
  }
}

export function changedObjects(ref: string, dirs: string[]): { files: string[]; objects: string[] } {
  const files = new Set<string>();
  const objects = new Set<string>();
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new UsageError(`migrations folder not found: ${dir}`);
    const top = git(['rev-parse', '--show-toplevel'], dir).trim();
    const changed = git(['diff', '--name-only', ref, '--', path.resolve(dir)], dir).split('\n');
    const untracked = git(['ls-files', '--others', '--exclude-standard', '--full-name', '--', path.resolve(dir)], dir).split('\n');
    for (const rel of [...changed, ...untracked].filter((f) => f.endsWith('.sql'))) {
      const file = path.join(top, rel);
      files.add(path.relative(process.cwd(), file));
      // A deleted file still tells what it touched: read it as it was at the ref.
      const sql = existsSync(file) ? readFileSync(file, 'utf8') : git(['show', `${ref}:${rel}`], top);
      for (const o of objectsInSql(sql)) objects.add(o);
    }
  }
  return { files: [...files].sort(), objects: [...objects].sort() };
}

/** Whether a property's tables or functions (model names; `mapping` gives the target's) are among `objects` (the target's names, `public.` optional). */
export function touches(property: Pick<DataProperty, 'tables' | 'functions'>, objects: string[], mapping?: TargetMapping): boolean {
  const names = [...property.tables.map((t) => (mapping ? targetTable(mapping, t) : t)), ...(property.functions ?? []).map((f) => (mapping ? targetFunction(mapping, f) : f))];
  const touched = new Set(objects.map(normalize));
  return names.map(normalize).some((o) => touched.has(o));
}
