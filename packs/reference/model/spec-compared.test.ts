/**
 * Issue 25, item 4: where the spec states what must hold but not how, the model compares what it
 * states, not the reference's way. Each: a copy of the reference migrations rewritten another
 * way the spec allows passes with the default settings; a copy with a real fault still fails.
 */
import { describe, expect, it } from 'vitest';
import { referenceCopies } from '../../../testing/reference-copies.ts';
import { R03 } from '../rules/R03-vs-submitter-guard/property.ts';
import { R07 } from '../rules/R07-soft-delete/property.ts';
import { R14 } from '../rules/R14-lookup-equality/property.ts';
import { R18 } from '../rules/R18-student-record/property.ts';

const { copyWith, run } = referenceCopies();

const CAP_CHECK = {
  file: '0200_vs.sql',
  find: "  remarks jsonb not null default '[]'\n    check (case when jsonb_typeof(remarks) = 'array' then jsonb_array_length(remarks) <= 20 else false end),\n",
  replace: "  remarks jsonb not null default '[]',\n",
};
const TRIGGERS = 'create trigger vs_tickets_10_guard before update on public.vs_tickets\n';

describe('the remarks cap (rule 3, §8: "capped in number", not how)', () => {
  it('enforced by a BEFORE trigger raising P0001 (firing before the guard and the row rules) instead of a CHECK: R03 holds', async () => {
    const env = await copyWith('remarks-cap-trigger', [
      CAP_CHECK,
      {
        file: '0200_vs.sql',
        find: TRIGGERS,
        replace:
          "create function private.vs_remarks_cap() returns trigger language plpgsql set search_path = '' as $$\n" +
          'begin\n' +
          "  if jsonb_typeof(new.remarks) = 'array' and jsonb_array_length(new.remarks) > 20 then\n" +
          "    raise exception 'vs_tickets: at most 20 remarks' using errcode = 'P0001';\n" +
          '  end if;\n' +
          '  return new;\n' +
          'end $$;\n' +
          'create trigger vs_tickets_00_remarks_cap before insert or update on public.vs_tickets\n' +
          '  for each row execute function private.vs_remarks_cap();\n' +
          TRIGGERS,
      },
    ]);
    const r = await run(env, R03);
    expect(r.failure?.message ?? r.note).toBeUndefined();
    expect(r.status).toBe('passed');
  });

  it('a real fault, no cap at all: R03 fails', async () => {
    const env = await copyWith('remarks-cap-dropped', [CAP_CHECK]);
    const r = await run(env, R03);
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/23514|remarks-cap/);
  });
});

const MERGE_REMARK = "jsonb_build_object('vis', 'staff', 'by', 'system', 'internal', true, 'text', 'merged into ' || p.id),\n";

describe('the merge remark (rule 12: an internal remark naming the canonical ticket, wording not stated)', () => {
  it("worded 'duplicate of <id>': R07 and R14 hold", async () => {
    const env = await copyWith('merge-remark-wording', [
      { file: '0200_vs.sql', find: MERGE_REMARK, replace: MERGE_REMARK.replace("'merged into ' || p.id", "'duplicate of ' || p.id || ' (merged)'") },
    ]);
    for (const property of [R07, R14]) {
      const r = await run(env, property);
      expect(r.failure?.message ?? r.note, property.id).toBeUndefined();
      expect(r.status).toBe('passed');
    }
  });

  it('a real fault, the remark naming the duplicate instead of the canonical ticket: fails', async () => {
    const env = await copyWith('merge-remark-wrong-ticket', [{ file: '0200_vs.sql', find: MERGE_REMARK, replace: MERGE_REMARK.replace("'merged into ' || p.id", "'merged from ' || d.id") }]);
    const results = [await run(env, R07), await run(env, R14)];
    expect(results.map((r) => r.status)).toContain('failed');
  });
});

describe("get_my_student_record's tie-break and output shape (§4.2, rule 18: 'newest 10', the record 'plus' the outcomes)", () => {
  const ORDER_AGG = '                       order by q.created_at desc, q.id desc)\n';
  const ORDER_LIMIT = '               order by c.created_at desc, c.id desc limit 10) q), \'[]\'::jsonb)\n';
  const idAsc = [
    { file: '0420_students.sql', find: ORDER_AGG, replace: ORDER_AGG.replace('q.id desc', 'q.id asc') },
    { file: '0420_students.sql', find: ORDER_LIMIT, replace: ORDER_LIMIT.replace('c.id desc', 'c.id asc') },
  ];

  it('ties broken by id ascending: R18 holds with students.historyTieBreak, fails without it naming the setting', async () => {
    const env = await copyWith('history-ties-id-asc', idAsc);
    const withSetting = await run(env, R18, { students: { historyTieBreak: 'id asc' } });
    expect(withSetting.failure?.message ?? withSetting.note).toBeUndefined();
    expect(withSetting.status).toBe('passed');
    const without = await run(env, R18);
    expect(without.status).toBe('failed');
    expect(without.failure?.message).toMatch(/setting students\.historyTieBreak/);
  });

  it('a real fault, oldest first: fails with either tie-break', async () => {
    const env = await copyWith('history-oldest-first', [
      { file: '0420_students.sql', find: ORDER_AGG, replace: ORDER_AGG.replace('q.created_at desc', 'q.created_at asc') },
      { file: '0420_students.sql', find: ORDER_LIMIT, replace: ORDER_LIMIT.replace('c.created_at desc', 'c.created_at asc') },
    ]);
    expect((await run(env, R18)).status).toBe('failed');
    expect((await run(env, R18, { students: { historyTieBreak: 'id asc' } })).status).toBe('failed');
  });

  it("the outcomes under 'history' instead of 'requests': R18 holds with students.recordOutput, fails without it naming the setting", async () => {
    const env = await copyWith('record-output-history', [{ file: '0420_students.sql', find: "    'requests', coalesce((\n", replace: "    'history', coalesce((\n" }]);
    const withSetting = await run(env, R18, { students: { recordOutput: { requests: 'history' } } });
    expect(withSetting.failure?.message ?? withSetting.note).toBeUndefined();
    expect(withSetting.status).toBe('passed');
    const without = await run(env, R18);
    expect(without.status).toBe('failed');
    expect(without.failure?.message).toMatch(/setting students\.recordOutput/);
  });
});
