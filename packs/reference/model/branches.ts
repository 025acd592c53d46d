/**
 * The reference model's branches (engine/model/branches.ts): every decision of the model a run
 * should see taken, finer than the rules' clauses. Ids are `<property>.<decision>`; the model's
 * code records them with `take` / `decide`, so an id used there is an id declared here.
 */
import { branchesOf } from '../../../engine/model/branches.ts';

export const referenceBranches = branchesOf({
  // Rule 1: each owner guard's allow or deny reason, per guarded table.
  'R01.pr_tickets.exempt': 'pr_tickets owner guard: the owner is a PR handler (exempt)',
  'R01.pr_tickets.allow-list': 'pr_tickets owner guard: an owner changed only allow-listed columns',
  'R01.pr_tickets.refused': 'pr_tickets owner guard: an owner changed a guarded column (refused)',
  'R01.shop_orders.exempt': 'shop_orders owner guard: the buyer is a shop handler (exempt)',
  'R01.shop_orders.allow-list': 'shop_orders owner guard: a buyer changed only allow-listed columns',
  'R01.shop_orders.refused': 'shop_orders owner guard: a buyer changed a guarded column (refused)',
  'R01.users.exempt': 'users owner guard: the user is exempt (admin)',
  'R01.users.allow-list': 'users owner guard: a user changed only allow-listed columns',
  'R01.users.refused': 'users owner guard: a user changed a guarded column (refused)',
  'R01.vs_tickets.exempt': 'vs_tickets owner guard: the submitter is a VS handler in scope (exempt)',
  'R01.vs_tickets.allow-list': 'vs_tickets owner guard: a submitter changed only allow-listed columns',
  'R01.vs_tickets.refused': 'vs_tickets owner guard: a submitter changed a guarded column (refused)',

  // Rule 3: a submitter's remark append, decision by decision (vs_tickets guard).
  'R03.remarks.not-array': 'remarks PATCHed to a value that is not an array (refused: append-only)',
  'R03.remarks.shortened': 'remarks PATCHed shorter than before (refused: append-only)',
  'R03.remarks.rewritten': 'remarks PATCHed with an earlier entry changed (refused: append-only)',
  'R03.remarks.appended': 'remarks PATCHed with the earlier entries kept',
  'R03.remark.handler-exempt': "a remark appended by a submitter who is a VS handler in scope (the submitter's checks skipped)",
  'R03.remark.not-object': 'an appended remark that is not a JSON object (refused)',
  'R03.remark.vis-absent': 'an appended remark without a "vis" key (refused; a <> check lets it through)',
  'R03.remark.vis-other': 'an appended remark whose "vis" is not "ticket" (refused)',
  'R03.remark.by-absent': 'an appended remark without a "by" key (refused; a <> check lets it through)',
  'R03.remark.by-case-only': 'an appended remark whose "by" equals the submitter label only case-insensitively (refused)',
  'R03.remark.by-other': 'an appended remark by another author (refused)',
  'R03.remark.internal-absent': 'an appended remark without an "internal" key (allowed)',
  'R03.remark.internal-false': 'an appended remark with "internal": false (allowed)',
  'R03.remark.internal-other': 'an appended remark with "internal" true or not a boolean false (refused)',
  'R03.remark.valid': "an appended remark the submitter may write (vis ticket, by the label, not internal)",

  // Rule 4: a buyer's PATCH of their own order, by where its status stands against the buyer's window.
  'R04.buyer.old-in-window': "a buyer's PATCH reached their own order while its status is in the buyer's window",
  'R04.buyer.old-out-of-window': "a buyer's PATCH met their own order past the buyer's window (left undone)",
  'R04.buyer.new-in-window': "a buyer's PATCH leaves their order's status in the buyer's window",
  'R04.buyer.new-out-of-window': "a buyer's PATCH moves their order's status out of the buyer's window (refused: paid)",

  // Rule 14: the guest PR lookup's normalised comparison, by what made the key match a stored id.
  'R14.pr.exact': 'get_pr_ticket_by_id: the key is a stored id as stored',
  'R14.pr.case-only': 'get_pr_ticket_by_id: the key equals a stored id only case-insensitively',
  'R14.pr.trim-spaces': 'get_pr_ticket_by_id: the key equals a stored id after trimming spaces',
  'R14.pr.trim-control': 'get_pr_ticket_by_id: the key equals a stored id only after trimming a tab, \\r or \\n',
  'R14.pr.no-match': 'get_pr_ticket_by_id: the key matches no stored id',

  // Rule 18: the caller's record found by e-mail, by how the two e-mails compare.
  'R18.email.exact': 'the sign-in e-mail equals a student record e-mail as written',
  'R18.email.case-only': 'the sign-in e-mail equals a record e-mail only case-insensitively (lower() on both sides needed)',
  'R18.email.trim': 'the sign-in e-mail equals a record e-mail only after trimming spaces',
  'R18.email.no-record': "the sign-in e-mail matches no student record",
});

export const { take, decide } = referenceBranches;
