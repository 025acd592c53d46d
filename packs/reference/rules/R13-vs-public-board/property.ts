/**
 * R13 — public board: a VS ticket appears only if is_public, its category exists, is not
 * confidential and is public-eligible, and a staff headline is set; the raw report is never
 * published. get_public_vs_board, get_public_vs_problem (and its comment thread),
 * vs_set_public, vs_post_public_comment and get_vs_linked_context agree on the unknown-category
 * case: hidden.
 * Cases: a VS world with categories missing, confidential, unknown (null flags) or public;
 * sometimes a handler publishes or unpublishes a ticket, or the server deletes a category;
 * then the board, the problem, a comment and the linked context are read or posted.
 */
import fc from 'fast-check';
import type { ApiRequest } from '../../../../engine/model/request.ts';
import type { ModelSettings } from '../../model/settings.ts';
import { vsPublicCommentKey, vsPublicRef } from '../../model/tables/vs-tickets.ts';
import { rpc, step } from '../../generators/vs-requests.ts';
import { handlerCaller, onBoard, VS_CATEGORY_IDS, vsCaller, vsWorld, vsWorldOf } from '../../generators/vs-world.ts';
import { fakerValue } from '../../generators/faker.ts';
import type { DataCase } from '../../../../engine/runner/data-case.ts';
import type { DataProperty } from '../../../../engine/runner/data-property.ts';
import { argsOf, clause, isRpc, sidedClause } from '../clauses.ts';

const headline = fakerValue((f) => f.lorem.sentence({ min: 3, max: 6 }), 'vsBoardHeadline');

/** `headlines`: a guide's cases (GUIDES): the handler publishes the ticket with one of these headlines. */
function cases(settings: ModelSettings, headlines?: fc.Arbitrary<string | null>): fc.Arbitrary<DataCase> {
  return vsWorld(settings).chain((w0) => {
    const ids = w0.tickets.map((t) => String(t.id));
    return fc
      .record({
        boarded: fc.option(fc.constantFrom(...ids), { nil: undefined }),
        caller: handlerCaller(settings, w0),
        other: vsCaller(w0),

        t: fc.constantFrom(...ids),
        first: headlines ? fc.constant(0) : fc.integer({ min: 0, max: 3 }),
        // null: a flag that is neither (refused, never read as unpublish).
        publish: headlines
          ? fc.constant<boolean | null>(true)
          : fc.oneof({ weight: 12, arbitrary: fc.constant<boolean | null>(true) }, { weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(null) }),
        // No headline (null: a missing key and a JSON null are one SQL argument), blank, or whitespace the blank test keeps.
        title: headlines ?? fc.oneof({ weight: 4, arbitrary: headline }, { weight: 2, arbitrary: fc.constantFrom<string | null>(null, null, '', '  ', '\t', ' \r\n') }),
        category: fc.constantFrom(...VS_CATEGORY_IDS),
        // A missing body (null) as well as a blank one: `btrim(null) = ''` is null, not true.
        body: fc.oneof({ weight: 4, arbitrary: fc.constant<string | null>('Same problem in block D') }, { weight: 1, arbitrary: fc.constantFrom('', ' ', null) }),
        // Rule 13: the headline or the comment repeats the student's raw report, verbatim or within;
        // 'title-padded': the stored report has blanks around it and the headline repeats it trimmed.
        echo: headlines ? fc.constant('none') : fc.constantFrom('none', 'none', 'none', 'title', 'title-within', 'comment-within', 'title-padded'),
      })
      .map(({ boarded, caller, other, t, first, publish, title: drawnTitle, category, body: drawnBody, echo }): DataCase => {
        const w1 = boarded ? onBoard(settings, w0, boarded) : w0;
        const report = String(w1.tickets.find((x) => x.id === t)?.report ?? '');
        const w = echo === 'title-padded' ? { ...w1, tickets: w1.tickets.map((x) => (x.id === t ? { ...x, report: `  ${report} ` } : x)) } : w1;
        const title = echo === 'title' || echo === 'title-padded' ? report : echo === 'title-within' ? `Update: ${report}` : drawnTitle;
        const body = echo === 'comment-within' ? `${report} (same here)` : drawnBody;
        const ref = vsPublicRef(t, settings);
        const setup: ApiRequest[] =
          first === 0
            ? [rpc('vs_set_public', { p_id: t, p_public: publish, p_title: title })]
            : first === 1
              ? [{ kind: 'delete', table: 'vs_categories', filters: [{ column: 'id', op: 'eq', value: category }], returning: 'minimal' }]
              : [];
        return {
          world: vsWorldOf(w),
          steps: [
            ...setup.map((r) => step(r.kind === 'delete' ? { kind: 'service' } : caller, r)),
            step(other, rpc('get_public_vs_board', {})),
            step(other, rpc('get_public_vs_problem', { p_ref: ref })),
            step(other, rpc('vs_post_public_comment', { p_ref: vsPublicCommentKey(t, settings), p_body: body })),
            step({ kind: 'anon' }, rpc('get_public_vs_problem', { p_ref: ref })),
            step(other, rpc('get_vs_linked_context', { p_id: ids[(ids.indexOf(t) + 1) % ids.length] })),
          ],
        };
      });
  });
}

/** A headline that is none, blank, or whitespace the blank test keeps: each a branch plain cases reach about once in 100. */
const GUIDES = [
  { branch: 'R13.publish.headline-missing', cases: (settings: ModelSettings) => cases(settings, fc.constant(null)) },
  { branch: 'R13.publish.headline-blank', cases: (settings: ModelSettings) => cases(settings, fc.constantFrom('', '  ')) },
  { branch: 'R13.publish.headline-whitespace', cases: (settings: ModelSettings) => cases(settings, fc.constantFrom('\t', ' \r\n')) },
];

const CLAUSES = [
  clause('R13.publish', 'vs_set_public publishing a ticket', (s) => isRpc(s, 'vs_set_public') && argsOf(s).p_public === true),
  clause('R13.comment', 'vs_post_public_comment', (s) => isRpc(s, 'vs_post_public_comment')),
  sidedClause('R13.repeats-report', 'a headline or comment repeating the raw report (refused) / not repeating it (allowed)', (s) => {
    if (!isRpc(s, 'vs_set_public') && !isRpc(s, 'vs_post_public_comment')) return undefined;
    const refused = s.outcome.kind === 'raised' && s.outcome.refusal?.reason === 'repeats-report';
    return refused ? 'refused' : s.outcome.kind === 'allowed' ? 'allowed' : undefined;
  }),
];

export const R13: DataProperty = {
  id: 'R13',
  rule: 13,
  title: 'VS public board: published, public category, staff headline; all public functions hide the unknown category',
  tables: ['vs_tickets', 'vs_categories'],
  functions: ['get_public_vs_board', 'get_public_vs_problem', 'vs_set_public', 'vs_post_public_comment', 'get_vs_linked_context'],
  cases: (settings) => cases(settings),
  clauses: CLAUSES,
  guides: GUIDES,
};
