import fc from 'fast-check';
import { FormPostDriver } from '../client/form-driver.ts';
import type { FrontObservation } from '../client/driver.ts';
import type { QueryPairs } from '../model/front-channel.ts';
import { expectThat, oneCasePerVariant, pickClient, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';

/**
 * Where an HTML parser is at a given offset: in text, in a tag (between attributes), in a quoted
 * or unquoted attribute value, in a comment, or in the raw text of `<script>`/`<style>` or the
 * escapable raw text of `<title>`/`<textarea>` (only their own end tag ends them). Just enough of
 * the HTML tokenizer to say whether a reflected value can end the context it lands in.
 */
export type HtmlContext =
  | { kind: 'text' }
  | { kind: 'tag' }
  | { kind: 'attribute'; quote: '"' | "'" | '' }
  | { kind: 'comment' }
  | { kind: 'raw-text'; element: string };

const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes']);

export function htmlContextAt(html: string, offset: number): HtmlContext {
  let i = 0;
  let ctx: HtmlContext = { kind: 'text' };
  let tagName = '';
  let closing = false;
  while (i < offset) {
    const c = html[i]!;
    switch (ctx.kind) {
      case 'text':
        if (html.startsWith('<!--', i)) {
          ctx = { kind: 'comment' };
          i += 4;
          continue;
        }
        if (c === '<' && /[A-Za-z/!?]/.test(html[i + 1] ?? '')) {
          closing = html[i + 1] === '/';
          const name = /^<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(html.slice(i, i + 40));
          tagName = name ? name[1]!.toLowerCase() : '';
          ctx = { kind: 'tag' };
          i += name ? name[0].length : 2;
          continue;
        }
        break;
      case 'comment':
        if (html.startsWith('-->', i)) {
          ctx = { kind: 'text' };
          i += 3;
          continue;
        }
        break;
      case 'raw-text':
        if (html.slice(i, i + 2 + ctx.element.length).toLowerCase() === `</${ctx.element}`) {
          i += 2 + ctx.element.length;
          ctx = { kind: 'tag' };
          tagName = '';
          closing = true;
          continue;
        }
        break;
      case 'tag':
        if (c === '>') {
          ctx = !closing && RAW_TEXT.has(tagName) ? { kind: 'raw-text', element: tagName } : { kind: 'text' };
        } else if (c === '=') {
          let j = i + 1;
          while (/\s/.test(html[j] ?? '')) j++;
          if (j >= offset) return { kind: 'attribute', quote: '' };
          const q = html[j];
          ctx = { kind: 'attribute', quote: q === '"' || q === "'" ? q : '' };
          i = q === '"' || q === "'" ? j + 1 : j;
          continue;
        }
        break;
      case 'attribute':
        if (ctx.quote ? c === ctx.quote : /[\s>]/.test(c)) {
          if (!ctx.quote && c === '>') {
            ctx = !closing && RAW_TEXT.has(tagName) ? { kind: 'raw-text', element: tagName } : { kind: 'text' };
          } else ctx = { kind: 'tag' };
        }
        break;
    }
    i++;
  }
  return ctx;
}

/** Whether `value`, written verbatim at a point in context `ctx`, can end that context (and so add markup). */
export function breaksOut(value: string, ctx: HtmlContext): boolean {
  switch (ctx.kind) {
    case 'text':
      return /<[A-Za-z/!?]/.test(value);
    case 'comment':
      return value.includes('-->') || value.includes('--!>');
    case 'raw-text':
      return value.toLowerCase().includes(`</${ctx.element}`);
    case 'tag':
      return /[\s>/"'=]/.test(value);
    case 'attribute':
      return ctx.quote ? value.includes(ctx.quote) : /[\s>]/.test(value);
  }
}

function describeContext(ctx: HtmlContext): string {
  switch (ctx.kind) {
    case 'text':
      return 'text';
    case 'comment':
      return 'a comment';
    case 'raw-text':
      return `<${ctx.element}>`;
    case 'tag':
      return 'a tag';
    case 'attribute':
      return ctx.quote ? `a ${ctx.quote === '"' ? 'double' : 'single'}-quoted attribute` : 'an unquoted attribute';
  }
}

/**
 * Hostile values, each for another context. `m` is a per-case marker so a match can only be the
 * reflection of this case's value.
 */
const PAYLOADS: readonly { variant: string; make: (m: string) => string }[] = [
  { variant: 'script', make: (m) => `<script>pf${m}()</script>` },
  { variant: 'img-breakout', make: (m) => `"><img src=x onerror=pf${m}()>` },
  { variant: 'svg-breakout-single', make: (m) => `'><svg onload=pf${m}()>` },
  { variant: 'event-double', make: (m) => `" autofocus onfocus="pf${m}()` },
  { variant: 'event-single', make: (m) => `' autofocus onfocus='pf${m}()` },
  { variant: 'close-title', make: (m) => `</title><script>pf${m}()</script>` },
  { variant: 'close-textarea', make: (m) => `</textarea><img src=x onerror=pf${m}()>` },
  { variant: 'close-script', make: (m) => `</script><script>pf${m}()</script>` },
  { variant: 'close-comment', make: (m) => `--><img src=x onerror=pf${m}()>` },
];

/** Where the value goes: an error page (bad `app`), the login page (beside a good `app`), or a failed login. */
type Place = 'login-error:app' | 'login-error:app-beside-good' | 'logout-error:app' | 'login-page:state' | 'login-page:redirect_uri' | 'login-page:next' | 'failed-login:username';
const PLACES: readonly Place[] = ['login-error:app', 'login-error:app-beside-good', 'logout-error:app', 'login-page:state', 'login-page:redirect_uri', 'login-page:next', 'failed-login:username'];

interface ReflectionCase {
  place: Place;
  variant: string;
  /** The hostile value, with this case's marker (`pf<6 hex>`). */
  value: string;
  appId: string;
}

const markerArb = fc.integer({ min: 0, max: 0xffffff }).map((n) => n.toString(16).padStart(6, '0'));
const caseArb = (ctx: PropertyContext, place: fc.Arbitrary<Place>, payload: fc.Arbitrary<(typeof PAYLOADS)[number]>): fc.Arbitrary<ReflectionCase> =>
  fc
    .record({ place, payload, marker: markerArb, appId: pickClient(ctx).map((c) => c.appId) })
    .map(({ place, payload, marker, appId }) => ({ place, variant: payload.variant, value: payload.make(marker), appId }));

/**
 * Markup reflection (cross-site scripting) on the front channel: an `app` value with markup on
 * the error pages of `/login` and `/logout`, markup in other login parameters on the login page,
 * and a username with markup on the failed-login page. A page may leave the value out, or show
 * it escaped; written verbatim where it can end its context (text, attribute, comment, raw
 * text), it is a finding. Answers that are not HTML (a declared non-HTML content type) and
 * redirects are not judged. Not in the spec: a should.
 */
export const S20: SsoProperty = {
  id: 'S20',
  title: 'Login and error pages never reflect markup unescaped (app, login parameters, username)',
  severity: 'S',
  run: (ctx, opts) => {
    const web = new FormPostDriver(ctx.webUrl, ctx.http, ctx.config.loginPage);
    return runFcProperty(
      S20,
      opts,
      caseArb(ctx, fc.constantFrom(...PLACES), fc.constantFrom(...PAYLOADS)),
      async ({ place, variant, value, appId }, counts) => {
        const marker = /pf([0-9a-f]{6})/.exec(value)![1]!;
        counts.add(`variant ${variant}`);
        const browser = ctx.newBrowser();
        const [page, param] = place.split(':') as [string, string];
        let seen: FrontObservation;
        if (page === 'logout-error') seen = await web.logout(browser, [['app', value]]);
        else if (page === 'failed-login') {
          const login = await web.loginForm(browser, [['app', appId]]);
          if (!login.form) return void counts.add(`${place}:no-form`);
          seen = await web.login(browser, [['app', appId]], { username: value, password: `not-the-password-${marker}` });
        } else {
          const query: QueryPairs =
            param === 'app' ? [['app', value]] : param === 'app-beside-good' ? [['app', appId], ['app', value]] : [['app', appId], [param, value]];
          seen = await web.login(browser, query);
        }
        if (seen.kind === 'redirect') return void counts.add(`${place}:redirect`);
        const type = (seen.headers['content-type'] ?? '').toLowerCase();
        // A declared non-HTML type is not rendered as a page; no type may be sniffed as HTML.
        if (type && !/html|xml/.test(type)) return void counts.add(`${place}:not-html`);
        const body = seen.body ?? '';
        let at = body.indexOf(value);
        if (at < 0) counts.add(`${place}:${body.includes(`pf${marker}`) ? 'escaped' : 'absent'}`);
        while (at >= 0) {
          const where = htmlContextAt(body, at);
          const excerpt = body.slice(Math.max(0, at - 60), at + value.length + 20).replace(/\s+/g, ' ');
          counts.add(`${place}:verbatim-in-${where.kind}`);
          const pageName = { 'login-error': 'the error page of /login', 'logout-error': 'the error page of /logout', 'login-page': 'the login page', 'failed-login': 'the failed-login page' }[page];
          const asked = param === 'username' ? `username ${value}` : param === 'app-beside-good' ? `app=${appId}&app=${value}` : param === 'app' ? `app=${value}` : `app=${appId}&${param}=${value}`;
          expectThat(
            !breaksOut(value, where),
            `${pageName} (${asked}) writes the value unescaped into ${describeContext(where)}, where it adds markup (cross-site scripting); escape it or leave it out`,
            { reflected: 'escaped or left out' },
            { reflected: `verbatim in ${describeContext(where)}`, status: seen.status, excerpt },
          );
          at = body.indexOf(value, at + 1);
        }
      },
      {
        examples: oneCasePerVariant(
          [...PLACES.map((p) => caseArb(ctx, fc.constant(p), fc.constantFrom(...PAYLOADS))), ...PAYLOADS.map((p) => caseArb(ctx, fc.constantFrom(...PLACES), fc.constant(p)))],
          (c) => c,
          opts.seed,
        ),
      },
    );
  },
};
