/**
 * How PostgREST v12.2 answers a database error a function or trigger raises on purpose, on
 * Postgres (src/PostgREST/Error.hs at v12.2.12):
 * - `RAISE SQLSTATE 'PGRST' USING MESSAGE = '{"code": …, "message": …}', DETAIL = '{"status": 403,
 *   "headers": {}}'` ("full response control", 442-452, 511-514, 566-603): the body's code,
 *   message, details and hint are MESSAGE's, the status DETAIL's; a MESSAGE or DETAIL that is no
 *   such object answers 500 PGRST121;
 * - `RAISE SQLSTATE 'PT402'`: status 402; `PTxyz` that is no number: 500 (line 510, readMaybe).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import { observedOutcome } from '../checker/observe.ts';
import type { Environment } from '../runner/environment.ts';
import { runCase, sqlEnvironment } from '../../testing/sql-environment.ts';
import { httpStatusForSqlState, postgrestErrorAnswer } from './http-status.ts';
import { raisesMessageFirst } from '../introspection/raise-forms.ts';
import { refusalConventions, type TargetFunctionFacts } from '../mapping/propose.ts';
import { MappingSchema } from '../mapping/schema.ts';
import { MODEL_REFUSAL_CODE, outcomeToModel } from '../mapping/mapping.ts';

const alice: Caller = { kind: 'user', id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa' };
const anon: Caller = { kind: 'anon' };

/** sign_in_first's body (pg_proc.prosrc), as init reads it. */
const SIGN_IN_FIRST = `
begin
  if auth.uid() is null then
    raise sqlstate 'PGRST' using message = '{"code":"AUTH_REQUIRED","message":"NOT_AUTHORIZED: sign in"}', detail = '{"status":401,"headers":{}}';
  end if;
end `;

const SCHEMA = `
create table public.invoices (id int primary key, owner uuid not null);
alter table public.invoices enable row level security;
create policy invoices_all on public.invoices for all to authenticated using (true) with check (true);
grant select, insert on public.invoices to authenticated;

-- A trigger refusing another owner's invoice as PostgREST's docs show: status and body chosen.
create function public.invoices_owner_guard() returns trigger language plpgsql as $$
begin
  if new.owner is distinct from auth.uid() then
    raise sqlstate 'PGRST' using
      message = json_build_object('code', 'INV01', 'message', 'not your invoice', 'hint', 'write your own')::text,
      detail = json_build_object('status', 403, 'headers', json_build_object('X-Reason', 'owner'))::text;
  end if;
  return new;
end $$;
create trigger invoices_owner_guard before insert on public.invoices for each row execute function public.invoices_owner_guard();

create function public.pay(p_id int) returns void language plpgsql as $$
begin
  raise sqlstate 'PGRST' using message = '{"code":"PAY01","message":"Payment Required","details":"invoice ' || p_id || '"}', detail = '{"status":402,"headers":{}}';
end $$;
create function public.no_detail() returns void language plpgsql as $$
begin raise sqlstate 'PGRST' using message = '{"code":"X","message":"y"}'; end $$;
create function public.bad_message() returns void language plpgsql as $$
begin raise sqlstate 'PGRST' using message = 'not json', detail = '{"status":403,"headers":{}}'; end $$;
create function public.pt_status() returns void language plpgsql as $$ begin raise sqlstate 'PT409' using message = 'taken'; end $$;
create function public.pt_letters() returns void language plpgsql as $$ begin raise sqlstate 'PTABC' using message = 'odd'; end $$;
-- A refusal whose body code is no SQLSTATE (PostgREST passes any text on).
create function public.sign_in_first() returns void language plpgsql as $$${SIGN_IN_FIRST}$$;
grant execute on all functions in schema public to anon, authenticated;
`;

let env: Environment;
beforeAll(async () => {
  env = await sqlEnvironment('pgrst-errors', SCHEMA);
});
afterAll(() => env?.close());

async function send(caller: Caller, request: ApiRequest) {
  const [response] = await runCase(env, [], [{ caller, request }]);
  return response;
}
const rpc = (fn: string, args: Record<string, number> = {}): ApiRequest => ({ kind: 'rpc', fn, args });

