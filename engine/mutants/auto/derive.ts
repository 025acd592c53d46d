/**
 * Broken variants derived from a target's own catalog, each a small SQL file applied on top of
 * its migrations: drop one conjunct of a USING / WITH CHECK (or make a single check always
 * true), drop one OR alternative (a stricter policy), widen a policy's roles, disable
 * row security, turn an equality lookup into ilike, drop a REVOKE on a function, make an
 * invoker view run as definer, remove a column from a guard's allow-list, drop one conjunct of
 * a WHERE in a definer function that rpc reaches, drop or negate a plpgsql IF guard (or one of its
 * OR alternatives).
 */
import type { Catalog, CatalogFunction, CatalogPolicy } from './catalog.ts';
import { existsCondition, ifConditions, stripOuterParens, topLevelConjuncts, topLevelDisjuncts, whereConditions, withoutConjunct, withoutDisjunct } from '../../db/sql-expressions.ts';
import { escapeRegExp } from '../../regexp.ts';
import { shownIdent } from '../../executor/sql-text.ts';

/** The kinds of variant, in the order they are derived (`mutants --auto --kind` picks among them). */
export const AUTO_MUTATION_KINDS = [
  'drop-conjunct',
  'always-true',
  'drop-disjunct',
  'widen-roles',
  'disable-row-security',
  'equality-to-ilike',
  'drop-revoke',
  'view-as-definer',
  'allow-list-drop',
  'function-drop-conjunct',
  'if-guard',
] as const;

export type AutoMutationKind = (typeof AUTO_MUTATION_KINDS)[number];

/** A function header declaring a trigger function (pg_get_functiondef's `RETURNS trigger`). */
const RETURNS_TRIGGER = /\breturns\s+trigger\b/i;

export interface AutoMutant {
  name: string;
  kind: AutoMutationKind;
  /** The object mutated, e.g. `public.vs_tickets` or `public.get_pr_ticket_by_id(text)`. */
  target: string;
  description: string;
  sql: string;
  /** Known not to change behaviour (e.g. a policy widened to anon on a table anon holds no privilege on). */
  equivalent?: string;
  /** A mutated function's callers: the tables whose policies call it (their properties are tried too). */
  calledByPoliciesOf?: string[];
  /** A mutated trigger function's tables: their writes run it (their properties are tried). */
  triggerOn?: string[];
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const rel = (schema: string, name: string) => `${q(schema)}.${q(name)}`;
const slug = (s: string) => s.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase();

/** The privileges a policy's command needs (ALL: any of them). */
function commandPrivileges(command: CatalogPolicy['command']): string[] {
  return command === 'ALL' ? ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] : [command];
}

interface TableGrants {
  anon: string[];
  authenticated: string[];
}

/** A conjunct as Postgres prints it, compared without outer parentheses or spacing. */
const normalConjunct = (c: string) => stripOuterParens(c).replace(/\s+/g, ' ');

/** The permissive SELECT (or ALL) policies of `p`'s table for a role `appliesTo` accepts, or for public. */
function permissiveSelectPolicies(p: CatalogPolicy, policies: CatalogPolicy[], appliesTo: (role: string) => boolean): CatalogPolicy[] {
  return policies.filter(
    (s) =>
      s.schema === p.schema &&
      s.table === p.table &&
      (s.command === 'SELECT' || s.command === 'ALL') &&
      (s.permissive ?? 'PERMISSIVE') === 'PERMISSIVE' &&
      s.roles.some((r) => r === 'public' || appliesTo(r)),
  );
}

/**
 * An invoker function an API request runs (through /rpc, or a trigger) may UPDATE or DELETE (as
 * `p`'s command does) `p`'s table: it names the table in such a statement (or a MERGE), or runs
 * dynamic SQL. Such a statement need read no column (`delete from t where true`, `where p_flag`),
 * and a write reading none meets no SELECT policy: the filtered-write premise fails there.
 */
