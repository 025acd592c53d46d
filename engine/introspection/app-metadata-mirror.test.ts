import { describe, expect, it } from 'vitest';
import { appMetadataMirrorOf } from './app-metadata-mirror.ts';

const SYNC = {
  name: 'private.sync_user_claims',
  source: `begin update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || jsonb_build_object('org_id', new.org_id) where id = new.id; return new; end;`,
};
const READ_POLICY = `(org_id = ( SELECT (((auth.jwt() -> 'app_metadata'::text) ->> 'org_id'::text))::uuid AS uuid))`;

describe('a project mirroring its users into raw_app_meta_data (stranger-app-10)', () => {
  it('is one where a function writes auth.users.raw_app_meta_data and a policy or function reads the app_metadata claim', () => {
    expect(appMetadataMirrorOf([SYNC], [READ_POLICY])).toEqual({ writers: ['private.sync_user_claims'] });
    expect(appMetadataMirrorOf([SYNC, { name: 'private.app_claim', source: `select auth.jwt() -> 'app_metadata' ->> p_key` }], [])).toEqual({ writers: ['private.sync_user_claims'] });
  });

  it('is not one that only reads the claim (the spec decides roles by users.role), nor one that writes it and never reads it', () => {
    expect(appMetadataMirrorOf([], [READ_POLICY])).toBeUndefined();
    expect(appMetadataMirrorOf([SYNC], [`(user_id = auth.uid())`])).toBeUndefined();
    // A signup trigger reading the metadata writes nothing there.
    expect(appMetadataMirrorOf([{ name: 'private.handle_new_auth_user', source: `insert into public.users (id, org_id) values (new.id, (new.raw_app_meta_data ->> 'org_id')::uuid);` }], [READ_POLICY])).toBeUndefined();
  });
});
