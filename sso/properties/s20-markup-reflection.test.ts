/**
 * S20 (markup reflection): the context reading that decides whether a verbatim value adds markup,
 * and the property itself against the server written in a different hand: it names an unknown
 * `app` escaped (passes, the value was seen escaped) or, with the switch, verbatim (WARN).
 */
import { describe, it, expect, afterAll } from 'vitest';
import example from '../examples/sso.config.json' with { type: 'json' };
import { parseSsoConfig } from '../config.ts';
import { otherHandConfig, startOtherHandServer, type OtherHandServer } from '../testing/other-hand-server.ts';
import { runSsoProperties } from './index.ts';
import { breaksOut, htmlContextAt } from './s20-markup-reflection.ts';

const servers: OtherHandServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('S20: where a reflected value lands and whether it can end that place', () => {
  const at = (html: string) => htmlContextAt(html.replace('@', ''), html.indexOf('@'));
  it.each([
    ['<p>@</p>', { kind: 'text' }],
    ['<a href="@">', { kind: 'attribute', quote: '"' }],
    ["<a href='@'>", { kind: 'attribute', quote: "'" }],
    ['<a href=@>', { kind: 'attribute', quote: '' }],
    ['<a href = "x" title="@">', { kind: 'attribute', quote: '"' }],
    ['<a href="x>y" @>', { kind: 'tag' }],
    ['<!-- <p> @ -->', { kind: 'comment' }],
    ['<title>a <b> @</title>', { kind: 'raw-text', element: 'title' }],
    ['<script>var a = "<p>"; @</script>', { kind: 'raw-text', element: 'script' }],
    ['<script>x</script><p>@', { kind: 'text' }],
    ['<input value="a"><p>@', { kind: 'text' }],
  ])('%s', (html, expected) => expect(at(html)).toEqual(expected));

  it('a value breaks out only where it can end its context (no false alarm on a correct escaping)', () => {
    // Markup in text, a quote in its own quoted attribute: XSS.
    expect(breaksOut('<script>x()</script>', { kind: 'text' })).toBe(true);
    expect(breaksOut('" onfocus="x()', { kind: 'attribute', quote: '"' })).toBe(true);
    expect(breaksOut('</title><script>', { kind: 'raw-text', element: 'title' })).toBe(true);
    expect(breaksOut('--><img>', { kind: 'comment' })).toBe(true);
    // `<` inside a double-quoted attribute value, a quote in text, markup in <title>: inert.
    expect(breaksOut('<script>x()</script>', { kind: 'attribute', quote: '"' })).toBe(false);
    expect(breaksOut('" onfocus="x()', { kind: 'text' })).toBe(false);
    expect(breaksOut("' onfocus='x()", { kind: 'attribute', quote: '"' })).toBe(false);
    expect(breaksOut('<script>x()</script>', { kind: 'raw-text', element: 'title' })).toBe(false);
  });
});

describe('S20 against the server written in a different hand', () => {
  const config = parseSsoConfig(otherHandConfig(example));
  const check = async (faults: 'markup-reflection'[]) => {
    const srv = await startOtherHandServer({ clients: config.clients, users: config.users, faults });
    servers.push(srv);
    const [r] = await runSsoProperties({ webUrl: srv.webUrl, apiUrl: srv.apiUrl, config }, { seed: 3, numRuns: 10, only: ['S20'] });
    return r!;
  };

  it('passes when the error page names the unknown app escaped, and warns when it writes it verbatim', async () => {
    const [correct, reflecting] = await Promise.all([check([]), check(['markup-reflection'])]);
    expect(correct.status, JSON.stringify(correct)).toBe('passed');
    // The value did come back, escaped: the pass is not for want of a reflection.
    expect(Object.keys(correct.counts).filter((k) => k.endsWith(':escaped')), JSON.stringify(correct.counts)).toEqual(
      expect.arrayContaining(['login-error:app:escaped', 'logout-error:app:escaped']),
    );
    expect(reflecting.status).toBe('failed');
    expect(reflecting.failure!.message).toMatch(/^the error page of \/log(in|out) \(.*app=.*\) writes the value unescaped into text, where it adds markup \(cross-site scripting\)/);
  }, 60_000);
});