function writtenByInvokerFunction(p: CatalogPolicy, functions: readonly CatalogFunction[]): boolean {
  const name = (n: string) => `(?:"${escapeRegExp(n.replace(/"/g, '""'))}"|${escapeRegExp(n)})`;
  const table = `(?:only\\s+)?(?:${name(p.schema)}\\s*\\.\\s*)?${name(p.table)}(?![\\w$"])`;
  const statements = [...(p.command === 'DELETE' ? [] : ['update']), ...(p.command === 'UPDATE' ? [] : ['delete\\s+from']), 'merge\\s+into'];
  const writes = new RegExp(`\\b(?:${statements.join('|')})\\s+${table}|\\bexecute\\s+(?!function\\b|procedure\\b)`, 'i');
  return functions.some((f) => {
    const reached = f.executableByAnon || f.executableByAuthenticated || (f.triggerTables?.length ?? 0) > 0;
    const { from, to } = bodyRange(f.definition);
    return reached && !isSecurityDefiner(f) && writes.test(f.definition.slice(from, to));
  });
}

/**
 * Whether `f` runs as its owner: SECURITY DEFINER among the options pg_get_functiondef prints
 * before the body (a SQL-standard body has no dollar quotes: up to its BEGIN ATOMIC or RETURN),
 * never the words in the body or a comment there.
 */
function isSecurityDefiner(f: CatalogFunction): boolean {
  const { from } = bodyRange(f.definition);
  const header = f.definition.slice(0, from || Math.max(0, f.definition.search(/^\s*(?:BEGIN\s+ATOMIC|RETURN)\b/im)));
  return /\bSECURITY DEFINER\b/i.test(header);
}

/**
 * Through REST every UPDATE and DELETE is filtered (pg-safeupdate), and a filter reads the row, so
 * Postgres applies the table's SELECT policies too: to the rows it reaches (USING) and, for an
 * UPDATE, to the new rows as well (checked here against real Postgres: engine/mutants/auto/
 * derive.test.ts). A clause loosened by removing `removed` is masked when every permissive SELECT
 * policy that applies to the policy's roles keeps each removed conjunct, and no invoker function
 * writes the table (writtenByInvokerFunction).
 */
function maskedBySelect(p: CatalogPolicy, clause: 'using' | 'with check', removed: string[], policies: CatalogPolicy[], functions: readonly CatalogFunction[]): string | undefined {
  if (clause === 'using' ? p.command !== 'UPDATE' && p.command !== 'DELETE' : p.command !== 'UPDATE') return undefined;
  if (writtenByInvokerFunction(p, functions)) return undefined;
  const selects = permissiveSelectPolicies(p, policies, (r) => p.roles.includes(r) || p.roles.includes('public'));
  const kept = removed.map(normalConjunct);
  if (!selects.length || !selects.every((s) => s.using !== null && kept.every((c) => topLevelConjuncts(s.using!).map(normalConjunct).includes(c)))) return undefined;
  const names = `SELECT polic${selects.length > 1 ? 'ies' : 'y'} ${selects.map((s) => shownIdent(s.name)).join(', ')}`;
  const reach = clause === 'using' ? `reaches only rows its ${names} show${selects.length > 1 ? '' : 's'}` : `must leave each new row visible to its ${names}`;
  return `a filtered ${p.command} (PostgREST's always are: pg-safeupdate) ${reach}, and ${selects.length > 1 ? 'they keep' : 'it keeps'} \`${kept.join(' AND ')}\``;
}

/**
 * Widening an UPDATE or DELETE policy to every role admits no one new when no permissive SELECT
 * policy applies to the roles it adds: a filtered UPDATE or DELETE (PostgREST's always are:
 * pg-safeupdate) reaches only rows a SELECT policy shows, and none shows them any (supabase-swift's
 * bucket policies for authenticated beside a SELECT policy for authenticated alone). Not when an
 * invoker function writes the table: its write may read no column (writtenByInvokerFunction).
 */
