/**
 * A plpgsql helper written with guard clauses (stranger-app-16's `can_handle_vs`):
 *
 *   declare v_role text := public.current_user_role();
 *   begin
 *     if v_role is null then return false; end if;
 *     if v_role = 'vp_admin' then return p_dept = public.current_user_dept(); end if;
 *     return v_role in ('admin', 'staff') or public.current_user_has_permission('vs');
 *   end;
 *
 * answers exactly what the searched CASE of its clauses answers (`case when v_role is null then
 * false when … else <the last return> end`): read so, the readers of a helper's answer
 * (propose.ts answerOf) see the permission the last RETURN grants on. Each declared variable set
 * from an expression (`v_role text := public.current_user_role()`) is replaced by that expression,
 * so the answer names what it reads. Pure.
 */
import { escapeRegExp } from '../regexp.ts';

/** One `if <condition> then return <result>; end if;`, nothing else inside it. */
const GUARD_CLAUSE = /^if\s+([\s\S]+?)\s+then\s+return\s+([\s\S]+?)\s*;\s*end\s+if\s*;\s*/i;

/** `name [constant] type := expr;` (or `default expr`) of a DECLARE section, each. */
function declaredExpressions(declarations: string): Map<string, string> | undefined {
  const out = new Map<string, string>();
  for (const statement of declarations.split(';').map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\w+)\s+(?:constant\s+)?[\w.\s[\]()"]+?\s*(?::=|=|\bdefault\b)\s*([\s\S]+)$/i.exec(statement);
    if (!m) return undefined;
    out.set(m[1], m[2].trim());
  }
  return out;
}

/** The body's answer as one CASE expression, or undefined where the body is anything but guard clauses and a last RETURN. */
export function guardClausesAsCase(body: string): string | undefined {
  const shape = /^(?:declare\s+([\s\S]*?))?\s*begin\s+([\s\S]*?)\s*end\s*;?$/i.exec(body.trim());
  if (!shape) return undefined;
  const variables = declaredExpressions(shape[1] ?? '');
  if (!variables) return undefined;
  let rest = shape[2];
  const branches: string[] = [];
  for (let clause = GUARD_CLAUSE.exec(rest); clause; clause = GUARD_CLAUSE.exec(rest)) {
    // An IF holding more than a RETURN (an ELSIF, a second statement) is no guard clause.
    if (/\b(?:elsif|elseif|else)\b|;/i.test(clause[1]) || /;/.test(clause[2])) return undefined;
    branches.push(`when ${clause[1]} then ${clause[2]}`);
    rest = rest.slice(clause[0].length);
  }
  const last = /^return\s+([\s\S]+?)\s*;$/i.exec(rest.trim());
  if (!branches.length || !last || /;/.test(last[1])) return undefined;
  let answer = `case ${branches.join(' ')} else ${last[1]} end`;
  for (const [name, expr] of variables) answer = answer.replace(new RegExp(`\\b${escapeRegExp(name)}\\b`, 'g'), `(${expr})`);
  return answer;
}
