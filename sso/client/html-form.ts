/**
 * Just enough HTML reading for a login form: the forms of a page with their action, method and
 * inputs (hidden ones keep their values: CSRF tokens, transaction ids). Not a general parser.
 */
export interface HtmlInput {
  name: string;
  type: string;
  value: string;
}
export interface HtmlForm {
  action: string | null;
  method: string;
  inputs: HtmlInput[];
}

const decode = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", apos: "'" })[e]!);

export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  const inner = tag.replace(/^<\s*[a-zA-Z]+/, '').replace(/\/?>$/, '');
  for (let m = re.exec(inner); m; m = re.exec(inner)) out[m[1]!.toLowerCase()] = decode(m[2] ?? m[3] ?? m[4] ?? '');
  return out;
}

export function formsOf(html: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  const re = /<form\b[^>]*>([\s\S]*?)<\/form\s*>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const attrs = attributes(m[0].slice(0, m[0].indexOf('>') + 1));
    const inputs: HtmlInput[] = [];
    for (const tag of m[1]!.match(/<input\b[^>]*>/gi) ?? []) {
      const a = attributes(tag);
      if (a['name'] !== undefined) inputs.push({ name: a['name'], type: (a['type'] ?? 'text').toLowerCase(), value: a['value'] ?? '' });
    }
    forms.push({ action: attrs['action'] ?? null, method: (attrs['method'] ?? 'get').toUpperCase(), inputs });
  }
  return forms;
}

/** The form a person types into: it has a visible `usernameField` and a `passwordField`. */
export function loginFormOf(html: string, usernameField: string, passwordField: string): HtmlForm | null {
  return formsOf(html).find((f) => f.inputs.some((i) => i.name === usernameField && i.type !== 'hidden') && f.inputs.some((i) => i.name === passwordField && i.type !== 'hidden')) ?? null;
}

/** What a page shows a person, briefly (for "the login page said …" messages). */
export function visibleText(html: string, max = 300): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return decode(text.length > max ? `${text.slice(0, max)}…` : text);
}