function widenedRolesSeeNothing(p: CatalogPolicy, policies: CatalogPolicy[], functions: readonly CatalogFunction[]): string | undefined {
  if (p.command !== 'UPDATE' && p.command !== 'DELETE') return undefined;
  const added = ['anon', 'authenticated'].filter((r) => !p.roles.includes(r));
  if (!added.length || permissiveSelectPolicies(p, policies, (r) => added.includes(r)).length) return undefined;
  if (writtenByInvokerFunction(p, functions)) return undefined;
  return `no SELECT policy on ${p.schema}.${p.table} applies to ${added.join(' or ')}, and a filtered ${p.command} (PostgREST's always are: pg-safeupdate) reaches only rows a SELECT policy shows, so a policy for every role admits no one new`;
}

function policyMutants(p: CatalogPolicy, grants: TableGrants, policies: CatalogPolicy[], functions: readonly CatalogFunction[]): AutoMutant[] {
  const out: AutoMutant[] = [];
  const target = `${p.schema}.${p.table}`;
  const needed = commandPrivileges(p.command);
  // A policy for a command no API role holds the privilege for never decides anything.
  const unreachable = !needed.some((priv) => grants.anon.includes(priv) || grants.authenticated.includes(priv))
    ? `no API role holds ${needed.join('/')} on ${target}, so this ${p.command} policy never decides a request`
    : undefined;
  // Its clauses decide only for roles no request takes; widening its roles still reaches the API.
  const clausesUnreachable = unreachable ?? (p.apiReachable === false ? `${shownIdent(p.name)} applies only to ${p.roles.join(', ')}, a role no API request acts as (PostgREST acts as anon, authenticated or a role its authenticator is granted), so its clauses decide no request` : undefined);
  for (const [clause, expr] of [
    ['using', p.using],
    ['with check', p.withCheck],
  ] as const) {
    if (!expr) continue;
    const parts = topLevelConjuncts(expr);
    const short = clause === 'using' ? 'using' : 'check';
    /** Why removing `removed` from this clause cannot change an answer, if it cannot. */
    const equivalence = (removed: string[]) => {
      const why = clausesUnreachable ?? maskedBySelect(p, clause, removed, policies, functions) ?? trueForItsRoles(p, removed) ?? roleCheckBesideUidCheck(p, parts, removed);
      return why ? { equivalent: why } : {};
    };
    const alter = (to: string) => `alter policy ${q(p.name)} on ${rel(p.schema, p.table)} ${clause} (${to});`;
    // One check only: without it the clause admits every row (the owner test forgotten).
    if (parts.length === 1 && !isTrue(expr)) {
      out.push({
        name: `always-true-${slug(p.table)}-${slug(p.name)}-${short}`,
        kind: 'always-true',
        target,
        description: `policy ${shownIdent(p.name)} on ${target}: ${clause.toUpperCase()} (true) instead of \`${stripOuterParens(expr)}\``,
        sql: alter('true'),
        ...equivalence(parts),
      });
    }
    // An alternative dropped: rows it admitted are refused (a property must see allowed access too).
    const alternatives = topLevelDisjuncts(expr);
    if (alternatives.length >= 2) {
      alternatives.forEach((alternative, i) => {
        out.push({
          name: `drop-disjunct-${slug(p.table)}-${slug(p.name)}-${short}-${i + 1}`,
          kind: 'drop-disjunct',
          target,
          description: `policy ${shownIdent(p.name)} on ${target}: ${clause.toUpperCase()} without the alternative \`${stripOuterParens(alternative)}\` (what it admitted is refused)`,
          sql: alter(withoutDisjunct(expr, i)),
          ...(clausesUnreachable ? { equivalent: clausesUnreachable } : {}),
        });
      });
    }
    if (parts.length < 2) continue;
    parts.forEach((part, i) => {
      out.push({
        name: `drop-conjunct-${slug(p.table)}-${slug(p.name)}-${clause === 'using' ? 'using' : 'check'}-${i + 1}`,
        kind: 'drop-conjunct',
        target,
        description: `policy ${shownIdent(p.name)} on ${target}: ${clause.toUpperCase()} without \`${part}\``,
        sql: `alter policy ${q(p.name)} on ${rel(p.schema, p.table)} ${clause} (${withoutConjunct(expr, i)});`,
        ...equivalence([part]),
      });
    });
  }
  if (!p.roles.includes('public') && !(p.roles.includes('anon') && p.roles.includes('authenticated'))) {
    const whyWidenedSeesNothing = widenedRolesSeeNothing(p, policies, functions);
    out.push({
      name: `widen-roles-${slug(p.table)}-${slug(p.name)}`,
      kind: 'widen-roles',
      target,
      description: `policy ${shownIdent(p.name)} on ${target} applies to every role instead of ${p.roles.join(', ')}`,
      sql: `alter policy ${q(p.name)} on ${rel(p.schema, p.table)} to public;`,
      ...(unreachable
        ? { equivalent: unreachable }
        : !needed.some((priv) => grants.anon.includes(priv))
          ? { equivalent: `anon holds no ${needed.join('/')} privilege on ${target}, so a policy for every role admits no one new` }
          : p.roles.every((r) => r === 'authenticated') && requiresSignedInCaller(p)
            ? { equivalent: `every clause of ${shownIdent(p.name)} requires \`auth.uid() = …\` or \`auth.uid() IS NOT NULL\` (or the token's \`sub\`), itself or in an EXISTS lookup, null for anon, so a policy for every role admits no one new` }
            : whyWidenedSeesNothing
              ? { equivalent: whyWidenedSeesNothing }
              : {}),
    });
  }
  return out;
}

