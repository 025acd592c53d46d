/**
 * Against real Postgres: a 42501 is classed by where it came from (a grant, a row rule, or a
 * RAISE), never by a regex over its text; a function that raises 42501 with a text imitating a
 * row-level security message is not a policy denial.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import { loadMigrationFolder } from '../db/migrations.ts';
import { openEnvironment, type Environment } from '../runner/environment.ts';
import { sharedServer } from '../../testing/shared-server.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { observedOutcome } from './observe.ts';
import { compareOutcomes } from './compare.ts';
import { raised, rejectedByGrant, rejectedByPolicy } from '../model/outcome.ts';

const ALICE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const alice: Caller = { kind: 'user', id: ALICE };

const SCHEMA = `
create table public.notes (id int primary key, owner uuid);
alter table public.notes enable row level security;
grant select, insert on public.notes to authenticated;
create policy notes_select on public.notes for select to authenticated using (owner = auth.uid());
create policy notes_insert on public.notes for insert to authenticated with check (owner = auth.uid());
create table public.secret (id int primary key);
revoke all on public.secret from anon, authenticated;
create function public.imitates_rls() returns void language plpgsql as $$
begin raise exception 'new row violates row-level security policy for table "notes"' using errcode = '42501'; end $$;
create function public.says_no() returns void language plpgsql as $$
begin raise exception 'forbidden: admins only' using errcode = 'P0001'; end $$;
grant execute on function public.imitates_rls(), public.says_no() to authenticated;
`;

let env: Environment;
beforeAll(async () => {
  const dir = tempDir('origin');
  writeFileSync(path.join(dir, '0001_notes.sql'), SCHEMA);
  env = await openEnvironment({ server: await sharedServer(), migrations: loadMigrationFolder(dir) });
});
afterAll(() => env?.close());

async function observe(request: ApiRequest) {
  const tx = env.workers[0].tx;
  await tx.begin([{ table: 'auth.users', row: {}, sql: `insert into auth.users (id, email) values ('${ALICE}', 'a@x')` }]);
  try {
    return observedOutcome(request, await tx.send(alice, request));
  } finally {
    await tx.end();
  }
}

describe('where a 42501 came from', () => {
  it('a row rule refusing a new row is a policy denial', async () => {
    const o = await observe({ kind: 'insert', table: 'notes', rows: [{ id: 1, owner: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' }], returning: 'minimal' });
    expect(o).toMatchObject({ kind: 'rejected', by: 'policy' });
    expect(compareOutcomes(rejectedByPolicy(), o)).toBeUndefined();
  });

  it('a missing grant is a grant denial', async () => {
    const o = await observe({ kind: 'select', table: 'secret', columns: '*', filters: [] });
    expect(o).toMatchObject({ kind: 'rejected', by: 'grant' });
  });

  it('a RAISE of 42501 with a row-security text is neither: a policy denial predicted there disagrees', async () => {
    const o = await observe({ kind: 'rpc', fn: 'imitates_rls', args: {} });
    expect(o).toMatchObject({ kind: 'error', code: '42501' });
    expect(compareOutcomes(rejectedByPolicy(), o)?.reason).toMatch(/model expected 42501 \(policy\)/);
    expect(compareOutcomes(rejectedByGrant(), o)).toBeDefined();
  });

  it('a refusal whose text does not match its reason disagrees, naming the setting', async () => {
    const o = await observe({ kind: 'rpc', fn: 'says_no', args: {} });
    const expected = raised('P0001', 'NOT_AUTHORIZED', { reason: 'not-authorized', pattern: '^NOT_AUTHORIZED$', setting: 'refusals.messages.not-authorized' });
    expect(compareOutcomes(expected, o)?.reason).toBe('error text "forbidden: admins only" does not match /^NOT_AUTHORIZED$/, the "not-authorized" refusal (setting refusals.messages.not-authorized)');
    expect(compareOutcomes({ ...expected, refusal: { reason: 'not-authorized', pattern: 'admins only', setting: 'refusals.messages.not-authorized' } } as never, o)).toBeUndefined();
  });
});
