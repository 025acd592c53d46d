import { describe, it, expect } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { sameJson, structuralDiff } from './compare.ts';
import { hiddenText, structureIn } from './structure.ts';
import { formsOf, loginFormOf, visibleText } from '../client/html-form.ts';

describe('answers compared as structures', () => {
  it('member order does not matter; differences are listed path by path', () => {
    expect(sameJson({ ok: false, error: 'AUTH0001' }, { error: 'AUTH0001', ok: false })).toBe(true);
    expect(structuralDiff({ status: 200, body: { ok: true, profile: { firstname: 'A' } } }, { status: 200, body: { ok: true, profile: { firstName: 'A' } } })).toEqual([
      'body.profile.firstname: expected "A", observed (missing)',
      'body.profile.firstName: expected (absent), observed "A"',
    ]);
    expect(structuralDiff({ status: 401 }, { status: 200 })).toEqual(['status: expected 401, observed 200']);
  });
});

describe('structure in codes and tokens', () => {
  const ids = ['somchai.j', 'U-10001', 'EMP-004211'];
  it('random UUIDv4 codes and 256-bit tokens show none', () => {
    expect(structureIn('code', Array.from({ length: 40 }, () => randomUUID()), ids)).toBeNull();
    expect(structureIn('access token', Array.from({ length: 40 }, () => randomBytes(32).toString('base64url')), ids)).toBeNull();
  });
  it('a signed JWT is judged by its signature only', () => {
    const jwt = () => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"sub":"U-10001"}').toString('base64url')}.${randomBytes(32).toString('base64url')}`;
    expect(structureIn('access token', [jwt(), jwt(), jwt()], ids)).toBeNull();
  });
  it('finds text, identities, shared prefixes and counters', () => {
    expect(hiddenText(Buffer.from('u-20001:5').toString('base64url'))).toBe('u-20001:5');
    expect(structureIn('access token', [Buffer.from('u-20001:5').toString('base64url')], ids)?.why).toMatch(/decodes to text "u-20001:5"/);
    expect(structureIn('access token', [`tok_somchai.j_${randomBytes(8).toString('hex')}`], ids)?.why).toMatch(/contains the user identity "somchai.j"/);
    const prefix = randomBytes(8).toString('base64url');
    expect(structureIn('access token', [prefix + randomBytes(24).toString('base64url'), prefix + randomBytes(24).toString('base64url')], ids)?.why).toMatch(/share a \d+-bit prefix/);
    const counter = (n: number) => `9f3a6c1e-77d2-4b0a-8c41-${n.toString(16).padStart(12, '0')}`;
    expect(structureIn('code', [counter(41), counter(42)], ids)?.why).toMatch(/share a \d+-bit prefix|differ by less than/);
    const clock = (t: bigint) => (t * 0x10000000000000000n + 0x1234n).toString(16).padStart(32, '0');
    expect(structureIn('code', [clock(0xabcdef0123456789n), clock(0xabcdef0123456790n)].map((h) => h.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')), ids)).not.toBeNull();
  });
});

describe('reading a login form', () => {
  const html = `<form method="post" action="/idp/session"><input type="hidden" name="_csrf" value="a&amp;b"><input type="hidden" name="app" value="x">
<label>Login <input type="text" name="login_name"></label><input type="password" name="secret"><input type="submit" value="Go"></form>
<form action="/preset"><input type="hidden" name="login_name" value="u"><input type="hidden" name="secret" value="p"></form>`;
  it('finds the visible form, its action, method and hidden fields', () => {
    expect(formsOf(html)).toHaveLength(2);
    expect(loginFormOf(html, 'login_name', 'secret')).toEqual({
      action: '/idp/session',
      method: 'POST',
      inputs: [
        { name: '_csrf', type: 'hidden', value: 'a&b' },
        { name: 'app', type: 'hidden', value: 'x' },
        { name: 'login_name', type: 'text', value: '' },
        { name: 'secret', type: 'password', value: '' },
      ],
    });
    expect(loginFormOf(html, 'username', 'password')).toBeNull();
    expect(visibleText('<style>x{}</style><h2>Sign in</h2><p>Wrong &amp; try</p>')).toBe('Sign in Wrong & try');
  });
});
