/**
 * A target keeping the model's text ticket ids as uuids (or bigints): what the model computes
 * from an id reads it as the target keeps it. The public handle digests it so
 * (vs.publicHandle.idAs), a merge remark naming the primary by its uuid names that ticket, and
 * the org chart (whose members a composite-keyed table cannot order by id) is compared in any order.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { textAsUuid, uuidAsBigint } from '../../../engine/model/target-ids.ts';
import { teamFunctions } from './functions/team.ts';
import { ModelSettingsSchema } from './settings.ts';
import { namedTicketIds, vsPublicRef, vsTicketsTable } from './tables/vs-tickets.ts';
import { vsFunctions } from './functions/vs.ts';
import { withTargetDrawn } from '../../../engine/target/fixtures.ts';

const md5 = (s: string) => createHash('md5').update(s).digest('hex').slice(0, 16);

describe('ids as the target keeps them', () => {
  it('vs.publicHandle.idAs: the handle digests the id as the target keeps it (default: the model’s text)', () => {
    expect(vsPublicRef('VS-1003', ModelSettingsSchema.parse({}))).toBe(`pub-${md5('VS-1003')}`);
    expect(vsPublicRef('VS-1003', ModelSettingsSchema.parse({ vs: { publicHandle: { idAs: 'uuid' } } }))).toBe(`pub-${md5(textAsUuid('VS-1003'))}`);
    expect(vsPublicRef('VS-1003', ModelSettingsSchema.parse({ vs: { publicHandle: { idAs: 'bigint' } } }))).toBe(`pub-${md5(String(uuidAsBigint('VS-1003')))}`);
    expect(ModelSettingsSchema.safeParse({ vs: { publicHandle: { idAs: 'text' } } }).success).toBe(false);
  });

  it("vs.publicHandle.from 'random': the model draws each ticket's handle (a uuid, no formula over the id), the fixtures write it, and a handle showing or derived from the id still differs", () => {
    const settings = ModelSettingsSchema.parse({ vs: { publicHandle: { from: 'random' } } });
    const drawn = vsPublicRef('VS-1003', settings)!;
    expect(drawn).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(vsPublicRef('VS-1003', settings)).toBe(drawn);
    expect(drawn).not.toBe(vsPublicRef('VS-1003', ModelSettingsSchema.parse({})));
    // The world as the fixtures write it carries the drawn handle (the target's default would draw another).
    const world = withTargetDrawn({ vs_tickets: [{ id: 'VS-1003' }] }, { vs_tickets: vsTicketsTable }, settings);
    expect(world.vs_tickets[0].public_ref).toBe(drawn);
    expect(withTargetDrawn({ vs_tickets: [{ id: 'VS-1003' }] }, { vs_tickets: vsTicketsTable }, ModelSettingsSchema.parse({})).vs_tickets[0]).toEqual({ id: 'VS-1003' });
    // The board as compared: the world's handle is the model's; the id, or a digest of it, is not.
    const board = vsFunctions.find((f) => f.name === 'get_public_vs_board')!;
    const compared = (ref: string) => board.comparedAs!([{ public_ref: ref, public_title: 't', status: 'open' }], world, settings);
    expect(compared(drawn)).toEqual([{ public_ref: drawn, public_title: 't', status: 'open' }]);
    for (const leak of ['VS-1003', textAsUuid('VS-1003'), `pub-${md5('VS-1003')}`]) expect(compared(leak)).not.toEqual(compared(drawn));
    // A ticket the case inserted: the target drew its handle, so neither side's value is compared...
    const inserted = { ...world, vs_tickets: [...world.vs_tickets, { id: 'VS-2001' }] };
    expect(board.comparedAs!([{ public_ref: vsPublicRef('VS-2001', settings) }], inserted, settings)).toEqual(board.comparedAs!([{ public_ref: textAsUuid('x') }], inserted, settings));
    // ...and a request naming it by the model's draw finds nothing, as on the target.
    const problem = vsFunctions.find((f) => f.name === 'get_public_vs_problem')!;
    const onBoard = { vs_categories: [{ id: 'wifi', name: 'wifi', is_confidential: false, public_eligible: true }], vs_tickets: inserted.vs_tickets.map((t) => ({ ...t, is_public: true, public_title: 'x', category: 'wifi', status: 'open', public_comments: [] })) };
    const found = (ref: string) => (problem.predict(onBoard, { kind: 'anon' }, { p_ref: ref }, settings) as { outcome: { rows: unknown[] } }).outcome.rows;
    expect(found(drawn)).toHaveLength(1);
    expect(found(vsPublicRef('VS-2001', settings)!)).toEqual([]);
  });

  it('a remark names a ticket by its model id, its uuid or its bigint; bounded; another ticket’s uuid names that one', () => {
    const world = { vs_tickets: [{ id: 'VS-1' }, { id: 'VS-2' }] };
    expect(namedTicketIds('merged into VS-1', world)).toEqual(['VS-1']);
    expect(namedTicketIds(`merged into ${textAsUuid('VS-1')}`, world)).toEqual(['VS-1']);
    expect(namedTicketIds(`merged into ${uuidAsBigint('VS-2')}`, world)).toEqual(['VS-2']);
    expect(namedTicketIds(`merged into x${textAsUuid('VS-1')}`, world)).toEqual([]);
    expect(namedTicketIds('merged into an older report', world)).toEqual([]);
  });

  it('get_public_org_chart: members and nodes in any order, a member more or less still differs', () => {
    const chart = teamFunctions.find((f) => f.name === 'get_public_org_chart')!;
    const a = { node_id: 'n', name: 'A', nickname: null, position: null };
    const b = { node_id: 'n', name: 'B', nickname: null, position: null };
    const compared = (members: unknown[]) => chart.comparedAs!([{ nodes: [], members }] as never, {}, ModelSettingsSchema.parse({}));
    expect(compared([a, b])).toEqual(compared([b, a]));
    expect(compared([a, b])).not.toEqual(compared([a]));
    // A nested value whose keys come in another order is the same jsonb: the same place in the order.
    const c = { node_id: 'n', name: 'C', nickname: null, position: { b: 1, a: 0 } };
    const cReordered = { node_id: 'n', name: 'C', nickname: null, position: { a: 0, b: 1 } };
    const d = { node_id: 'n', name: 'C', nickname: null, position: { a: 5, b: 0 } };
    expect(compared([c, d])).toEqual(compared([d, cReordered]));
  });
});
