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

  // Rule 2: who may PATCH a users row, and the owner guard's answer to a role change.
  'R02.row.own': "a users row PATCHed by its own user",
  'R02.row.admin': "another user's row PATCHed by an admin",
  'R02.row.other': "another user's row PATCHed by a non-admin (hidden: nothing updated)",
  'R02.owner.exempt': 'a staff owner PATCHes their own row (the guard lets role through)',
  'R02.owner.allow-list': 'a non-staff owner changes only allow-listed columns',
  'R02.owner.refused': 'a non-staff owner changes role or another guarded column (refused)',

  // Rule 3 is above. Rule 5: an insert's read-back (engine), the PR insert check, an upsert's conflict.
  'R05.insert.read-back.selectable': 'an insert that reads its row back (representation, headers-only, upsert) may see it',
  'R05.insert.read-back.not-selectable': 'an insert that reads its row back may not see it (42501 for the whole insert)',
  'R05.insert.unread': 'an insert with return=minimal of a row the caller may see',
  'R05.insert.unread.not-selectable': 'an insert with return=minimal of a row the caller may not see (allowed)',
  'R05.upsert.conflict.merged': 'an upsert (merge-duplicates) met an existing row: the UPDATE path',
  'R05.upsert.conflict.ignored': 'an upsert (ignore-duplicates) met an existing row: skipped',
  'R05.pr.own': 'a PR ticket filed in the caller\'s own name',
  'R05.pr.handler': 'a PR ticket filed for someone else by a PR handler',
  'R05.pr.on-behalf': 'a PR ticket filed for someone else by an on-behalf role (cannot read it back)',
  'R05.pr.other': 'a PR ticket filed for someone else by a caller who may not (refused)',

  // Rule 6: the new row of a VS ticket PATCH against the writer's scope (WITH CHECK).
  'R06.check.submitter': "a VS ticket's new row passes WITH CHECK as the writer's own ticket",
  'R06.check.in-scope': "a VS ticket's new row stays in the writer's handler scope",
  'R06.check.out-of-scope': "a VS ticket's new row leaves the writer's scope (42501)",
  'R06.transfer.done': 'vs_transfer_dept moved a ticket (the way out of one\'s scope)',
  'R06.transfer.not-found': 'vs_transfer_dept on a ticket not in the caller\'s scope (refused)',

  // Rule 7: what "live" reads (null and absent deleted_at alike), and the soft delete's decisions.
  'R07.deleted-at.null': 'a row whose deleted_at is null (live)',
  'R07.deleted-at.set': 'a row whose deleted_at is set (soft-deleted: hidden)',
  'R07.patch.deleted-at': 'a direct PATCH that would set or change deleted_at (refused)',
  'R07.pr-delete.not-authorized': 'soft_delete_pr_ticket by a caller who is not PR staff (NOT_AUTHORIZED)',
  'R07.pr-delete.not-found': 'soft_delete_pr_ticket by PR staff on no live ticket',
  'R07.pr-delete.deleted': 'soft_delete_pr_ticket deleted a ticket',
  'R07.vs-delete.not-authorized': 'soft_delete_vs_ticket by a caller who is not staff (NOT_AUTHORIZED)',
  'R07.vs-delete.not-found': 'soft_delete_vs_ticket by staff on no live ticket they may delete',
  'R07.vs-delete.deleted': 'soft_delete_vs_ticket deleted a ticket',

  // Rule 8: how the caller's role resolves (fails closed), and a transfer's destination.
  'R08.identity.no-session': 'no session (the server context): no users row, no role',
  'R08.identity.no-users-row': 'a signed-in caller with no users row: no role',
  'R08.identity.anonymous': 'an anonymous sign-in (settings.anonymousSignIns: whether its users row counts)',
  'R08.role.null': 'a users row whose role is null: no role',
  'R08.role.set': 'a users row with a role',
  'R08.transfer.destination-missing': 'vs_transfer_dept with a null or absent destination (refused)',
  'R08.transfer.destination-blank': 'vs_transfer_dept with a destination of blank characters only (refused)',
  'R08.transfer.destination-whitespace': 'vs_transfer_dept with a destination of whitespace settings.blankCharacters does not trim (a tab, \\r\\n)',
  'R08.transfer.destination-text': 'vs_transfer_dept with a destination',

  // Rule 9: the handler scope the definer functions re-apply, and each merge refusal.
  'R09.scope.unrestricted': 'a handler whose scope is every department',
  'R09.scope.own-dept': "a dept-scoped handler and a ticket of their department",
  'R09.scope.other-dept': "a dept-scoped handler and another department's ticket (out of scope)",
  'R09.scope.no-dept': 'a dept-scoped handler with no department (nothing in scope)',
  'R09.caller.not-handler': 'a VS definer function called by a caller who is not a VS handler (refused)',
  'R09.similar.none': 'find_similar_vs_tickets on a ticket out of scope, deleted, missing or without a category (empty; the unhandled ones refused under vs.similarForUnhandledTicket)',
  'R09.similar.listed': 'find_similar_vs_tickets answered from a ticket in scope',
  'R09.merge.not-found': 'merge_vs_tickets naming a ticket out of scope, deleted or missing (refused)',
  'R09.merge.self': 'merge_vs_tickets of a ticket into itself (refused)',
  'R09.merge.cross-department': 'merge_vs_tickets across departments (refused)',
  'R09.merge.primary-duplicate': 'merge_vs_tickets into a primary that is itself a duplicate (refused, or merged: vs.mergeIntoDuplicate)',
  'R09.merge.done': 'merge_vs_tickets merged two tickets',

  // Rule 10: a professor's signed upload, decision by decision, and who reads sign requests and settings.
  'R10.upload.actor': 'a project file inserted by a project actor',
  'R10.upload.kind': "a professor's upload of a kind other than the allowed ones (refused)",
  'R10.upload.uploader': "a professor's upload in someone else's name (refused)",
  'R10.upload.not-addressed': "a professor's upload on a project with no open request addressed to them (refused)",
  'R10.upload.addressed': "a professor's upload on a project with an open request addressed to them (allowed)",
  'R10.sign-request.actor': 'a sign request read by its actor',
  'R10.sign-request.professor': 'a sign request read by the addressed professor',
  'R10.sign-request.other': "a sign request hidden from someone who is neither its actor nor its professor",
  'R10.settings.staff': 'project_settings read by staff',
  'R10.settings.hidden': 'project_settings hidden from a non-staff caller',

  // Rule 11: a node of the public chart, by what makes it public or not.
  'R11.node.private': 'a node that is not public itself',
  'R11.node.ancestor-private': 'a public node under a non-public ancestor (hidden with the subtree)',
  'R11.node.public': 'a node public all the way to the root',

  // Rule 12: which remark entries the submitter sees, and id-bearing remarks by any writer.
  'R12.remark.not-object': 'a stored remark that is not a JSON object (not shown)',
  'R12.remark.vis-absent': 'a stored remark without a "vis" key (not shown)',
  'R12.remark.vis-other': 'a stored remark whose "vis" is not "ticket" (not shown)',
  'R12.remark.internal-true': 'a ticket remark with "internal": true (not shown)',
  'R12.remark.internal-absent': 'a ticket remark without an "internal" key (shown)',
  'R12.remark.internal-null': 'a ticket remark with "internal": null (shown)',
  'R12.remark.internal-false': 'a ticket remark with "internal": false (shown)',
  'R12.id.bounded': "a text naming another ticket's id, bounded (an id-bearing remark)",
  'R12.id.unbounded-only': "a text holding another ticket's id only inside a longer token (no id: VS-1 in VS-10)",
  'R12.id-bearing.written': 'a writer appended a ticket-visible remark naming another ticket (refused or stored internal)',

  // Rule 13: the public board's conditions, the category's flags (null: unknown), publishing and echoes.
  'R13.board.not-public': 'a live ticket not marked public (off the board)',
  'R13.board.title-missing': 'a public ticket whose headline is null (off the board)',
  'R13.board.title-blank': 'a public ticket whose headline is blank (off the board)',
  'R13.board.category-hidden': 'a public ticket with a headline whose category is not public (off the board)',
  'R13.board.shown': 'a ticket on the public board',
  'R13.category.none': 'a ticket with no category (not public)',
  'R13.category.unknown': 'a category id that resolves to no category (not public)',
  'R13.category.confidential-null': 'a category whose is_confidential is null (unknown: not public)',
  'R13.category.confidential': 'a confidential category (not public)',
  'R13.category.eligible-null': 'a category whose public_eligible is null (unknown: not public)',
  'R13.category.not-eligible': 'a category not public-eligible (not public)',
  'R13.category.public': 'a known, not confidential, public-eligible category',
  'R13.publish.not-found': 'vs_set_public on a ticket not in the caller\'s scope (refused)',
  'R13.publish.unpublished': 'vs_set_public took a ticket off the board',
  'R13.publish.headline-missing': 'vs_set_public without a headline (refused)',
  'R13.publish.headline-blank': 'vs_set_public with a blank headline (refused)',
  'R13.publish.headline-whitespace': 'vs_set_public with a headline of whitespace settings.blankCharacters does not trim (a tab, \\r\\n)',
  'R13.publish.category-not-public': 'vs_set_public of a ticket whose category is not public (refused)',
  'R13.publish.done': 'vs_set_public put a ticket on the board',
  'R13.echo.verbatim': 'a headline or comment that holds the raw report as stored (refused)',
  'R13.echo.trimmed': 'a headline or comment that holds the raw report only once trimmed (refused)',
  'R13.comment.not-found': 'vs_post_public_comment on a problem not on the board (refused)',
  'R13.comment.body-blank': 'vs_post_public_comment with a blank body (refused)',
  'R13.comment.posted': 'vs_post_public_comment posted a comment',

  // Rule 15: EXECUTE grants (engine branches, `grant.execute.…`).
  'R15.grant.execute.denied': 'a function the caller\'s role may not execute (42501 before its body)',
  'R15.grant.execute.granted': 'a function the caller\'s role may execute',

  // Rule 16: table grants (engine branches, `grant.table.…`).
  'R16.grant.table.denied': 'a table request the caller\'s role holds no privilege for (42501 before any row rule)',
  'R16.grant.table.granted': 'a table request the caller\'s role holds the privileges for',

  // Rule 17: identity_conflicts' reader, the caller's auth identity, team e-mails compared as lower(trim()).
  'R17.conflict.admin': 'an identity conflict read by an admin',
  'R17.conflict.own': "an identity conflict read by the person whose record it is",
  'R17.conflict.other': "an identity conflict hidden from someone else (or from a caller who is no person)",
  'R17.auth.no-identity': 'a signed-in caller without an auth e-mail (no person)',
  'R17.auth.email': 'a signed-in caller resolved through their auth e-mail',
  'R17.member.exact': "a team member's e-mail equals the caller's as written",
  'R17.member.case-only': "a team member's e-mail equals the caller's only case-insensitively",
  'R17.member.trim': "a team member's e-mail equals the caller's only after trimming spaces",

  // Rule 19: who reads a passport profile (table or view), and the tier thresholds (>=).
  'R19.profile.owner': 'a passport profile read by its owner',
  'R19.profile.admin': "another user's passport profile read by an admin",
  'R19.profile.hidden': "a passport profile hidden from someone else",
  'R19.tier.at-threshold': "a profile's points exactly at its tier's threshold",
  'R19.tier.above-threshold': "a profile's points above its tier's threshold",

  // Rule 20: the identity-gated functions without a session, and the leaderboard's gate.
  'R20.grant.execute.denied': 'an identity-gated function called without the grant (anon: 42501)',
  'R20.leaderboard.not-admin': 'admin_leaderboard by a caller who is not an admin (NOT_AUTHORIZED)',
  'R20.leaderboard.admin': 'admin_leaderboard answered to an admin',
  'R20.sync.no-session': 'sync_my_team_permissions with no session (the server context: NOT_AUTHORIZED)',
  'R20.person.no-session': 'an identity-gated answer asked with no session (no person)',
});

export const { take, decide } = referenceBranches;
