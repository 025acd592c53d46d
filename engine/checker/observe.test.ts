import { describe, expect, it } from 'vitest';
import { observedOutcome } from './observe.ts';

describe('reading an rpc answer back', () => {
  const rpc = { kind: 'rpc' as const, fn: 'f', args: {} };
  it('a scalar NULL is one row with a null value; a void answer has no rows', () => {
    expect(observedOutcome(rpc, { status: 200, body: null, affected: 1 })).toEqual({ kind: 'allowed', rows: [{ value: null }], affected: 1 });
    expect(observedOutcome(rpc, { status: 204, body: null, affected: 1 })).toEqual({ kind: 'allowed', rows: null, affected: 1 });
  });
  it('a set of objects is its rows; scalars become {value}', () => {
    expect(observedOutcome(rpc, { status: 200, body: [{ a: 1 }, 2], affected: 2 })).toEqual({ kind: 'allowed', rows: [{ a: 1 }, { value: 2 }], affected: 2 });
  });
  it('42501 is told apart by the Postgres templates', () => {
    const denied = (message: string) => observedOutcome(rpc, { status: 403, body: null, affected: null, error: { code: '42501', message, details: null, hint: null } });
    expect(denied('permission denied for function f')).toMatchObject({ kind: 'rejected', by: 'grant' });
    expect(denied('new row violates row-level security policy for table "t"')).toMatchObject({ kind: 'rejected', by: 'policy' });
  });
});

describe('a 42501 without the routine (an answer read over HTTP)', () => {
  const rpc = { kind: 'rpc' as const, fn: 'f', args: {} };
  const denied = (message: string, routine?: string) =>
    observedOutcome(rpc, { status: 403, body: null, affected: null, error: { code: '42501', message, details: null, hint: null }, ...(routine ? { routine } : {}) });
  it("only Postgres' own templates, matched whole, count", () => {
    expect(denied('permission denied for table t')).toMatchObject({ kind: 'rejected', by: 'grant' });
    expect(denied('new row violates row-level security policy (USING expression) for table "t"')).toMatchObject({ kind: 'rejected', by: 'policy' });
    expect(denied('custom: row-level security says no')).toMatchObject({ kind: 'error', code: '42501' });
  });
  it('the routine wins over the text', () => {
    expect(denied('new row violates row-level security policy for table "t"', 'exec_stmt_raise')).toMatchObject({ kind: 'error', code: '42501' });
    expect(denied('anything', 'aclcheck_error')).toMatchObject({ kind: 'rejected', by: 'grant' });
  });
});