/**
 * `auth.uid()`, or the token's `sub` as text (`auth.jwt() ->> 'sub'`: a third-party auth's user id,
 * Clerk's), either one as `(select …)` as Postgres deparses it, compared with `=`: null, never
 * true, for a caller whose token has no `sub` (anon).
 */
const SUB = String.raw`(?:auth\.uid\(\)|\(?auth\.jwt\(\)\s*->>\s*'sub'(?:::text)?\)?)`;
const UID = String.raw`(?:${SUB}|\(\s*select\s+${SUB}(?:\s+as\s+\w+)?\s*\))`;
const COLUMN = String.raw`(?:[\w."]+|\([\w."]+\)::text)`;
const UID_EQUALITY = new RegExp(String.raw`^(?:${UID}\s*=\s*${COLUMN}|${COLUMN}\s*=\s*${UID})$`, 'i');
/** "Any signed-in user" as Supabase's docs write it: `auth.uid() IS NOT NULL`, false for anon (the social starter's profile search). */
const UID_PRESENT = new RegExp(String.raw`^${UID}\s+IS\s+NOT\s+NULL$`, 'i');

/**
 * Removing only `auth.uid() IS NOT NULL` checks from a policy for `authenticated` alone changes no
 * REST answer: a request acts as authenticated only with a token Supabase Auth issued (a custom
 * access-token hook must keep `sub`), and every such token, an anonymous sign-in's too, carries the
 * user's uuid as `sub`, so the check is true for every request the policy decides.
 */
function trueForItsRoles(p: CatalogPolicy, removed: string[]): string | undefined {
  if (!p.roles.length || !p.roles.every((r) => r === 'authenticated') || !removed.every((c) => UID_PRESENT.test(normalConjunct(c)))) return undefined;
  return `${shownIdent(p.name)} applies to authenticated only, and every authenticated request's token carries the user's id as \`sub\` (Supabase Auth issues none without it), so \`${removed.map(normalConjunct).join(' AND ')}\` is true for every request it decides`;
}

