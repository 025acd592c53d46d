/**
 * What refused a fixture row, which makes its case a drop (counted) rather than a harness error.
 * Re-created after stranger-app-5: `project_settings.id smallint` could not hold a model id as a
 * bigint key (`value "1270283893" is out of range for type smallint`), and R10 and R15 were harness
 * errors; a value the column's type cannot hold is the target's shape, as a constraint is.
 */
import { describe, expect, it } from 'vitest';
import { refusedBy } from './case-transaction.ts';

const pgError = (fields: Record<string, string>) => Object.assign(new Error(fields.message ?? ''), fields);

describe('refusedBy', () => {
  it("names a value out of the column type's range (or length) without the value, so its drops count as one reason", () => {
    expect(refusedBy(pgError({ code: '22003', message: 'value "1270283893" is out of range for type smallint' }))).toBe("the column's type (value … is out of range for type smallint)");
    expect(refusedBy(pgError({ code: '22001', message: 'value too long for type character varying(8)' }))).toBe("the column's type (value too long for type character varying(8))");
  });

  it("a data exception of the target's own expression (a CHECK regex past Postgres' 255 repetitions, stranger-app-9's R10 harness error) is the target's; ill-formed input stays the harness's", () => {
    expect(refusedBy(pgError({ code: '2201B', message: 'invalid regular expression: invalid repetition count(s)' }))).toBe("the target's own expression (invalid regular expression: invalid repetition count(s))");
    expect(refusedBy(pgError({ code: '22012', message: 'division by zero' }))).toBe("the target's own expression (division by zero)");
    expect(refusedBy(pgError({ code: '22P02', message: 'invalid input syntax for type uuid: "x"' }))).toBeUndefined();
    expect(refusedBy(pgError({ code: '22007', message: 'invalid input syntax for type timestamp: "x"' }))).toBeUndefined();
    expect(refusedBy(pgError({ code: '22023', message: 'invalid parameter value' }))).toBeUndefined();
    expect(refusedBy(pgError({ code: '22021', message: 'invalid byte sequence for encoding "UTF8"' }))).toBeUndefined();
  });

  it('a constraint by its name; an error of the harness (an unknown column) names nothing', () => {
    expect(refusedBy(pgError({ code: '23514', constraint: 'vs_tickets_remarks_cap', message: 'new row violates check constraint' }))).toBe('vs_tickets_remarks_cap');
    expect(refusedBy(pgError({ code: '42703', message: 'column "x" does not exist' }))).toBeUndefined();
  });
});
