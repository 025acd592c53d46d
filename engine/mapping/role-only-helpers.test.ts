/**
 * A handler helper reading the role only makes `init` propose the handler permission null; one
 * whose permission test sits in a helper it calls (`current_user_can_handle_shop()` calling
 * `app.holds('house')`, whose body reads `users.permissions`) reads a permission too. Read in the
 * helper's own body only, the permission was proposed null and a `house` holder handling an order
 * was a false alarm.
 */
import { describe, expect, it } from 'vitest';
import { proposeVocabularySubsets } from './propose.ts';

const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'shop.handlerRoles', helper: 'shop.*(handl|manag)|(handl|manag).*shop', permissionPath: 'shop.handlerPermission' }] }];
const defaults = { shop: { handlerRoles: ['staff', 'admin', 'dev'], handlerPermission: 'house' } };
const handler = (body: string) => ({ name: 'current_user_can_handle_shop', returns: 'boolean', source: `select coalesce(public.current_user_role() in ('dev', 'staff') or ${body}, false)` });
const holds = { name: 'holds', returns: 'boolean', source: "select coalesce((select p_flag = any(u.permissions) from public.users u where u.id = auth.uid()), false)" };
const via = { name: 'may', returns: 'boolean', source: 'select app.holds(p_flag)' };

describe('roleOnlyHelpers: a permission read in a helper the handler helper calls', () => {
  it('is a permission read: the handler permission is not proposed null (directly or two calls deep)', () => {
    for (const list of [[handler("app.holds('house')"), holds], [handler("app.may('house')"), via, holds]]) {
      const { settings, notes } = proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'staff'] }, defaults, list);
      expect(settings).toEqual({ shop: { handlerRoles: ['dev', 'staff'] } });
      expect(notes.filter((n) => n.includes('handlerPermission'))).toEqual([]);
    }
  });

  it('a called helper reading no permission leaves the helper role-only', () => {
    const plain = { name: 'is_open', returns: 'boolean', source: 'select true' };
    const { settings } = proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'staff'] }, defaults, [handler('app.is_open()'), plain]);
    expect(settings).toEqual({ shop: { handlerRoles: ['dev', 'staff'], handlerPermission: null } });
  });

  it('the word in an error text or a comment is no permission read; a claim key is one', () => {
    const guarded = { name: 'is_open', returns: 'boolean', source: "begin -- permission checked by the caller\n if auth.uid() is null then raise exception 'permission denied: sign in'; end if; return true; end" };
    expect(proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'staff'] }, defaults, [handler('app.is_open()'), guarded]).settings).toEqual({ shop: { handlerRoles: ['dev', 'staff'], handlerPermission: null } });
    const claim = { name: 'is_open', returns: 'boolean', source: "select (auth.jwt() ->> 'user_permissions') like '%house%'" };
    expect(proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'staff'] }, defaults, [handler('app.is_open()'), claim]).settings).toEqual({ shop: { handlerRoles: ['dev', 'staff'] } });
  });
});
