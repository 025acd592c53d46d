/**
 * Every choice policyfuzz makes where the spec leaves a value open, in one place. The reference
 * migrations in db/ agree with these defaults; a project with its own schema overrides them in
 * its config (policyfuzz.config.json → "model").
 */
import { z } from 'zod';
import type { TableMisfit } from '../../../engine/pack.ts';
import { normalizedEmail as postgresNormalizedEmail } from './functions/identity.ts';
import { withDomain } from '../../../engine/model/email-address.ts';
import { ERROR_CODE } from '../../../engine/executor/pgrst-raise.ts';

const roleList = z.array(z.string().min(1));
/** A regular expression (its source), checked to compile. */
/**
 * The default error text: any. Where the spec names no text a project may word its refusals as it
 * likes (no false alarm); a project that wants its wording pinned sets the pattern. The one text
 * the spec names, rule 20's NOT_AUTHORIZED, is checked whatever this says.
 */
const ANY_TEXT = '';

const pattern = z.string().refine(
  (source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

/**
 * The reference's output columns of each function that returns a table (spec §4 names some,
 * not all): the default of functionColumns. A project may return fewer of them.
 */
export const REFERENCE_FUNCTION_COLUMNS: Record<string, readonly string[]> = {
  get_vs_ticket_by_id: ['id', 'submitter_label', 'target_dept', 'status', 'category', 'is_public', 'public_title', 'duplicate_of', 'is_duplicate', 'tags', 'remarks', 'report', 'updated_at'],
  find_similar_vs_tickets: ['id', 'target_dept', 'status', 'category', 'duplicate_of', 'is_duplicate'],
  get_public_vs_board: ['public_ref', 'public_title', 'category', 'status', 'target_dept'],
  get_public_vs_problem: ['public_ref', 'public_title', 'category', 'status', 'target_dept', 'comments'],
  get_vs_linked_context: ['public_ref', 'public_title', 'status'],
  get_pr_ticket_by_id: ['id', 'submitter_label', 'brief', 'file_url', 'status'],
  'passport.admin_leaderboard': ['user_id', 'display_name', 'points', 'tier'],
};

const privileges = z.array(z.enum(['select', 'insert', 'update', 'delete']));

/** The VS functions refusing a ticket they cannot find (refusals.notFoundAs). */
export const NOT_FOUND_REFUSING_FUNCTIONS = ['merge_vs_tickets', 'vs_transfer_dept', 'vs_set_public', 'vs_post_public_comment'] as const;

/** The VS handlers' functions refusing a caller who handles no ticket (refusals.nonHandlerAs). */
export const NON_HANDLER_REFUSING_FUNCTIONS = ['merge_vs_tickets', 'vs_transfer_dept', 'vs_set_public'] as const;

export const ModelSettingsSchema = z
  .object({
    /** Application roles held in users.role (spec §1 lists them; "admin" is our name for the admin role). */
    roles: roleList.default(['user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin']),
    /** Roles that count as staff (handlers): exempt from owner guards, may soft-delete. */
    staffRoles: roleList.default(['dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'admin']),
    /** Roles that count as admins: may update any user row, read identity conflicts, the leaderboard. */
    adminRoles: roleList.default(['admin', 'dev']),
    /**
     * A permission whose holder (with any role: a null role is no one) counts as an admin too (the
     * spec names `master` without saying what it grants): `private.is_admin()` as `role = 'admin'
     * or has_permission('master')`. Default none: admins are roles only. `policyfuzz init` reads it
     * off the admin helper.
     */
    adminPermission: z.string().min(1).nullable().default(null),
    /** Permission vocabulary held in permissions / managed_permissions. */
    permissions: roleList.default(['vs', 'pr', 'house', 'master']),
    /**
     * Permissions that imply others (the spec is silent): { "master": ["*"] } makes whoever holds
     * master hold every permission, { "lead": ["vs", "pr"] } only those. Default none: a
     * permission stands only for itself. Every permission test of the model reads it
     * (identity.ts currentUserHasPermission).
     */
    permissionImplies: z.record(z.string().min(1), z.array(z.string().min(1))).default({}),
    /**
     * What a Supabase anonymous sign-in (a token with role authenticated and is_anonymous true,
     * and an auth.users row) may do. The spec's "signed in" is a session whose token names a
     * subject (§5), which an anonymous sign-in has: by default it is a signed-in caller like any
     * other, with whatever role its users row gives it. 'no-role': a project that gives anonymous
     * sessions nothing but what a signed-in caller with no role gets (no role, department or
     * permission, whatever its users row says).
     */
    anonymousSignIns: z.enum(['signed-in', 'no-role']).default('signed-in'),
    /**
     * Rule 1's cases: `all-tables` (one world holding rows of every owner-guarded table, each
     * patched in the same case) or `one-table` (one table's rows and patches per case). A
     * project's schema that cannot hold one table's rows (a NOT NULL owner, an owner without a
     * users row) drops every `all-tables` case; `one-table` drops only that table's.
     * `policyfuzz init` writes `one-table` for a project.
     */
    ownerGuardCases: z.enum(['all-tables', 'one-table']).default('all-tables'),
    /** The claims a signed-in caller's access token carries besides who they are. */
    claims: z
      .object({
        /**
         * The token's `app_metadata.role`. The spec decides roles by users.role, so the model never
         * reads the claim. 'untrusted' (default): a token may carry any role an admin tool wrote
         * there (some callers' say admin whatever users.role says; generators/identities.ts), so a
         * policy trusting the claim is found. 'users.role': the project mirrors users.role into the
         * claim (a custom access token hook, or a trigger writing raw_app_meta_data): each request's
         * token carries the caller's role as the model reads it at that request (none when it has
         * none), so a policy reading the claim is judged as one reading users.role.
         */
        appMetadataRole: z.enum(['untrusted', 'users.role']).default('untrusted'),
      })
      .strict()
      .prefault({}),
    /**
     * Table grants per role, by table: { "vs_categories": { "anon": [] } }. The spec asks for an
     * explicit grant to the intended roles (rule 16), not which; a table or API role not named here
     * keeps the reference's grants (docs/config.md lists them). Any other key is a Postgres role of
     * the project's own (`"app_admin": ["select", "delete"]`; `init` proposes them from the
     * catalog): rule 16 compares its grants as the API roles', and it holds nothing where not
     * named. A failure on a grant names this.
     */
    tableGrants: z
      .record(
        z.string(),
        z
          .object({
            anon: privileges.optional(),
            authenticated: privileges.optional(),
            // Column-level UPDATE (`grant update (first_name) on profiles to authenticated`) where the role holds no table-level UPDATE; model column names, by role.
            columnUpdate: z.record(z.string(), z.array(z.string())).optional(),
            // Column-level INSERT (`grant insert (title, body) on vs_tickets to authenticated`) where the role holds no table-level INSERT; model column names, by role.
            columnInsert: z.record(z.string(), z.array(z.string())).optional(),
            // Column-level SELECT (`grant select (id, title) on vs_tickets to authenticated`, rule 12's allow-list) where the role holds no
            // table-level SELECT; model column names, by role. Its reads then name these columns, as its client does (engine/model/granted-columns.ts).
            columnSelect: z.record(z.string(), z.array(z.string())).optional(),
          })
          .catchall(privileges),
      )
      .default({}),
    /**
     * The output columns of each function that returns a table (default: the reference's, in
     * REFERENCE_FUNCTION_COLUMNS). A project whose function returns fewer of them lists its own;
     * a column the model does not know is a settings error.
     */
    functionColumns: z
      .object(Object.fromEntries(Object.entries(REFERENCE_FUNCTION_COLUMNS).map(([f, cols]) => [f, roleList.default([...cols])])))
      .strict()
      .prefault({}),
    /**
     * Columns, by table, the generators never leave null. Default none: some users have no role
     * (the spec's callers with a null role, §7), some categories no flags, some tickets no
     * submitter. A schema holding one NOT NULL (`role app_role not null default 'user'`) cannot
     * store such a row, so every case drawing one was dropped: listed here, the cases are drawn
     * among those it holds (same meaning, fewer worlds). `policyfuzz init` proposes each list from
     * the target's NOT NULL columns.
     */
    notNullColumns: z
      .object({
        users: z.array(z.enum(['display_name', 'avatar_url', 'phone', 'role', 'department'])).default([]),
        vs_categories: z.array(z.enum(['is_confidential', 'public_eligible'])).default([]),
        vs_tickets: z.array(z.enum(['submitter_id'])).default([]),
        identity_conflicts: z.array(z.enum(['detail'])).default([]),
        'passport.profiles': z.array(z.enum(['display_name'])).default([]),
        student_change_requests: z.array(z.enum(['requested_value'])).default([]),
      })
      .strict()
      .prefault({}),
    /**
     * Columns, by table, drawn as stored: a person's e-mail in a student record or a team seat is
     * drawn case-flipped or padded too (rule 17 compares them as lower(trim())), unless listed
     * here. A schema keeping them normalized (`kkumail = lower(btrim(kkumail))`, an e-mail domain
     * refusing spaces) cannot store such a row, so nearly every case was dropped. `policyfuzz init`
     * proposes each list from the target's CHECKs (engine/config/normalized-draws.ts).
     */
    normalizedColumns: z
      .object({
        student_records: z.array(z.enum(['email'])).default([]),
        team_members: z.array(z.enum(['email'])).default([]),
        /** A person's users row keeps the sign-in e-mail as drawn (capitals too) unless listed (stranger-app-11: `CHECK (email = lower(email))`). */
        users: z.array(z.enum(['email'])).default([]),
        /**
         * The sign-in e-mail itself (auth.users.email, the token's email claim) is drawn with capitals
         * now and then, unless listed: a signup trigger copying it into a column that keeps e-mails
         * lower-cased (stranger-app-17's `members.email app.email_address`, a domain of `value =
         * lower(value)`) refused every such identity. E-mails are case-insensitive (the model's person
         * link is lower(trim(…)) on both sides), so either draw is a secure reading; listed, the
         * case-insensitive match is still met where the other side (a record, a seat) has a variant.
         */
        'auth.users': z.array(z.enum(['email'])).default([]),
      })
      .strict()
      .prefault({}),
    /**
     * How phone columns (users.phone, shop_orders.shipping_phone) are drawn: `any` (faker's
     * `703.301.3354 x6280`, `(911) 831-9377`; a shipping phone as any text) or `international`
     * (E.164, `+17453189368`), which a project's phone CHECK or domain (`^\+?[0-9 -]+$`) accepts.
     * `policyfuzz init` writes `international` for a project; the reference keeps `any`.
     */
    phoneStyle: z.enum(['any', 'international']).default('any'),
    /**
     * The domain every drawn e-mail is in (a person's sign-in e-mail, a team seat's, a student
     * record's), or null: faker's (`gmail.com`, `yahoo.com`, …). A project whose e-mail column holds
     * one domain only (`kkumail ~ '@kkumail\.com$'`, `lower(kkumail) LIKE '%@kkumail.com'`: the
     * spec's team seat is a "kkumail-type e-mail") refused every world naming another, and a
     * seat matches its person by e-mail, so every e-mail is drawn there. `policyfuzz init`
     * proposes it from such a CHECK (engine/config/email-domain.ts).
     */
    emailDomain: z
      .string()
      .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a lower-case domain such as kkumail.com')
      .nullable()
      .default(null),
    /** Departments (users.department, vs_tickets.target_dept). */
    departments: roleList.default(['ENG', 'SCI', 'ART', 'LAW', 'SE']),
    /**
     * `closed` (the reference): a ticket's target_dept outside `departments` is refused (a CHECK,
     * 23514). `open`: the schema keeps no list (the spec names none), so any code is stored; its
     * own format CHECK, where it has one, refuses what it refuses (such a case is dropped, named).
     */
    departmentList: z.enum(['closed', 'open']).default('closed'),
    users: z
      .object({
        /** Rule 1: columns an owner may change on their own users row; every other column is guarded. */
        ownerEditableColumns: roleList.default(['display_name', 'avatar_url', 'phone']),
        /** Rule 1: never compared by the guard (generated columns and updated_at). */
        guardExcludedColumns: roleList.default(['updated_at']),
      })
      .default({ ownerEditableColumns: ['display_name', 'avatar_url', 'phone'], guardExcludedColumns: ['updated_at'] }),
    /** VS tickets (rules 3, 6, 7, 8, 9, 12, 13, 14). */
    vs: z
      .object({
        /**
         * A VS handler: a non-null role in handlerRoles, or any non-null role holding
         * handlerPermission (in permissions or managed_permissions).
         */
        handlerRoles: roleList.default(['vs_staff', 'vp_admin', 'admin', 'dev']),
        handlerPermission: z.string().min(1).default('vs'),
        /**
         * Dept-scoped handlers see and act on tickets whose target_dept equals their own
         * department only (none when their department is null): the roles here, and every
         * handler who is one only through handlerPermission. Other handlers see every department.
         */
        deptScopedRoles: roleList.default(['vp_admin']),
        /**
         * The scope of a handler only through handlerPermission (the spec scopes vp_admin alone;
         * silent on permission holders): `own-department` (default, the reference) or
         * `every-department` (stranger-app-5's `current_user_can_handle_vs`: a `vs` holder handles
         * every ticket). A role in deptScopedRoles stays scoped either way.
         */
        permissionScope: z.enum(['own-department', 'every-department']).default('own-department'),
        /** Rule 1/3: columns a submitter (not a handler in scope) may change on their own ticket. */
        ownerEditableColumns: roleList.default(['remarks']),
        /** Rule 1: never compared by the guard (generated columns and updated_at). */
        guardExcludedColumns: roleList.default(['updated_at', 'is_duplicate', 'public_ref']),
        /**
         * Rule 3 / §8: the cap on remarks entries. The spec does not say how it is enforced: a
         * CHECK (23514, the reference) or a trigger or function refusing (refusals 'remarks-cap')
         * are both accepted.
         */
        remarksCap: z.number().int().positive().default(20),
        /**
         * Rule 3: "attributed to the submitter label". The spec names no such label: null (the
         * reference) is each ticket's own submitter_label column; a word (`submitter`) is one
         * label for every ticket, as a guard comparing `by` with that word reads it. Worlds draw
         * their tickets' labels as that word too.
         */
        submitterLabel: z.string().min(1).nullable().default(null),
        /** Cap on the public comment thread of a published ticket. */
        publicCommentsCap: z.number().int().positive().default(50),
        statuses: roleList.default(['open', 'in_progress', 'resolved', 'closed']),
        /** Status a merged duplicate is auto-closed with. */
        mergedStatus: z.string().min(1).default('closed'),
        /**
         * merge_vs_tickets into a primary that is itself a duplicate: the spec is silent, and
         * either answer is secure. 'refused' (the reference) raises 'already-duplicate';
         * 'merged' merges as into any other primary (duplicate_of names the primary as given).
         */
        mergeIntoDuplicate: z.enum(['refused', 'merged']).default('refused'),
        /**
         * find_similar_vs_tickets called by a caller with a role who handles nothing: `refused` (rule
         * 9's not-authorized), or `empty` (a read scoped to what they handle: no similar ticket). Both
         * are secure; one of them, not either per call, so a target that answers one way for ids that
         * exist and the other for ids that do not (telling which tickets exist) disagrees.
         */
        similarForNonHandler: z.enum(['refused', 'empty']).default('refused'),
        /**
         * find_similar_vs_tickets called by a handler with a ticket they do not handle (missing,
         * deleted, or outside their scope): `empty` (default, the reference: no similar ticket) or
         * `refused` (rule 9's not-authorized, as stranger-app-7's `if not found or not
         * can_handle_vs(…) then raise`). Both tell nothing of which ids exist; one of them, not
         * either per call. `policyfuzz init` proposes `refused` from such a body.
         */
        similarForUnhandledTicket: z.enum(['empty', 'refused']).default('empty'),
        /**
         * What find_similar_vs_tickets calls similar (the spec: only that it stays in the caller's
         * scope; any subset of that is secure). The reference: other live tickets of the same
         * category. `similarUncategorized`: a ticket with no category has `none` (default) or the
         * other uncategorized ones `alike` (`category is not distinct from`); `similarDuplicates`:
         * merged tickets `listed` (default) or `left-out` (`duplicate_of is null`). `policyfuzz
         * init` reads both off the body; a failure on them names these settings.
         */
        similarUncategorized: z.enum(['none', 'alike']).default('none'),
        similarDuplicates: z.enum(['listed', 'left-out']).default('listed'),
        /**
         * vs_set_public(false): the headline `kept` (default, the reference: republishing shows it
         * again) or `cleared` (public_title set to null). The spec is silent; both are secure.
         */
        unpublishedTitle: z.enum(['kept', 'cleared']).default('kept'),
        /**
         * vs_set_public(p_public => null): `refused` (default, the reference: rule 8's unresolvable
         * value denied, 'argument-required') or `unpublish` (taken as false, as `coalesce(p_public,
         * false)` does: the ticket leaves the board). The spec is silent; both are secure, publishing
         * on a null never is. `policyfuzz init` proposes `unpublish` from such a body.
         */
        nullPublic: z.enum(['refused', 'unpublish']).default('refused'),
        /**
         * The headline vs_set_public stores: `as-given` (default, the reference) or `trimmed` of
         * blankCharacters (`public_title = btrim(p_title)`). The spec is silent; both are secure.
         * `policyfuzz init` proposes `trimmed` from such a body.
         */
        publishedTitle: z.enum(['as-given', 'trimmed']).default('as-given'),
        /**
         * Which stored headlines a schema's CHECK lets a ticket hold: `any` (default, the
         * reference: worlds draw public tickets with a null or blank headline too), `no-blank` (`public_title is
         * null or char_length(btrim(public_title)) > 0`: a blank one is drawn null) or
         * `public-needs-title` (`not is_public or nullif(trim(public_title), '') is not null`: an
         * untitled ticket is drawn private). A row the CHECK refuses cannot exist there; both are
         * secure. `policyfuzz init` proposes them from vs_tickets' CHECKs.
         */
        storedTitles: z.enum(['any', 'no-blank', 'public-needs-title']).default('any'),
        /**
         * What vs_post_public_comment names the problem by: `public-ref` (default, the reference:
         * the board's public handle) or `ticket-id` (the spec's table says these functions take a
         * "ticket id and related").
         */
        publicCommentKey: z.enum(['public-ref', 'ticket-id']).default('public-ref'),
        /**
         * Who may comment on a public problem: `signed-in` (default, the reference: any caller with
         * a role) or `staff-handlers` (staff handling the ticket; the caller is checked, with the
         * ticket, before the comment's words). The spec is silent; both are secure.
         */
        publicCommenters: z.enum(['signed-in', 'staff-handlers']).default('signed-in'),
        /**
         * Rule 12: a ticket-visible remark must not carry another ticket's id, whoever writes it
         * (a PATCH, vs_transfer_dept's p_remarks). The spec says id-bearing remarks are marked
         * internal, not how: 'refused' (the reference) raises; 'marked-internal' stores such an
         * entry with internal: true, so the submitter never sees it.
         */
        idBearingRemarks: z.enum(['refused', 'marked-internal']).default('refused'),
        /**
         * Who files a ticket with what rule 3 keeps from its submitter (is_public, public_title,
         * duplicate_of, a status, tags, remarks, public comments) already set: `nobody` (default,
         * the reference: every ticket is filed plain) or `handlers-in-scope` (a submitter who handles
         * the ticket's department, and may set those by an update: rule 1 exempts handlers; a
         * visible remark carrying a ticket id is still refused, rule 12). The spec is silent on
         * filing; both are secure. `policyfuzz init` proposes `handlers-in-scope` where the INSERT
         * policy's check lets a handler helper stand for the plain-ticket conditions.
         */
        handlerFiling: z.enum(['nobody', 'handlers-in-scope']).default('nobody'),
        /**
         * Whom vs_tickets' own SELECT and UPDATE policies let in: `submitters-and-handlers` (default,
         * the reference: a submitter reads and updates their own tickets through the table) or
         * `handlers` (the table is the handlers'; submitters read their own through a view of allowed
         * columns, rule 12's allow-list, and add remarks through a function: stranger-app-11's
         * `my_vs_tickets`, -9's `api.my_vs_tickets`). Under `handlers` a submitter's GET and PATCH of
         * the table touch none of their tickets and an insert reading its row back is refused; another
         * person's ticket stays unseen either way. The spec is silent on which relation; both are secure.
         */
        submitterTableAccess: z.enum(['submitters-and-handlers', 'handlers']).default('submitters-and-handlers'),
        /**
         * The public board's handle of a ticket (vs_tickets.public_ref, generated): prefix plus the
         * first `length` hex digits of a digest of the id. The spec only says it is not the id
         * (the submitter's tracking capability); the reference: 'pub-' || substr(md5(id), 1, 16).
         */
        publicHandle: z
          .object({
            /**
             * `id` (the reference): the formula below over the id. `random`: the target draws the
             * handle at insert (`public_ref uuid default gen_random_uuid()`); the model draws one
             * per ticket (a uuid no formula over the id gives) and the fixtures write it into the
             * row, so both sides hold it; a handle that shows or derives from the id then differs.
             */
            from: z.enum(['id', 'random']).default('id'),
            prefix: z.string().default('pub-'),
            digest: z.enum(['md5', 'sha1', 'sha256']).default('md5'),
            length: z.number().int().min(8).max(64).default(16),
            /** The id digested, as the target keeps it (mapping uuidIds / bigintIds): `model` (its text), `uuid`, `bigint`. */
            idAs: z.enum(['model', 'uuid', 'bigint']).default('model'),
          })
          .strict()
          .prefault({}),
        /** Rule 12: the generic remark the submitter gets on auto-close (no id). */
        autoCloseRemark: z.string().min(1).default('This report was closed because the same problem is already being handled.'),
        /** Rule 12: who the auto-close remark is by. The spec names no author; `policyfuzz init` reads it off merge_vs_tickets. */
        autoCloseAuthor: z.string().min(1).default('system'),
        /**
         * Rule 12: the merge's id-bearing note ("merged into <id>"), kept internal (internal: true).
         * The spec says only "marked internal": its `vis` (never `ticket`, the submitter's) and `by`
         * are the project's. `policyfuzz init` reads both off merge_vs_tickets.
         */
        mergeNoteVis: z.string().min(1).refine((v) => v !== 'ticket', 'an internal note is not vis "ticket" (what the submitter sees)').default('staff'),
        mergeNoteAuthor: z.string().min(1).default('system'),
        /**
         * The primary's id in the merge's note as the target keeps it (`model`: its text; `uuid`,
         * `bigint`: a mapping's uuidIds / bigintIds). A submitter re-sending the remarks re-sends the
         * note as stored, and rule 3's append-only guard compares it as stored (stranger-app-5's R07).
         * `policyfuzz init` reads it off vs_tickets.id's type.
         */
        mergeNoteIdAs: z.enum(['model', 'uuid', 'bigint']).default('model'),
      })
      .prefault({}),
    /** PR tickets (rules 1, 5, 7, 8, 14). */
    pr: z
      .object({
        /** A PR handler: a non-null role in handlerRoles, or any non-null role holding handlerPermission. */
        handlerRoles: roleList.default(['pr_staff', 'staff', 'admin', 'dev']),
        handlerPermission: z.string().min(1).default('pr'),
        /** Rule 5: roles that may file a ticket on someone else's behalf (they cannot read it back). */
        onBehalfRoles: roleList.default(['uni_staff', 'sa_prof']),
        /**
         * Rule 5 names no one who may file a ticket in another's name: `handlers-and-roles` lets PR
         * handlers and onBehalfRoles do it; `nobody` (every INSERT policy pins the submitter to
         * the caller, or to null for a guest) lets no one, as securely.
         */
        onBehalfFiling: z.enum(['handlers-and-roles', 'nobody']).default('handlers-and-roles'),
        statuses: roleList.default(['open', 'in_progress', 'done', 'rejected']),
        /** Status a new ticket must have (insert check). */
        initialStatus: z.string().min(1).default('open'),
        /** Rule 1: columns a submitter (not a handler) may change on their own ticket. */
        ownerEditableColumns: roleList.default(['brief', 'file_url']),
        guardExcludedColumns: roleList.default(['updated_at']),
        /** Rule 14: characters get_pr_ticket_by_id trims from both ends of both ids. */
        trimmedCharacters: z.string().default(' \t\r\n'),
      })
      .prefault({}),
    /** Shop orders (rules 1, 4, 5, 8). Amounts are integers in the smallest currency unit. */
    shop: z
      .object({
        /**
         * A shop handler: a non-null role in handlerRoles, or any non-null role holding
         * handlerPermission. The spec names a `house` permission but not what it grants: null where
         * no permission makes a shop handler (fewer handlers: as secure).
         */
        handlerRoles: roleList.default(['staff', 'admin', 'dev']),
        handlerPermission: z.string().min(1).nullable().default('house'),
        statuses: roleList.default(['pending', 'review', 'slip_mismatch', 'paid', 'shipped', 'completed', 'cancelled']),
        initialStatus: z.string().min(1).default('pending'),
        /** Rule 4: a buyer may update an order whose status is one of these, and only to one of these. */
        buyerEditableStatuses: roleList.default(['pending', 'review', 'slip_mismatch']),
        /** Rule 1/4: columns a buyer (not a handler) may change on their own order. */
        ownerEditableColumns: roleList.default(['status', 'payment_slips', 'shipping_name', 'shipping_phone', 'shipping_address', 'buyer_note']),
        guardExcludedColumns: roleList.default(['updated_at']),
      })
      .prefault({}),
    /** Projects (rule 10). */
    projects: z
      .object({
        /** Roles that act on projects: create projects, documents, files and sign requests. */
        actorRoles: roleList.default(['dev', 'staff', 'pr_staff', 'uni_staff', 'admin']),
        /** The professor role: addressed by sign requests, uploads signed files. */
        professorRoles: roleList.default(['sa_prof']),
        /**
         * Rule 10 says a professor's signed-file upload is an INSERT the row rules allow, not
         * when. The reference: a file of one of these kinds, on a project with a sign request
         * addressed to the caller in one of these statuses, uploaded in the caller's own name.
         */
        professorUpload: z
          .object({
            kinds: roleList.default(['signed']),
            requestStatuses: roleList.default(['pending']),
            uploaderIsCaller: z.boolean().default(true),
          })
          .prefault({}),
      })
      .prefault({}),
    /** The team tree and membership (rule 11). */
    team: z
      .object({
        /**
         * Who reads team_nodes and team_members through the table interface: `staff` (default,
         * the reference) or `admins`. Rule 11 shows the tree publicly only through
         * get_public_org_chart and names no other reader; a narrower set is as secure.
         */
        readers: z.enum(['staff', 'admins']).default('staff'),
        /**
         * Whether a signed-in member reads their own team_members row (user_id = the caller) through
         * the table interface: `hidden` (default, the reference) or `readable`. Rule 11 forbids anon
         * any row and names no other reader; a member reading their own row shows them only what is
         * theirs (the commonest Supabase membership policy). Other members' rows stay hidden.
         */
        ownMemberRow: z.enum(['hidden', 'readable']).default('hidden'),
        /**
         * Who reads team_members where it differs from team_nodes' readers (`team.readers`): `admins`
         * where the tree is read by staff and the members' personal data by admins only
         * (stranger-app-8); unset, the same readers. A narrower set is as secure.
         */
        memberReaders: z.enum(['staff', 'admins']).optional(),
      })
      .prefault({}),
    /** Student records and change requests (rule 18). */
    students: z
      .object({
        /** §8: get_my_student_record returns this many newest change-request outcomes. */
        historyLimit: z.number().int().positive().default(10),
        /**
         * Rule 18 / §8 say "newest 10" only: the order of change requests created at the same
         * instant, after created_at desc (the reference: `created_at desc, id desc`).
         */
        historyTieBreak: z.enum(['id desc', 'id asc']).default('id desc'),
        /**
         * The change-request id that tie-break compares, as the target keeps it: `model` (its text,
         * the reference), `uuid` or `bigint` (a key mapped with uuidIds / bigintIds: stranger-app-5's
         * `id bigint … identity`). `policyfuzz init` writes it from the mapping.
         */
        historyIdAs: z.enum(['model', 'uuid', 'bigint']).default('model'),
        /**
         * The spec names my_person_id() but not how a person is found: `email` (the reference: the
         * student record whose e-mail is the auth identity's, lower(trim(…))) or `user-id` (the
         * record keyed by its user: `student_records.id` is the user's id, as a
         * `user_id primary key references users`). Both start from the auth identity (secure).
         */
        personLink: z.enum(['email', 'user-id']).default('email'),
        /**
         * Which e-mail is the caller's where a person is found by e-mail (my_person_id,
         * get_my_student_record, sync_my_team_permissions): `auth` (the reference: the auth
         * identity's, auth.users) or `users-row` (the caller's users row's, as a schema joining
         * `public.users` does: a caller with no users row has none). Both start from auth.uid() (secure).
         */
        callerEmail: z.enum(['auth', 'users-row']).default('auth'),
        /**
         * §4.2: "the caller's own student record plus the caller's own change-request outcomes";
         * the key of each in get_my_student_record's object (the reference: record, requests).
         */
        recordOutput: z
          .object({ record: z.string().min(1).default('record'), requests: z.string().min(1).default('requests') })
          .strict()
          .prefault({}),
        statuses: roleList.default(['pending', 'approved', 'rejected']),
      })
      .prefault({}),
    /** Schema passport (rules 19, 20). */
    passport: z
      .object({
        /** Tiers of passport.user_tiers, highest first: the first whose minimum the points reach. */
        tiers: z
          .array(z.object({ name: z.string().min(1), minPoints: z.number().int().nonnegative() }))
          .default([
            { name: 'gold', minPoints: 1000 },
            { name: 'silver', minPoints: 300 },
            { name: 'bronze', minPoints: 0 },
          ]),
        /** passport.admin_leaderboard returns this many profiles, most points first. */
        leaderboardSize: z.number().int().positive().default(10),
      })
      .prefault({}),
    /**
     * What "blank" means for a headline, a comment body or a destination (spec rules 8 and 13 say
     * blank, not which characters): the characters trimmed before testing for ''. The reference
     * uses Postgres' btrim(), spaces only; a project that trims all whitespace sets ' \t\r\n'.
     */
    blankCharacters: z.string().min(1).default(' '),
    /**
     * Error texts of modelled refusals (spec §7 leaves them open except NOT_AUTHORIZED): per
     * reason, a regular expression the database's message must match. A project whose guards
     * word their errors differently overrides the reason here; a failure names this setting.
     * passport.admin_leaderboard's NOT_AUTHORIZED is named by the spec (rule 20, §7) and is
     * compared with the spec's text whatever this says.
     */
    refusals: z
      .object({
        messages: z
          .object({
            'not-authorized': pattern.default(ANY_TEXT),
            'privileged-column': pattern.default(ANY_TEXT),
            'deleted-at-by-function': pattern.default(ANY_TEXT),
            'remarks-append-only': pattern.default(ANY_TEXT),
            'remark-author': pattern.default(ANY_TEXT),
            'not-found': pattern.default(ANY_TEXT),
            'self-merge': pattern.default(ANY_TEXT),
            'cross-department': pattern.default(ANY_TEXT),
            'already-duplicate': pattern.default(ANY_TEXT),
            'destination-required': pattern.default(ANY_TEXT),
            'argument-required': pattern.default(ANY_TEXT),
            'headline-required': pattern.default(ANY_TEXT),
            'category-not-public': pattern.default(ANY_TEXT),
            'repeats-report': pattern.default(ANY_TEXT),
            'id-bearing-remark': pattern.default(ANY_TEXT),
            /**
             * Rule 3 / §8: remarks beyond the cap, where a project enforces it in a trigger or a
             * function instead of a CHECK (23514): either answer is accepted.
             */
            'remarks-cap': pattern.default(ANY_TEXT),
            /** Rule 4: a buyer's own order outside the buyer's window, where a project refuses it in a trigger instead of its UPDATE policy. */
            'buyer-window': pattern.default(ANY_TEXT),
          })
          .strict()
          .prefault({}),
        /**
         * The SQLSTATE each refusal raises, by reason (default P0001, PostgREST 400). A project
         * whose guard raises 42501 (403) for a privileged column sets
         * { "privileged-column": "42501" }. Rule 20's NOT_AUTHORIZED text stays the spec's.
         */
        // A SQLSTATE, or the code a RAISE SQLSTATE 'PGRST' body gives (engine/executor/pgrst-raise.ts).
        codes: z.record(z.string(), z.string().regex(ERROR_CODE, "a SQLSTATE, or the code of a RAISE SQLSTATE 'PGRST' body (no blanks, not a number alone)")).default({}),
        /**
         * What soft_delete_pr_ticket and soft_delete_vs_ticket do when no live ticket has the id
         * (the spec: answer whether one was deleted, so false). `raise`: a project whose function
         * refuses instead, with the not-found refusal (its SQLSTATE refusals.codes.not-found, e.g.
         * P0002 no_data_found). A failure on such an answer names this setting. Per function
         * (`{ "soft_delete_vs_ticket": "raise" }`, the other `answer`) where a project's two differ.
         */
        notFound: z.union([z.enum(['answer', 'raise']), z.partialRecord(z.enum(['soft_delete_pr_ticket', 'soft_delete_vs_ticket']), z.enum(['answer', 'raise']))]).default('answer'),
        /**
         * The refusal of a VS function that finds no ticket the caller may act on, per function:
         * `not-found` (default) or `not-authorized` (a function that refuses a missing ticket as
         * it refuses one outside the caller's scope; both tell nothing of which ids exist). One of
         * them, not either per call: a target answering one way for existing ids and the other for
         * missing ones is an existence oracle. A failure on it names this setting.
         */
        notFoundAs: z.partialRecord(z.enum(NOT_FOUND_REFUSING_FUNCTIONS), z.enum(['not-found', 'not-authorized'])).default({}),
        /**
         * The refusal of a VS handler's function called by a caller with a role who handles no
         * VS ticket, per function: `not-authorized` (default, rule 9's) or `not-found` (a function
         * gating callers otherwise, staff say, and then finding no ticket in their scope). Each
         * tells nothing of which ids exist; one of them, not either per call.
         */
        nonHandlerAs: z.partialRecord(z.enum(NON_HANDLER_REFUSING_FUNCTIONS), z.enum(['not-authorized', 'not-found'])).default({}),
      })
      .prefault({}),
  })
  .strict();

export type ModelSettings = z.infer<typeof ModelSettingsSchema>;

/** A signed-in caller's token is minted from the world (a hook mirrors users.role into app_metadata.role), not drawn: claims.appMetadataRole. */
export const tokensFromWorld = (settings: ModelSettings): boolean => settings.claims.appMetadataRole !== 'untrusted';

// Without zod's compiled fast path: parsed once as the pack loads, where compiling it cost more
// than it saves (15-45 ms of CPU in every run of the binary).
export const defaultSettings: ModelSettings = ModelSettingsSchema.parse({}, { jitless: true });

/** An e-mail as a normalizing CHECK stores it (settings.normalizedColumns): Postgres' lower(trim(…)), as the model's identity functions read it (one reading: trim removes spaces only). */
export function normalizedEmail(email: string): string {
  return postgresNormalizedEmail(email)!;
}

/** `email` in the domain settings.emailDomain names (its local part kept), or as drawn where none is named. */
export function inEmailDomain(settings: Pick<ModelSettings, 'emailDomain'> | undefined, email: string): string {
  const domain = settings?.emailDomain;
  return domain ? withDomain(email, domain) : email;
}

/** Whether the target keeps `table.column` normalized (settings.normalizedColumns): every generator then draws it as stored, no variant. */
export function drawnAsStored(settings: ModelSettings | undefined, table: string, column: string): boolean {
  return ((settings?.normalizedColumns as Record<string, readonly string[] | undefined> | undefined)?.[table] ?? []).includes(column);
}

/** Whether the target holds `table.column` NOT NULL (settings.notNullColumns): every generator then draws it without null. */
export function holdsNotNull(settings: ModelSettings, table: string, column: string): boolean {
  return ((settings.notNullColumns as Record<string, readonly string[] | undefined>)[table] ?? []).includes(column);
}

/**
 * Who is staff and who is admin must be roles of `roles`, and functionColumns only known columns: a project that mapped its role
 * vocabulary (init proposes it from the CHECK on users.role) but not yet who is staff, admin or
 * a handler would otherwise be tested against the reference's meanings, and fail falsely.
 */
export function roleListMisfits(settings: ModelSettings): (string | TableMisfit)[] {
  /** A list setting naming values its reference list lacks (roles by default; a table's statuses). */
  const unknownIn = (name: string, list: readonly string[], among: readonly string[] = settings.roles, amongName = 'roles', what = "roles they are") => {
    const unknown = list.filter((r) => !among.includes(r));
    return unknown.length ? [`model.${name} names ${unknown.join(', ')}, which model.${amongName} (${among.join(', ')}) does not have: say which of the project's ${what}`] : [];
  };
  // Staff and admin reach every table; a handler list matters only to the properties on its table.
  const everywhere = [...unknownIn('staffRoles', settings.staffRoles), ...unknownIn('adminRoles', settings.adminRoles)];
  const onTable: [string, readonly string[]][] = [
    ['vs_tickets', unknownIn('vs.handlerRoles', settings.vs.handlerRoles)],
    ['pr_tickets', unknownIn('pr.handlerRoles', settings.pr.handlerRoles)],
    ['shop_orders', unknownIn('shop.handlerRoles', settings.shop.handlerRoles)],
    ['projects', unknownIn('projects.actorRoles', settings.projects.actorRoles)],
    // A status list left at its default beside a project's own statuses (read by init off the CHECK):
    // the guard's window would be judged on statuses no row can hold (campus-shop's awaiting_payment).
    ['shop_orders', unknownIn('shop.buyerEditableStatuses', settings.shop.buyerEditableStatuses, settings.shop.statuses, 'shop.statuses', 'statuses a buyer may still edit in')],
  ];
  const onTables = onTable.flatMap(([table, texts]) => texts.map((text) => ({ table, text })));
  return [...everywhere, ...onTables, ...functionColumnMisfits(settings)];
}

/** functionColumns may only leave out columns: the model predicts no other. */
function functionColumnMisfits(settings: ModelSettings): string[] {
  return Object.entries(settings.functionColumns).flatMap(([fn, cols]) => {
    const known = REFERENCE_FUNCTION_COLUMNS[fn] ?? [];
    const unknown = (cols as string[]).filter((c) => !known.includes(c));
    return unknown.length ? [`model.functionColumns.${fn} names ${unknown.join(', ')}, which the model's ${fn} does not return (it knows ${known.join(', ')}): list only columns the function returns`] : [];
  });
}

/** Whether a ticket may hold this department as its target_dept (model.departmentList). */
export function storableDepartment(settings: Pick<ModelSettings, 'departments' | 'departmentList'>, value: unknown): boolean {
  return typeof value === 'string' && (settings.departmentList === 'open' || settings.departments.includes(value));
}
