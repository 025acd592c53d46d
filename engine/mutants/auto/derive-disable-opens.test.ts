/**
 * A disable-row-security variant names what it opens: the privileges an API role holds that no
 * permissive policy lets it use now (mvp-boilerplate's `prices`, a SELECT policy only while anon
 * and authenticated hold every write: its variant survived a read-only property, and the survivor
 * line did not say the variant lets them write, which no read can see).
 */
import { describe, expect, it } from 'vitest';
import type { CatalogPolicy } from './catalog.ts';
import { deriveMutants } from './derive.ts';

const policy = (p: Partial<CatalogPolicy> & Pick<CatalogPolicy, 'name' | 'command'>): CatalogPolicy => ({
  schema: 'public',
  table: 'prices',
  roles: ['public'],
  permissive: 'PERMISSIVE',
  using: null,
  withCheck: null,
  ...p,
});

const disable = (policies: CatalogPolicy[], anon: string[], authenticated: string[]) =>
  deriveMutants({ policies, rowSecurityTables: [{ schema: 'public', table: 'prices', anon, authenticated }], functions: [], views: [] }).find((m) => m.kind === 'disable-row-security')!;

const all = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'];

describe('disable-row-security: what the variant opens', () => {
  it('a read-only policy with every write granted: the variant opens INSERT, UPDATE, DELETE to both API roles', () => {
    const m = disable([policy({ name: 'read', command: 'SELECT', using: 'true' })], all, all);
    expect(m.description).toBe('public.prices: row security disabled (grants alone decide); it opens INSERT, UPDATE, DELETE to anon and authenticated, which no policy allows now: a property sending those requests judges it');
    expect(m.equivalent).toBeUndefined();
  });

  it('a privilege only one role holds without a policy: named for that role alone', () => {
    const m = disable([policy({ name: 'read', command: 'SELECT', using: 'true' }), policy({ name: 'ins', command: 'INSERT', roles: ['authenticated'], withCheck: '(owner = auth.uid())' })], ['SELECT'], ['SELECT', 'INSERT', 'DELETE']);
    expect(m.description).toContain('it opens DELETE to authenticated, which no policy allows now');
  });

  it('every held privilege has a policy for its role (one that checks something): nothing named as opened', () => {
    const m = disable([policy({ name: 'own', command: 'ALL', roles: ['authenticated'], using: '(owner = auth.uid())' })], [], all);
    expect(m.description).toBe('public.prices: row security disabled (grants alone decide)');
  });
});
