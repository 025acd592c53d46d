import { describe, expect, it } from 'vitest';
import { applyEdits, extraSql, parseMutant, unchangedPrefix } from './mutant-files.ts';

const migrations = [{ name: '0200_vs.sql', path: 'db/migrations/0200_vs.sql', sql: 'create function f() …\n  where t.id = p_id and t.deleted_at is null;\nend;\n' }];

function mutant(sql: string) {
  return parseMutant({ name: 'R14-x.sql', path: 'db/mutants/R14-x.sql', sql });
}

describe('mutant files', () => {
  it('edit blocks change only the lines they name', () => {
    const m = mutant(`-- mutant: R14-x\n-- rules: R14\n-- bug: ilike lookup\n-- in 0200_vs.sql replace:\n  where t.id = p_id and t.deleted_at is null;\n-- with:\n  where t.id ilike p_id and t.deleted_at is null;\n-- end\n`);
    expect(m.edits).toEqual([{ file: '0200_vs.sql', find: '  where t.id = p_id and t.deleted_at is null;\n', replace: '  where t.id ilike p_id and t.deleted_at is null;\n' }]);
    expect(extraSql(m)).toEqual([]);
    expect(applyEdits(m, migrations)[0].sql).toBe('create function f() …\n  where t.id ilike p_id and t.deleted_at is null;\nend;\n');
  });

  it('the migrations a mutant leaves unedited are those before the first it edits (all of them for SQL on top)', () => {
    const files = ['0100_a.sql', '0200_vs.sql', '0300_b.sql', '0400_c.sql'].map((name) => ({ name, path: name, sql: '' }));
    const edits = (...names: string[]) => ({ edits: names.map((file) => ({ file, find: 'x', replace: 'y' })) });
    expect(unchangedPrefix(edits('0300_b.sql', '0200_vs.sql'), files)).toBe(1);
    expect(unchangedPrefix(edits('0400_c.sql'), files)).toBe(3);
    expect(unchangedPrefix(edits('0100_a.sql'), files)).toBe(0);
    expect(unchangedPrefix(edits(), files)).toBe(4);
  });

  it('an "unreachable" header reclassifies the mutant with its reason; without one it is run', () => {
    const m = mutant(`-- rules: R06\n-- bug: b\n-- unreachable: no REST request reaches it, because every PATCH has a filter\ndrop policy p on public.t;\n`);
    expect(m.unreachable).toBe('no REST request reaches it, because every PATCH has a filter');
    expect(mutant(`-- rules: R06\n-- bug: b\ndrop policy p on public.t;\n`).unreachable).toBeUndefined();
  });

  it('SQL on top stays SQL on top', () => {
    const m = mutant(`-- rules: R02\n-- bug: guard dropped\ndrop trigger g on public.users;\n`);
    expect(m.edits).toEqual([]);
    expect(extraSql(m)).toHaveLength(1);
  });

  it('a stale edit says so instead of testing old code', () => {
    const m = mutant(`-- rules: R14\n-- bug: b\n-- in 0200_vs.sql replace:\n  where x.id = p_id\n-- with:\n  where x.id like p_id\n-- end\n`);
    expect(() => applyEdits(m, migrations)).toThrow('mutant R14-x: the text to replace occurs 0 times in 0200_vs.sql (it must occur once; has the migration changed?)');
    const other = mutant(`-- rules: R14\n-- bug: b\n-- in 0999_none.sql replace:\nx\n-- with:\ny\n-- end\n`);
    expect(() => applyEdits(other, migrations)).toThrow('mutant R14-x: no migration named 0999_none.sql');
  });

  it('an edit that only re-lays out the text is refused: it breaks nothing', () => {
    expect(() => mutant(`-- rules: R14\n-- bug: b\n-- in 0200_vs.sql replace:\n  where a = b\n-- with:\nwhere a   =   b\n-- end\n`)).toThrow(/changes only layout/);
  });

  it('a malformed edit block is an error, not SQL', () => {
    expect(() => mutant(`-- rules: R14\n-- bug: b\n-- in 0200_vs.sql replace:\nx\n-- end\n`)).toThrow(/an edit block must read/);
  });
});
