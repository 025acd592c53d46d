/**
 * A migration that fails because of another file of its folder: it uses what a later file makes
 * (a file dated before the schema it alters: Kanba's `20240710…_add_public_share_token` alters
 * `projects`, made by `20250621…`), or it makes again what an earlier file made (a policy created
 * twice: generated migrations remaking a policy without dropping it). `supabase db reset` stops
 * there too; skipping the file, as the usual hint says, would leave out everything else it makes.
 * These say which file, and what to write instead.
 */
import { escapeRegExp } from '../regexp.ts';
import { upSectionOf } from './migration-sections.ts';

/** A file of the folder as migrations.ts loads it (its MigrationFile, named here by shape: migrations.ts calls this module). */
interface MigrationFile {
  name: string;
  sql: string;
}

/** Why a file that fails for a reason of its own writing is to be fixed, not skipped. */
export const SKIPPING_LOSES_THE_REST = 'skipping this file would leave out everything else it makes';

/** An optional `schema.` before a name, quoted or not. */
const SCHEMA_PREFIX = String.raw`(?:"?[\w$]+"?\s*\.\s*)?`;

/** A name as a statement may write it, quoted or not: after any schema, or after the one the message names. */
function named(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return `${SCHEMA_PREFIX}"?${escapeRegExp(name)}"?`;
  return String.raw`"?${escapeRegExp(name.slice(0, dot))}"?\s*\.\s*"?${escapeRegExp(name.slice(dot + 1))}"?`;
}

/** The file's SQL without comments, so a commented-out statement makes nothing. */
function withoutComments(sql: string): string {
  return sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/--[^\n]*/g, ' ');
}

function firstMaking(files: readonly MigrationFile[], pattern: RegExp): MigrationFile | undefined {
  // Up sections only: a goose/dbmate file's Down section makes nothing when the file applies.
  return files.find((f) => pattern.test(withoutComments(upSectionOf(f.sql).sql)));
}

const UNDEFINED_TABLE = '42P01';
const UNDEFINED_OBJECT = '42704';
const UNDEFINED_FUNCTION = '42883';
const DUPLICATE_OBJECT = '42710';
const DUPLICATE_TABLE = '42P07';

/** What a missing object's message names, and how a file makes it. */
function makerOfMissing(code: string, message: string): { name: string; makes: RegExp } | undefined {
  const relation = code === UNDEFINED_TABLE ? /^relation "([^"]+)" does not exist/.exec(message)?.[1] : undefined;
  if (relation) return { name: relation, makes: new RegExp(String.raw`\bcreate\s+(?:or\s+replace\s+)?(?:unlogged\s+)?(?:table|(?:materialized\s+)?view|sequence|foreign\s+table)\s+(?:if\s+not\s+exists\s+)?${named(relation)}(?![\w$"])`, 'i') };
  const type = code === UNDEFINED_OBJECT ? /^type "([^"]+)" does not exist/.exec(message)?.[1] : undefined;
  if (type) return { name: type, makes: new RegExp(String.raw`\bcreate\s+(?:type|domain)\s+${named(type)}(?![\w$"])`, 'i') };
  const fn = code === UNDEFINED_FUNCTION ? /^function ([^\s(]+)\(/.exec(message)?.[1] : undefined;
  if (fn) return { name: fn, makes: new RegExp(String.raw`\bcreate\s+(?:or\s+replace\s+)?function\s+${named(fn)}\s*\(`, 'i') };
  return undefined;
}

/** What a duplicate's message names, how a file makes it, and how a migration remakes it. */
function makerOfDuplicate(code: string, message: string): { name: string; makes: RegExp; instead: string } | undefined {
  const policy = code === DUPLICATE_OBJECT ? /^policy "([^"]+)" for table "([^"]+)" already exists/.exec(message) : null;
  if (policy) {
    const [, name, table] = policy;
    return {
      name: `policy "${name}" on ${table}`,
      makes: new RegExp(String.raw`\bcreate\s+policy\s+"?${escapeRegExp(name)}"?\s+on\s+${named(table)}(?![\w$"])`, 'i'),
      instead: `write \`drop policy if exists "${name}" on ${table};\` before this \`create policy\``,
    };
  }
  const trigger = code === DUPLICATE_OBJECT ? /^trigger "([^"]+)" for relation "([^"]+)" already exists/.exec(message) : null;
  if (trigger) {
    const [, name, table] = trigger;
    return {
      name: `trigger ${name} on ${table}`,
      makes: new RegExp(String.raw`\bcreate\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+"?${escapeRegExp(name)}"?\s[\s\S]*?\bon\s+${named(table)}(?![\w$"])`, 'i'),
      instead: `write \`drop trigger if exists ${name} on ${table};\` before it, or \`create or replace trigger\``,
    };
  }
  const relation = code === DUPLICATE_TABLE ? /^relation "([^"]+)" already exists/.exec(message)?.[1] : undefined;
  if (relation) {
    return {
      name: relation,
      makes: new RegExp(String.raw`\bcreate\s+(?:unlogged\s+)?(?:table|(?:materialized\s+)?view|sequence|index)\s+(?:concurrently\s+)?(?:if\s+not\s+exists\s+)?${named(relation)}(?![\w$"])`, 'i'),
      instead: '`create … if not exists` it, or make it in one file only',
    };
  }
  return undefined;
}

/**
 * Why a project's migration `file` failed with `code`/`message` when another file of `folder`
 * (in apply order) explains it: what it names is made only by a later file, or what it makes an
 * earlier file made already. Undefined otherwise (the usual message and hint stand).
 */
export function neighbourCause(file: MigrationFile, code: string | undefined, message: string, folder: readonly MigrationFile[]): string | undefined {
  const at = folder.findIndex((f) => f.name === file.name);
  if (!code || at < 0) return undefined;
  const missing = makerOfMissing(code, message);
  if (missing) {
    const later = firstMaking(folder.slice(at + 1), missing.makes);
    return later
      ? `${missing.name} is made by a later file, ${later.name}: files apply in name order, as \`supabase db reset\` applies them (it stops here too); name this file to sort after that one (a later timestamp), or move what it needs before it; ${SKIPPING_LOSES_THE_REST}`
      : undefined;
  }
  const duplicate = makerOfDuplicate(code, message);
  if (duplicate) {
    const earlier = firstMaking([...folder.slice(0, at)].reverse(), duplicate.makes);
    return earlier
      ? `${earlier.name} made ${duplicate.name} already (and \`supabase db reset\` stops here too): ${duplicate.instead}; ${SKIPPING_LOSES_THE_REST}`
      : undefined;
  }
  return undefined;
}
