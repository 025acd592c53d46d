/**
 * Just enough HTML reading to submit a login form as a browser would: find the form that holds
 * the password field, its action and method, and every input it would send (hidden CSRF tokens,
 * transaction ids, …). No scripts run, so a page that builds its form in JavaScript needs --browser.
 */
export interface ParsedForm {
  /** Absolute URL the form submits to (the page's own URL when the action is empty). */
  action: string;
  method: 'GET' | 'POST';
  /** Every successful control except the credentials, in document order. */
  fields: [string, string][];
  /** Names of all inputs, for messages. */
  inputNames: string[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) ? String.fromCodePoint(n) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export function attributesOf(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const body = tag.replace(/^<\s*[a-z0-9]+/i, '').replace(/\/?>$/, '');
  for (const m of body.matchAll(/([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g)) {
    attrs[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/** The login form of `html` (served at `pageUrl`): the form with a password input named `passwordField`. */
export function findLoginForm(html: string, pageUrl: string, passwordField: string): ParsedForm | null {
  for (const m of html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form\s*>/gi)) {
    const formTag = m[0].slice(0, m[0].indexOf('>') + 1);
    const inner = m[1]!;
    const controls = [...inner.matchAll(/<(input|button|select|textarea)\b[^>]*>/gi)].map((c) => ({ tag: c[1]!.toLowerCase(), attrs: attributesOf(c[0]) }));
    const isPassword = (c: (typeof controls)[number]) => c.tag === 'input' && c.attrs['name'] === passwordField && (c.attrs['type'] ?? '').toLowerCase() === 'password';
    if (!controls.some(isPassword)) continue;
    const attrs = attributesOf(formTag);
    const fields: [string, string][] = [];
    let submitTaken = false;
    for (const c of controls) {
      const name = c.attrs['name'];
      if (!name || 'disabled' in c.attrs) continue;
      const type = (c.attrs['type'] ?? (c.tag === 'button' ? 'submit' : 'text')).toLowerCase();
      if (type === 'submit' || type === 'image') {
        // A browser sends the name of the button that was clicked: the first one.
        if (!submitTaken) fields.push([name, c.attrs['value'] ?? '']);
        submitTaken = true;
        continue;
      }
      if (type === 'button' || type === 'reset' || type === 'file') continue;
      if ((type === 'checkbox' || type === 'radio') && !('checked' in c.attrs)) continue;
      if (c.tag === 'select' || c.tag === 'textarea') continue;
      fields.push([name, c.attrs['value'] ?? (type === 'checkbox' || type === 'radio' ? 'on' : '')]);
    }
    return {
      action: new URL(attrs['action'] || pageUrl, pageUrl).href,
      method: (attrs['method'] ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET',
      fields,
      inputNames: controls.map((c) => c.attrs['name']).filter((n): n is string => !!n),
    };
  }
  return null;
}

/** Title and visible text of a page, shortened, for messages about what a page showed. */
export function pageSummary(html: string, max = 300): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]?.trim();
  const text = decodeEntities(
    html
      .replace(/<(script|style|title)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  const s = `${title ? `title "${decodeEntities(title)}"; ` : ''}text "${text.length > max ? `${text.slice(0, max)}…` : text}"`;
  return s;
}
