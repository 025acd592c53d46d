import fc from 'fast-check';
import { badAppQueries, type BadApp } from './generators.ts';
import { expectThat, oneCasePerVariant, pickClient, runFcProperty, type PropertyContext, type SsoProperty } from './kit.ts';

/** True when a response forbids being framed by other sites. */
export function forbidsFraming(headers: Record<string, string>): boolean {
  const xfo = (headers['x-frame-options'] ?? '').trim().toUpperCase();
  const csp = headers['content-security-policy'] ?? '';
  const fa = /(?:^|;)\s*frame-ancestors\s+([^;]*)/i.exec(csp)?.[1]?.trim().toLowerCase();
  return xfo === 'DENY' || xfo === 'SAMEORIGIN' || fa === "'none'" || fa === "'self'";
}

/** The login page (bad: null) or the error page of a bad app; every bad-app variant also runs once as an example. */
const pageCase = (ctx: PropertyContext, bad: fc.Arbitrary<BadApp | null>) => fc.record({ client: pickClient(ctx), bad });

/** The login page and its error pages forbid framing (clickjacking of the credentials form). */
export const S15: SsoProperty = {
  id: 'S15',
  title: 'Login and error pages forbid framing (CSP frame-ancestors or X-Frame-Options)',
  severity: 'M',
  run: (ctx, opts) =>
    runFcProperty(
      S15,
      opts,
      pageCase(ctx, fc.option(fc.oneof(...badAppQueries(ctx.config.clients)), { freq: 2 })),
      async ({ client, bad }, counts) => {
        const seen = await ctx.driver.login(ctx.newBrowser(), bad ? bad.query : [['app', client.appId]]);
        if (seen.kind !== 'page') return void counts.add('not-a-page');
        counts.add(`${bad ? `error-page:${bad.variant}` : 'login-page'}:${forbidsFraming(seen.headers) ? 'protected' : 'frameable'}`);
        expectThat(forbidsFraming(seen.headers), `the ${bad ? `error page (${bad.variant})` : 'login page'} must forbid framing`, "frame-ancestors 'none'|'self' or X-Frame-Options DENY|SAMEORIGIN", {
          'x-frame-options': seen.headers['x-frame-options'] ?? null,
          'content-security-policy': seen.headers['content-security-policy'] ?? null,
        });
      },
      { examples: oneCasePerVariant([fc.constant<BadApp | null>(null), ...badAppQueries(ctx.config.clients)], (bad) => pageCase(ctx, bad), opts.seed) },
    ),
};
