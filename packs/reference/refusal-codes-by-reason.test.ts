/**
 * The SQLSTATE of a VS function's argument refusals, read off its body by `policyfuzz init`
 * (Pack.sourceSettings): stranger-app-13 raises a self-merge, a missing destination and a missing
 * headline with `errcode = '22023'` (invalid_parameter_value), where the model expects P0001. None
 * was read, and each such refusal was a FAIL ("error 22023, model expected P0001", R07, R09, R12).
 * The patterns are the ones init applies (engine/config/init.ts, case-insensitive as there).
 */
import { describe, expect, it } from 'vitest';
import { referencePack } from './index.ts';
import { raisesMessageFirst } from '../../engine/introspection/raise-forms.ts';
import { sqlstateOf } from '../../engine/mapping/propose.ts';
import { ModelSettingsSchema } from './model/settings.ts';

/** The code init reads at `path` from `fn`'s body, or undefined where no pattern matches. */
function proposed(path: string, fn: string, body: string): string | undefined {
  const reads = (referencePack.sourceSettings ?? []).filter((r) => r.path === path && 'fn' in r && r.fn === fn);
  expect(reads.length, `no sourceSettings entry for ${path} on ${fn}`).toBeGreaterThan(0);
  for (const read of reads) {
    const m = new RegExp(read.pattern, 'i').exec(body);
    if (m) return m[1];
  }
  return undefined;
}

const merge = `
begin
  if p_primary = p_duplicate then
    raise exception 'cannot merge a ticket into itself' using errcode = '22023';
  end if;
  if v_primary.id is null then raise exception 'NOT_AUTHORIZED' using errcode = '42501'; end if;
end`;
const transfer = `
begin
  if p_dept is null or pg_catalog.btrim(p_dept) = '' then
    raise exception 'a destination department is required' using errcode = '22023';
  end if;
end`;
const publish = `
begin
  if coalesce(p_public, false) then
    if not authz.vs_category_is_public(v_ticket.category) then
      raise exception 'this category cannot be published' using errcode = '42501';
    end if;
    if pg_catalog.length(pg_catalog.btrim(coalesce(p_public_title, v_ticket.public_title, ''))) = 0 then
      raise exception 'a public headline is required' using errcode = '22023';
    end if;
  end if;
end`;

describe("argument refusals' codes read off a body (stranger-app-13)", () => {
  it('reads each code where the body raises that refusal with one', () => {
    expect(proposed('refusals.codes.self-merge', 'merge_vs_tickets', merge)).toBe('22023');
    expect(proposed('refusals.codes.destination-required', 'vs_transfer_dept', transfer)).toBe('22023');
    expect(proposed('refusals.codes.headline-required', 'vs_set_public', publish)).toBe('22023');
  });

  it('reads nothing where the refusal names no code, or where another check raises', () => {
    expect(proposed('refusals.codes.self-merge', 'merge_vs_tickets', "begin if p_primary = p_duplicate then raise exception 'same ticket'; end if; end")).toBeUndefined();
    expect(proposed('refusals.codes.self-merge', 'merge_vs_tickets', "begin if v_primary.id is null then raise exception 'NOT_AUTHORIZED' using errcode = '42501'; end if; end")).toBeUndefined();
    expect(proposed('refusals.codes.destination-required', 'vs_transfer_dept', "begin if not found then raise exception 'NOT_AUTHORIZED' using errcode = '42501'; end if; end")).toBeUndefined();
    expect(proposed('refusals.codes.headline-required', 'vs_set_public', "begin raise exception 'this category cannot be published' using errcode = '42501'; end")).toBeUndefined();
  });

  it("reads a RAISE SQLSTATE 'PGRST' body's code that is no SQLSTATE as written, a value the settings accept", () => {
    const pgrst = `begin if p_primary = p_duplicate then raise sqlstate 'PGRST' using message = '{"code":"SELF_MERGE","message":"cannot merge a ticket into itself"}', detail = '{"status":422,"headers":{}}'; end if; end`;
    const errcode = proposed('refusals.codes.self-merge', 'merge_vs_tickets', raisesMessageFirst(pgrst));
    const code = sqlstateOf(errcode ?? '');
    expect(code).toBe('SELF_MERGE');
    expect(ModelSettingsSchema.parse({ refusals: { codes: { 'self-merge': code } } }).refusals.codes['self-merge']).toBe('SELF_MERGE');
    expect(ModelSettingsSchema.safeParse({ refusals: { codes: { 'self-merge': '422' } } }).success).toBe(false);
  });
});
