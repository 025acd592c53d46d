/**
 * The one e-mail domain a project's e-mail columns hold, read off their CHECKs (`kkumail ~
 * '@kkumail\.com$'`, `kkumail ~* '^[a-z0-9._-]+@kkumail\.com$'`, `lower(kkumail) LIKE
 * '%@kkumail.com'`): the worlds drew faker's domains, and every world naming such a row was
 * dropped (stranger-app-12: 2,263 of 7,686 cases; -11, -13). `policyfuzz init` writes the domain
 * in the pack's setting (NormalizedDraws.domainSetting), and the generators draw every e-mail
 * there. Pure (no I/O).
 */
import type { NormalizedDraws } from '../pack.ts';
import type { ColumnShape } from '../introspection/table-shapes.ts';
import type { CheckForm } from '../introspection/check-forms.ts';
import { refusesValue } from '../target/realizable.ts';
import { withDomain } from '../model/email-address.ts';


const DOMAIN = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

/**
 * The domain a format CHECK ends an e-mail with: its literal tail after the `@` (`@kkumail\.com$`),
 * or the first of literal alternatives (`@(kkumail\.com|kku\.ac\.th)$` gives kkumail.com: every
 * e-mail drawn there holds). Undefined where the part after the `@` is not literal: a format
 * (`@[a-z0-9.-]+\.(com|net)$`) names no domain, and a sample of it would draw every e-mail at one.
 */
export function domainOfPattern(check: Extract<CheckForm, { kind: 'pattern' }>): string | undefined {
  const literal = '(?:[A-Za-z0-9-]|\\\\\\.)+';
  const tail = new RegExp(`@(${literal})\\$$`).exec(check.pattern)?.[1] ?? new RegExp(`@\\((${literal})(?:\\|${literal})*\\)\\$$`).exec(check.pattern)?.[1];
  const domain = tail?.replace(/\\\./g, '.').toLowerCase();
  return domain !== undefined && DOMAIN.test(domain) ? domain : undefined;
}

/**
 * Per setting the draws name (`domainSetting`): the one domain whose e-mails every CHECK of every
 * such column holds, where a CHECK refuses the pack's sample in its own domain; with its note.
 * Where the CHECKs name several domains, or the sample in the one named is still refused, a
 * `to do` note and no value.
 */
export function proposeEmailDomain(
  draws: readonly NormalizedDraws[],
  targetTable: (modelTable: string) => string,
  targetColumn: (modelTable: string, column: string) => string | null,
  shapeOf: (targetTable: string) => readonly ColumnShape[] | undefined,
): { path: string; domain?: string; note: string }[] {
  const paths = [...new Set(draws.flatMap((d) => (d.domainSetting ? [d.domainSetting] : [])))];
  return paths.flatMap((path) => {
    const columns = draws
      .filter((d) => d.domainSetting === path)
      .flatMap((d) =>
        d.columns.flatMap((c) => {
          const name = targetColumn(d.table, c);
          const shape = name === null ? undefined : shapeOf(targetTable(d.table))?.find((x) => x.name === name);
          return shape ? [{ said: `${targetTable(d.table)}.${name}`, checks: shape.checks ?? [], sample: d.sample }] : [];
        }),
      );
    const named = columns.flatMap((col) =>
      col.checks.flatMap((check) => {
        const domain = check.kind === 'pattern' && refusesValue(check, col.sample) ? domainOfPattern(check) : undefined;
        return domain ? [{ domain, by: `${col.said} by ${check.constraint}` }] : [];
      }),
    );
    const domains = [...new Set(named.map((n) => n.domain))];
    if (!domains.length) return [];
    if (domains.length > 1) return [{ path, note: `to do: e-mail CHECKs name several domains (${named.map((n) => `${n.domain} in ${n.by}`).join(', ')}): model.${path} draws every e-mail in one; set it to the one your people sign in with, or accept the cases the others refuse` }];
    const [domain] = domains;
    const refusing = columns.flatMap((col) => col.checks.filter((check) => refusesValue(check, withDomain(col.sample, domain))).map((check) => `${col.said} by ${check.constraint}`));
    if (refusing.length) return [{ path, note: `to do: ${named.map((n) => n.by).join(', ')} holds e-mails in ${domain} only, but ${refusing.join(', ')} refuses ${withDomain(columns[0].sample, domain)}: model.${path} is left unset` }];
    return [{ path, domain, note: `model.${path}: ${domain} (${named.map((n) => n.by).join(', ')} holds e-mails in that domain only: every e-mail is drawn there)` }];
  });
}