describe("RAISE SQLSTATE 'PGRST' (full response control)", () => {
  it("answers a trigger's refusal of an insert with the status and body it chose (403, its code): the outcome is its code, not 'PGRST'", async () => {
    const insert: ApiRequest = { kind: 'insert', table: 'invoices', rows: [{ id: 1, owner: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb' }], returning: 'minimal' };
    const response = await send(alice, insert);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: 'INV01', message: 'not your invoice', details: null, hint: 'write your own' });
    expect(observedOutcome(insert, response)).toMatchObject({ kind: 'error', code: 'INV01' });
    // The caller's own invoice passes the trigger.
    expect((await send(alice, { ...insert, rows: [{ id: 2, owner: alice.kind === 'user' ? alice.id : '' }] })).status).toBe(201);
  });

  it("answers an rpc's raise with its status whoever calls (anon: 402, not 401), details kept", async () => {
    expect(await send(anon, rpc('pay', { p_id: 7 }))).toMatchObject({ status: 402, error: { code: 'PAY01', message: 'Payment Required', details: 'invoice 7', hint: null } });
  });

  it('answers 500 PGRST121 when DETAIL is missing or MESSAGE is no JSON object', async () => {
    expect(await send(alice, rpc('no_detail'))).toMatchObject({ status: 500, error: { code: 'PGRST121', details: 'DETAIL is missing in the RAISE statement' } });
    expect(await send(alice, rpc('bad_message'))).toMatchObject({ status: 500, error: { code: 'PGRST121', details: "Invalid JSON value for MESSAGE: 'not json'" } });
  });

  it('reads each part as aeson does: a status that is no integer, headers that are not text, a code that is no string fail', () => {
    const answer = (message: string, details: string | null) => postgrestErrorAnswer({ code: 'PGRST', message, details, hint: null }, 'authenticated');
    const ok = '{"code":"A","message":"m"}';
    expect(answer(ok, '{"status":418,"headers":{"a":"b"},"status_text":"teapot"}')).toEqual({ status: 418, body: { code: 'A', message: 'm', details: null, hint: null } });
    expect(answer(ok, '{"status":"418","headers":{}}').body.code).toBe('PGRST121');
    expect(answer(ok, '{"status":418}').body.code).toBe('PGRST121');
    expect(answer(ok, '{"status":418,"headers":{"a":1}}').body.code).toBe('PGRST121');
    expect(answer('{"code":1,"message":"m"}', '{"status":418,"headers":{}}').body.details).toBe(`Invalid JSON value for MESSAGE: '{"code":1,"message":"m"}'`);
  });
});

describe("a PGRST body code that is no SQLSTATE (AUTH_REQUIRED)", () => {
  it("is answered as written, read off the body by init as the functions' refusal convention, and that convention reads the answer as the model's refusal", async () => {
    const call = rpc('sign_in_first');
    const response = await send(anon, call);
    expect(response).toMatchObject({ status: 401, error: { code: 'AUTH_REQUIRED', message: 'NOT_AUTHORIZED: sign in' } });
    const source = raisesMessageFirst(SIGN_IN_FIRST);
    const functions: TargetFunctionFacts[] = [{ name: 'sign_in_first', args: [], returns: 'void', outColumns: [], readOnly: false, trigger: false, source }];
    const functionRefusal = refusalConventions({ tables: [], functions: [{}] }, { functions }).functionRefusal;
    expect(functionRefusal).toEqual({ code: 'AUTH_REQUIRED', message: '^NOT_AUTHORIZED' });
    const mapping = MappingSchema.parse({ conventions: { functionRefusal } });
    expect(outcomeToModel(mapping, call, observedOutcome(call, response))).toMatchObject({ kind: 'raised', code: MODEL_REFUSAL_CODE });
  });
});

describe('PTxyz SQLSTATEs', () => {
  it('PT409 answers 409; PTABC (no number) answers 500, not the default 400', async () => {
    expect(await send(alice, rpc('pt_status'))).toMatchObject({ status: 409, error: { code: 'PT409', message: 'taken' } });
    expect(await send(alice, rpc('pt_letters'))).toMatchObject({ status: 500, error: { code: 'PTABC' } });
    expect(httpStatusForSqlState('PT403', 'anon')).toBe(403);
  });
});
