import { describe, expect, it } from 'vitest';
import { raisesMessageFirst } from './raise-forms.ts';
import { refusalConventions, sqlstateOf, type TargetFunctionFacts } from '../mapping/propose.ts';
import { postgrestErrorAnswer } from '../executor/http-status.ts';

const fn = (name: string, source: string, trigger = false): TargetFunctionFacts => ({ name, args: [], returns: 'void', outColumns: [], readOnly: false, trigger, source });

describe('raises written with every part a named option (stranger-app-11)', () => {
  it('are read as the message-first form, errcode kept, hint and detail left out', () => {
    expect(raisesMessageFirst(`IF r IS NULL THEN RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED', hint = 'sign in first'; END IF;`)).toBe(
      `IF r IS NULL THEN raise exception 'NOT_AUTHORIZED' using errcode = '42501'; END IF;`,
    );
    expect(raisesMessageFirst(`raise using message = format('buyers may not change %s', x), errcode = 'P0001';`)).toBe(`raise exception 'buyers may not change %s' using errcode = 'P0001';`);
    expect(raisesMessageFirst(`raise exception using message = 'it''s gone';`)).toBe(`raise exception 'it''s gone';`);
  });

  it('leaves the message-first form, and a raise naming no message, as they are', () => {
    const first = `raise exception 'NOT_AUTHORIZED' using errcode = '42501';`;
    expect(raisesMessageFirst(first)).toBe(first);
    expect(raisesMessageFirst(`raise using errcode = 'unique_violation';`)).toBe(`raise using errcode = 'unique_violation';`);
  });

  it("so init's refusal convention is the functions' NOT_AUTHORIZED, not a helper's one message-first argument check", () => {
    const functions = [
      fn('nanoid', `IF size < 1 THEN RAISE EXCEPTION 'nanoid size must be positive' USING errcode = '22023'; END IF;`),
      fn('merge_vs_tickets', `IF NOT FOUND THEN RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED'; END IF;`),
      fn('vs_set_public', `IF NOT FOUND THEN RAISE EXCEPTION USING errcode = '42501', message = 'NOT_AUTHORIZED'; END IF;`),
    ];
    const read = (fs: TargetFunctionFacts[]) => refusalConventions({ tables: [], functions: [{}] }, { functions: fs }).functionRefusal;
    expect(read(functions)).toEqual({ code: '22023', message: '^nanoid size must be positive' });
    expect(read(functions.map((f) => ({ ...f, source: raisesMessageFirst(f.source) })))).toEqual({ code: '42501', message: '^NOT_AUTHORIZED' });
  });
});

describe("raises with PostgREST's SQLSTATE PGRST (its body from MESSAGE's JSON)", () => {
  const pgrst = `raise sqlstate 'PGRST' using message = '{"code":"42501","message":"NOT_AUTHORIZED","hint":"sign in"}', detail = '{"status":403,"headers":{}}';`;

  it("are read as the JSON's code and message, as the executor answers them (one reading: executor/pgrst-raise.ts)", () => {
    expect(raisesMessageFirst(pgrst)).toBe(`raise exception 'NOT_AUTHORIZED' using errcode = '42501';`);
    expect(raisesMessageFirst(`raise exception using errcode = 'PGRST', message = '{"code":"INV01","message":"it''s closed"}', detail = '{"status":409,"headers":{}}';`)).toBe(
      `raise exception 'it''s closed' using errcode = 'INV01';`,
    );
    expect(raisesMessageFirst(`raise exception '{"code":"INV01","message":"closed"}' using errcode = 'PGRST', detail = '{"status":409,"headers":{}}';`)).toBe(`raise exception 'closed' using errcode = 'INV01';`);
    const answered = postgrestErrorAnswer({ code: 'PGRST', message: '{"code":"42501","message":"NOT_AUTHORIZED","hint":"sign in"}', details: '{"status":403,"headers":{}}', hint: null }, 'authenticated');
    expect(answered.body).toMatchObject({ code: '42501', message: 'NOT_AUTHORIZED' });
  });

  it('a SQLSTATE given first is the errcode; a MESSAGE PostgREST cannot read (it answers PGRST121) is left as written', () => {
    expect(raisesMessageFirst(`raise sqlstate '22023' using message = 'bad id';`)).toBe(`raise exception 'bad id' using errcode = '22023';`);
    const unreadable = `raise sqlstate 'PGRST' using message = '{"message":"no code"}', detail = '{"status":400,"headers":{}}';`;
    expect(raisesMessageFirst(unreadable)).toBe(`raise exception '{"message":"no code"}' using errcode = 'PGRST';`);
  });

  it("so init's refusal convention is the JSON's code, not PGRST", () => {
    const functions = [fn('merge_vs_tickets', `if not found then ${pgrst} end if;`), fn('vs_set_public', `if not found then ${pgrst} end if;`)];
    const read = (fs: TargetFunctionFacts[]) => refusalConventions({ tables: [], functions: [{}] }, { functions: fs }).functionRefusal;
    expect(read(functions.map((f) => ({ ...f, source: raisesMessageFirst(f.source) })))).toEqual({ code: '42501', message: '^NOT_AUTHORIZED' });
  });

  it('a body code that is no SQLSTATE is kept as written (marked, so never read as a condition name): AUTH_REQUIRED, not_found, not-allowed', () => {
    const raise = (code: string) => `if not found then raise sqlstate 'PGRST' using message = '{"code":"${code}","message":"NOT_AUTHORIZED"}', detail = '{"status":403,"headers":{}}'; end if;`;
    expect(raisesMessageFirst(raise('AUTH_REQUIRED'))).toBe(`if not found then raise exception 'NOT_AUTHORIZED' using errcode = 'PGRST:AUTH_REQUIRED'; end if;`);
    const read = (code: string) => refusalConventions({ tables: [], functions: [{}] }, { functions: [fn('merge_vs_tickets', raisesMessageFirst(raise(code)))] }).functionRefusal;
    expect(read('AUTH_REQUIRED')).toEqual({ code: 'AUTH_REQUIRED', message: '^NOT_AUTHORIZED' });
    // `no_data_found` is a condition name (P0002) in an ERRCODE, but a PGRST body's code as written.
    expect(read('no_data_found')).toEqual({ code: 'no_data_found', message: '^NOT_AUTHORIZED' });
    expect(read('not-allowed')).toEqual({ code: 'not-allowed', message: '^NOT_AUTHORIZED' });
    expect(sqlstateOf('PGRST:AUTH_REQUIRED')).toBe('AUTH_REQUIRED');
    expect(sqlstateOf('no_data_found')).toBe('P0002');
  });
});