/** `auth.role() = 'authenticated'` as pg_policies prints it: the function, `(select auth.role())`, or the token's `role` claim. */
const ROLE = String.raw`(?:auth\.role\(\)|\(\s*select\s+auth\.role\(\)(?:\s+as\s+\w+)?\s*\)|\(?auth\.jwt\(\)\s*->>\s*'role'(?:::text)?\)?)`;
const AUTHENTICATED = String.raw`'authenticated'(?:::text)?`;
const ROLE_IS_AUTHENTICATED = new RegExp(String.raw`^(?:${ROLE}\s*=\s*${AUTHENTICATED}|${AUTHENTICATED}\s*=\s*${ROLE})$`, 'i');

/**
 * Dropping `auth.role() = 'authenticated'` beside a check false without a uid (`user_id = auth.uid()`,
 * a membership lookup on the caller) changes no REST answer: anon has no uid, so the rest refuses it
 * already, and every request with a uid acts as authenticated (Supabase Auth issues no other role;
 * service_role bypasses row security). Only for policies deciding for anon and authenticated alone.
 */
function roleCheckBesideUidCheck(p: CatalogPolicy, parts: string[], removed: string[]): string | undefined {
  if (!p.roles.length || !p.roles.every((r) => r === 'public' || r === 'anon' || r === 'authenticated')) return undefined;
  if (!removed.length || !removed.every((c) => ROLE_IS_AUTHENTICATED.test(normalConjunct(c)))) return undefined;
  const rest = parts.filter((c) => !removed.includes(c));
  if (!rest.some(falseWithoutUid)) return undefined;
  return `\`${removed.map(normalConjunct).join(' AND ')}\` stands beside \`${rest.map(normalConjunct).join(' AND ')}\`, false without a uid: anon (no uid) is refused by the rest already, and every request with a uid acts as authenticated (Supabase Auth issues no other role; service_role bypasses row security), so dropping it admits no one new`;
}

/** Each clause the policy has (a USING alone also checks new rows) is false without a uid: anon (no uid) passes none. */
function requiresSignedInCaller(p: CatalogPolicy): boolean {
  const clauses = [p.using, p.withCheck].filter((c): c is string => c !== null);
  return clauses.length > 0 && clauses.every(falseWithoutUid);
}

/**
 * A condition never true without a uid: a conjunct `auth.uid() = col` or `auth.uid() is not null`, or an `EXISTS (select …
 * where …)` whose condition is so (a membership lookup, `exists (select 1 from members where
 * members.user_id = (select auth.uid()) and …)`), or alternatives that all are (Tambo's `exists
 * (…) or creator_id = (select auth.uid())`).
 */
function falseWithoutUid(expr: string): boolean {
  const alternatives = topLevelDisjuncts(expr);
  if (alternatives.length > 1) return alternatives.every(falseWithoutUid);
  return topLevelConjuncts(expr).some((part) => {
    if (UID_EQUALITY.test(normalConjunct(part)) || UID_PRESENT.test(normalConjunct(part))) return true;
    const condition = existsCondition(part);
    return condition !== undefined && falseWithoutUid(condition);
  });
}

