import { describe, it, expect } from 'vitest';
import { clientForApp, redirectWithCode, queryPairsOf } from './front-channel.ts';
import type { ClientRegistration } from './schemas.ts';

const a: ClientRegistration = {
  appId: 'app-a', clientId: 'cid-a', clientSecret: 'secret-aaaa',
  redirectUrl: 'https://a.example/cb', logoutUrl: 'https://a.example/bye',
};

describe('clientForApp', () => {
  it('names the client of exactly one exact app parameter', () => {
    expect(clientForApp([a], [['app', 'app-a'], ['next', 'x']])).toBe(a);
  });
  it('names nobody for missing, duplicated, empty or near-miss values', () => {
    for (const q of [[], [['app', 'app-a'], ['app', 'app-a']], [['app', '']], [['app', 'APP-A']], [['app', ' app-a']], [['App', 'app-a']]] as [string, string][][]) {
      expect(clientForApp([a], q), JSON.stringify(q)).toBeNull();
    }
  });
});

describe('redirectWithCode', () => {
  it('adds exactly one code', () => {
    expect(redirectWithCode('https://a.example/cb', 'c-1')).toBe('https://a.example/cb?code=c-1');
    expect(redirectWithCode('https://a.example/cb?x=1', 'c-1')).toBe('https://a.example/cb?x=1&code=c-1');
    expect(redirectWithCode('https://a.example/cb#f', 'c-1')).toBe('https://a.example/cb?code=c-1#f');
  });
  it('round-trips through queryPairsOf', () => {
    const u = new URL(redirectWithCode('https://a.example/cb?x=1', 'c 1'));
    expect(queryPairsOf(u.search)).toEqual([['x', '1'], ['code', 'c 1']]);
  });
});