/** `x = p_arg` and `p_arg = x` in a function body, where the parameter is a lookup key. */
const EQUALITY = /([\w."]+)\s*=\s*(p_[a-z_]*id\b|p_[a-z_]*key\b|p_[a-z_]*code\b)/gi;

/** Types whose text form holds no LIKE wildcard, no backslash and one case only: ilike on them is equality. */
const PATTERN_FREE_TYPES = /^(uuid|integer|int|int2|int4|int8|smallint|bigint|boolean|bool)$/i;

/** The declared type of a parameter, from the signature's identity arguments (`p_id uuid, …`). */
export function parameterType(signature: string, param: string): string | undefined {
  const args = signature.slice(signature.indexOf('(') + 1, signature.lastIndexOf(')'));
  for (const arg of args.split(',')) {
    const words = arg.trim().replace(/^(IN|INOUT|VARIADIC)\s+/i, '').split(/\s+/);
    if (words[0]?.replace(/"/g, '') === param) return words.slice(1).join(' ');
  }
  return undefined;
}

/** The body inside the definition's dollar quotes (pg_get_functiondef: AS $function$ … $function$). */
function bodyRange(definition: string): { from: number; to: number } {
  const tag = /\bAS\s+(\$\w*\$)/i.exec(definition);
  const from = tag ? tag.index + tag[0].length : 0;
  return { from, to: tag ? definition.indexOf(tag[1], from) : definition.length };
}

function functionMutants(f: CatalogFunction): AutoMutant[] {
  const out: AutoMutant[] = [];
  const target = f.signature.replace(/"/g, '');
  const body = f.definition;
  let n = 0;
  for (const m of body.matchAll(EQUALITY)) {
    n++;
    const mutated = body.slice(0, m.index) + `${m[1]}::text ilike ${m[2]}::text` + body.slice(m.index! + m[0].length);
    const type = parameterType(f.signature, m[2]);
    out.push({
      name: `equality-to-ilike-${slug(f.name)}-${n}`,
      kind: 'equality-to-ilike',
      target,
      description: `${target}: \`${m[0]}\` compared with ilike (wildcards in the id match other rows)`,
      sql: `${mutated.trim()};`,
      ...(type && PATTERN_FREE_TYPES.test(type)
        ? { equivalent: `${m[2]} is ${type}: its text form holds no wildcard and one case only, so ilike on it matches exactly what = matches` }
        : {}),
    });
  }
  if (!f.executableByAnon || !f.executableByAuthenticated) {
    out.push({
      name: `drop-revoke-${slug(f.schema)}-${slug(f.name)}`,
      kind: 'drop-revoke',
      target,
      description: `${target}: the REVOKE is gone, so default privileges let anon and authenticated execute it`,
      sql: `grant usage on schema ${q(f.schema)} to anon, authenticated; grant execute on function ${f.signature} to anon, authenticated;`,
    });
  }
  // A definer function reachable through rpc: its WHERE filters are all that stand between the
  // caller and the rows (row security does not apply to the owner), so each conjunct dropped.
  if (isSecurityDefiner(f) && (f.executableByAnon || f.executableByAuthenticated)) {
    const { from, to } = bodyRange(body);
    whereConditions(body.slice(from, to)).map(({ start, end }) => ({ start: start + from, end: end + from })).forEach(({ start, end }, w) => {
      const condition = body.slice(start, end);
      const parts = topLevelConjuncts(condition);
      if (parts.length < 2) return;
      const [lead, trail] = [/^\s*/.exec(condition)![0], /\s*$/.exec(condition)![0]];
      parts.forEach((part, i) => {
        out.push({
          name: `function-drop-conjunct-${slug(f.name)}-${w + 1}-${i + 1}`,
          kind: 'function-drop-conjunct',
          target,
          description: `${target}: a WHERE without \`${part.replace(/\s+/g, ' ')}\` (the definer function reaches rows it should not)`,
          sql: `${(body.slice(0, start) + lead + withoutConjunct(condition, i) + trail + body.slice(end)).trim()};`,
        });
      });
    });
  }
  // A plpgsql IF is where a function or trigger guards: the guard forgotten (its branch never
  // runs), inverted, or one of its OR alternatives (`auth.uid() is null or role is null`) forgotten.
  if (/\bLANGUAGE\s+plpgsql\b/i.test(body)) {
    const { from, to } = bodyRange(body);
    ifConditions(body.slice(from, to)).map(({ start, end }) => ({ start: start + from, end: end + from })).forEach(({ start, end }, n) => {
      const condition = body.slice(start, end);
      const shown = condition.trim().replace(/\s+/g, ' ');
      const [lead, trail] = [/^\s*/.exec(condition)![0], /\s*$/.exec(condition)![0]];
      const mutate = (to: string, name: string, description: string) =>
        out.push({ name: `if-guard-${name}`, kind: 'if-guard', target, description: `${target}: ${description}`, sql: `${(body.slice(0, start) + lead + to + trail + body.slice(end)).trim()};` });
      mutate('false', `drop-${slug(f.name)}-${n + 1}`, `the IF \`${shown}\` never holds (the guard is forgotten)`);
      mutate(`not (${condition.trim()})`, `negate-${slug(f.name)}-${n + 1}`, `the IF \`${shown}\` negated`);
      const alternatives = topLevelDisjuncts(condition);
      if (alternatives.length >= 2) {
        alternatives.forEach((alternative, i) =>
          mutate(withoutDisjunct(condition, i), `drop-alternative-${slug(f.name)}-${n + 1}-${i + 1}`, `the IF \`${shown}\` without \`${alternative.replace(/\s+/g, ' ')}\` (that case no longer takes the branch)`),
        );
      }
    });
  }
  // A guard's allow-list: array['a', 'b', …] passed to a changed-columns comparison.
  for (const m of body.matchAll(/(?:changed_columns|reject_outside_allow_list)\s*\([^;]*?array\s*\[([^\]]*)\]/gi)) {
    const items = m[1].split(',').map((s) => s.trim()).filter(Boolean);
    items.forEach((item, i) => {
      if (/updated_at/.test(item)) return;
      const list = items.filter((_, j) => j !== i).join(', ');
      const mutated = body.replace(m[1], list);
      out.push({
        name: `allow-list-drop-${slug(f.name)}-${slug(item)}`,
        kind: 'allow-list-drop',
        target,
        description: `${target}: guard allow-list without ${item} (an owner can no longer change it)`,
        sql: `${mutated.trim()};`,
      });
    });
  }
  return out;
}

const isTrue = (expr: string | null) => expr !== null && /^\(*\s*true\s*\)*$/i.test(expr.trim());

/** Does a permissive policy that is always true let `role` use `privilege` on every row? */
function openPolicy(policies: CatalogPolicy[], role: 'anon' | 'authenticated', privilege: string): boolean {
  return policies.some((p) => {
    if ((p.permissive ?? 'PERMISSIVE') !== 'PERMISSIVE') return false;
    if (!(p.roles.includes(role) || p.roles.includes('public'))) return false;
    if (p.command !== 'ALL' && p.command !== privilege) return false;
    // USING decides which rows are seen or touched; WITH CHECK (USING when absent) the rows written.
    const using = privilege === 'INSERT' ? true : isTrue(p.using);
    const check = privilege === 'SELECT' || privilege === 'DELETE' ? true : isTrue(p.withCheck ?? (p.command === 'ALL' || p.command === 'UPDATE' ? p.using : null));
    return using && check;
  });
}

/**
 * Disabling row security changes nothing when no restrictive policy applies and every privilege
 * an API role holds on the table is granted, for that role, by a permissive policy that is
 * always true (e.g. a read-only catalog with `for select using (true)`).
 */
function rowSecurityInert(table: Catalog['rowSecurityTables'][number], policies: CatalogPolicy[]): string | undefined {
  const own = policies.filter((p) => p.schema === table.schema && p.table === table.table);
  if (own.some((p) => p.permissive === 'RESTRICTIVE')) return undefined;
  const held = (['anon', 'authenticated'] as const).flatMap((role) => table[role].map((privilege) => ({ role, privilege })));
  if (!held.every(({ role, privilege }) => openPolicy(own, role, privilege))) return undefined;
  const privileges = [...new Set(held.map((h) => h.privilege))];
  // headless-vector-search's docs tables, granted to service_role alone: no API request meets their row security.
  if (!privileges.length) return `anon and authenticated hold no privilege on ${table.schema}.${table.table}, so no API request reaches its rows, row security or not (service_role bypasses it)`;
  return `every privilege the API roles hold on ${table.schema}.${table.table} (${privileges.join('/')}) is granted by a permissive policy that is always true, so row security filters nothing`;
}

/**
 * What disabling row security opens: each privilege an API role holds on the table that no
 * permissive policy for that role and command lets it use now (a read-only policy beside
 * Supabase's default write grants). A property sending only reads cannot see it: named, so a
 * survivor says which requests would judge it (mvp-boilerplate's `prices`).
 */
function openedByDisabling(table: Catalog['rowSecurityTables'][number], policies: CatalogPolicy[]): string | undefined {
  const own = policies.filter((p) => p.schema === table.schema && p.table === table.table && (p.permissive ?? 'PERMISSIVE') === 'PERMISSIVE');
  const hasPolicy = (role: string, privilege: string) => own.some((p) => (p.roles.includes(role) || p.roles.includes('public')) && (p.command === 'ALL' || p.command === privilege));
  const byPrivilege = new Map<string, string[]>();
  for (const role of ['anon', 'authenticated'] as const) {
    for (const privilege of table[role]) if (!hasPolicy(role, privilege)) byPrivilege.set(privilege, [...(byPrivilege.get(privilege) ?? []), role]);
  }
  if (!byPrivilege.size) return undefined;
  // Grouped by the roles it opens them to, in the usual command order.
  const order = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];
  const groups = new Map<string, string[]>();
  for (const [privilege, roles] of [...byPrivilege].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))) groups.set(roles.join(' and '), [...(groups.get(roles.join(' and ')) ?? []), privilege]);
  const opened = [...groups].map(([roles, privileges]) => `${privileges.join(', ')} to ${roles}`).join('; ');
  return `it opens ${opened}, which no policy allows now: a property sending those requests judges it`;
}

export function deriveMutants(catalog: Catalog): AutoMutant[] {
  const out: AutoMutant[] = [];
  for (const p of catalog.policies) {
    const table = catalog.rowSecurityTables.find((t) => t.schema === p.schema && t.table === p.table);
    out.push(...policyMutants(p, table ?? { anon: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'], authenticated: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] }, catalog.policies, catalog.functions));
  }
  for (const t of catalog.rowSecurityTables) {
    const inert = rowSecurityInert(t, catalog.policies);
    const opened = openedByDisabling(t, catalog.policies);
    out.push({
      name: `disable-row-security-${slug(t.schema)}-${slug(t.table)}`,
      kind: 'disable-row-security',
      target: `${t.schema}.${t.table}`,
      description: `${t.schema}.${t.table}: row security disabled (grants alone decide)${opened ? `; ${opened}` : ''}`,
      sql: `alter table ${rel(t.schema, t.table)} disable row level security;`,
      ...(inert ? { equivalent: inert } : {}),
    });
  }
  for (const f of catalog.functions) {
    // A helper the policies call (e.g. in a WITH CHECK) is reached through those tables' requests.
    const call = new RegExp(`(^|[^\\w$])${escapeRegExp(f.name)}\\s*\\(`);
    const callers = [...new Set(catalog.policies.filter((p) => call.test(p.using ?? '') || call.test(p.withCheck ?? '')).map((p) => `${p.schema}.${p.table}`))];
    const triggerOn = f.triggerTables?.length ? { triggerOn: f.triggerTables } : {};
    // A trigger function whose every trigger is disabled runs in no request (GaryAustin1's roles.sql
    // leaves on_custom_role_change disabled): its variants survived as "a gap".
    const idle = !f.triggerTables?.length && f.disabledTriggerTables?.length && RETURNS_TRIGGER.test(f.definition)
      ? { equivalent: `it runs only from a disabled trigger (on ${f.disabledTriggerTables.join(', ')}): no request runs it` }
      : {};
    out.push(...functionMutants(f).map((m) => ({ ...m, ...(callers.length ? { calledByPoliciesOf: callers } : {}), ...triggerOn, ...idle })));
  }
  for (const v of catalog.views.filter((view) => view.securityInvoker)) {
    out.push({
      name: `view-as-definer-${slug(v.schema)}-${slug(v.name)}`,
      kind: 'view-as-definer',
      target: `${v.schema}.${v.name}`,
      description: `${v.schema}.${v.name}: runs with its owner's rights (row rules of the tables below are bypassed)`,
      sql: `alter view ${rel(v.schema, v.name)} set (security_invoker = false);`,
    });
  }
  return out;
}
