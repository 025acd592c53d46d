import { describe, expect, it } from 'vitest';
import { jsonAnswerRows, proposeMapping, refusalConventions, snakeCased, proposeVocabularySubsets, rolesCompared, rolesPassed, roleParameterHelpers, type ModelTableFacts, type TargetFunctionFacts, type TargetTableFacts } from './propose.ts';
import { defaultSettings, referencePack } from '../../packs/reference/index.ts';
import { modelFunctionFacts } from '../config/init.ts';
import { answersVoidOf, type FunctionModel } from '../model/function-model.ts';
import { allowed } from '../model/outcome.ts';

const prTickets: ModelTableFacts = {
  name: 'pr_tickets',
  guarded: true,
  columns: [
    { name: 'id', type: 'text', primaryKey: true },
    { name: 'submitter_id', type: 'uuid' },
    { name: 'status', type: 'text', vocabulary: true, hasDefault: true },
    { name: 'deleted_at', type: 'timestamptz' },
    { name: 'updated_at', type: 'timestamptz' },
  ],
};
const orders: ModelTableFacts = {
  name: 'shop_orders',
  columns: [
    { name: 'id', type: 'uuid', primaryKey: true },
    { name: 'buyer_id', type: 'uuid' },
    { name: 'admin_note', type: 'text' },
    { name: 'buyer_note', type: 'text' },
  ],
};
const pressRequests: TargetTableFacts = {
  name: 'press_requests',
  anonCanSelect: true,
  columns: [
    { name: 'ref', type: 'text', primaryKey: true },
    { name: 'requested_by', type: 'uuid', references: { table: 'auth.users', column: 'id' } },
    { name: 'state', type: 'text', vocabulary: ['new', 'done'], defaultExpr: "'new'::text" },
    { name: 'channel', type: 'text', vocabulary: ['web', 'mail'] },
    { name: 'archived_at', type: 'timestamp with time zone' },
    { name: 'created_at', type: 'timestamp with time zone', defaultExpr: 'now()', notNull: true },
    { name: 'updated_at', type: 'timestamp with time zone', defaultExpr: 'now()', notNull: true },
  ],
};
const targetOrders: TargetTableFacts = {
  name: 'orders',
  anonCanSelect: true,
  columns: [
    { name: 'id', type: 'uuid', primaryKey: true },
    { name: 'customer_id', type: 'uuid', references: { table: 'auth.users', column: 'id' } },
    { name: 'customer_note', type: 'text' },
    { name: 'internal_note', type: 'text' },
  ],
};
const fn = (f: Partial<TargetFunctionFacts> & { name: string }): TargetFunctionFacts => ({ args: [{ name: 'p_ref', type: 'text' }], returns: 'scalar', outColumns: [], readOnly: false, trigger: false, source: '', ...f });

describe('proposing a mapping from the catalog', () => {
  const proposal = proposeMapping(
    {
      tables: [prTickets, orders],
      functions: [
        { name: 'get_pr_ticket_by_id', args: ['p_id'] },
        { name: 'soft_delete_pr_ticket', args: ['p_id'] },
        { name: 'current_user_role', args: [] },
      ],
    },
    {
      tables: [pressRequests, targetOrders],
      functions: [
        fn({ name: 'lookup_press_request', returns: 'setof-composite', outColumns: ['ref', 'state'], readOnly: true }),
        fn({ name: 'archive_press_request', returns: 'composite', returnsTable: 'press_requests', source: "RAISE EXCEPTION 'not authorized' USING ERRCODE = '42501';" }),
        fn({ name: 'app.my_role', args: [], readOnly: true }),
        fn({ name: 'app.guard', args: [], trigger: true, source: "RAISE EXCEPTION 'not authorized: no' USING ERRCODE = '42501';" }),
      ],
    },
    [{ path: 'pr.statuses', column: 'pr_tickets.status', initialPath: 'pr.initialStatus', generatedByName: ['open'] }],
  );

  it('finds renamed tables and columns by keys, references, vocabularies and learnt renames', () => {
    expect(proposal.mapping.tables!.pr_tickets).toEqual({
      name: 'press_requests',
      columns: { id: 'ref', submitter_id: 'requested_by', status: 'state', deleted_at: 'archived_at' },
    });
    // buyer_id → customer_id teaches buyer → customer, so buyer_note is customer_note, not internal_note.
    expect(proposal.mapping.tables!.shop_orders).toEqual({ name: 'orders', columns: { buyer_id: 'customer_id', buyer_note: 'customer_note', admin_note: 'internal_note' } });
  });

  it('finds renamed functions, their parameters, return shapes and output columns; helpers elsewhere are not API functions', () => {
    expect(proposal.mapping.functions).toEqual({
      get_pr_ticket_by_id: { name: 'lookup_press_request', args: { p_id: 'p_ref' }, columns: { id: 'ref', status: 'state' } },
      soft_delete_pr_ticket: { name: 'archive_press_request', args: { p_id: 'p_ref' }, returns: 'row-as-boolean' },
    });
  });

  it('proposes no refusal convention for a model with no functions and no guards (a pack for its own app)', () => {
    // After Capgo: init --pack, with a pack of plain tables, proposed the app's 42501 refusals be read as
    // the model's P0001 ("confirm: functions refuse with 42501…"), which no rule of the pack raises.
    const plain = proposeMapping({ tables: [{ ...prTickets, guarded: false }], functions: [] }, { tables: [pressRequests], functions: [fn({ name: 'archive_press_request', source: "RAISE EXCEPTION 'not authorized' USING ERRCODE = '42501';" }), fn({ name: 'app.guard', args: [], trigger: true, source: "RAISE EXCEPTION 'not authorized: no' USING ERRCODE = '42501';" })] });
    expect(plain.mapping.conventions?.functionRefusal).toBeUndefined();
    expect(plain.mapping.conventions?.guardRefusal).toBeUndefined();
    expect(plain.notes.join('\n')).not.toMatch(/refuse with/);
  });

  it('reads the refusal and grant conventions and the vocabularies, and says what is left to do', () => {
    expect(proposal.mapping.conventions).toEqual({
      functionRefusal: { code: '42501', message: '^not authorized' },
      guardRefusal: { code: '42501', message: '^not authorized' },
      grants: 'supabase-default',
    });
    expect(proposal.settings).toEqual({ pr: { statuses: ['new', 'done'], initialStatus: 'new' } });
    expect(proposal.notes.filter((n) => n.startsWith('to do'))).toEqual([expect.stringContaining('generate open in pr_tickets.status by name')]);
  });
});

describe('refusal conventions beside the refusals a setting codes (stranger-app-7)', () => {
  // After stranger-app-7: NOT_AUTHORIZED raised as 42501 was its functions' commonest code, so the
  // convention read 42501; once refusals.codes named that code, init left the convention out, and the
  // argument errors raised as 22023 (self-merge, cross-department, a destination, a category) failed
  // as "expected P0001" (R08, R09, R12, R13).
  const definers = [
    fn({ name: 'merge_vs_tickets', source: "raise exception 'NOT_AUTHORIZED' using errcode = '42501'; raise exception 'NOT_AUTHORIZED' using errcode = '42501'; raise exception 'a ticket cannot be merged into itself' using errcode = '22023';" }),
    fn({ name: 'vs_set_public', source: "raise exception 'NOT_AUTHORIZED' using errcode = '42501'; raise exception 'this ticket''s category cannot be published' using errcode = '22023';" }),
  ];
  const model = { tables: [], functions: [{}] };

  it('reads the next code once the commonest one is coded; a doubled quote is the message’s one', () => {
    expect(refusalConventions(model, { functions: definers }).functionRefusal?.code).toBe('42501');
    const beyond = refusalConventions(model, { functions: definers }, [{ code: '42501', text: 'NOT_AUTHORIZED' }]).functionRefusal;
    expect(beyond?.code).toBe('22023');
    expect(new RegExp(beyond!.message).test("this ticket's category cannot be published")).toBe(true);
    expect(new RegExp(beyond!.message).test('a ticket cannot be merged into itself')).toBe(true);
    expect(new RegExp(beyond!.message).test('NOT_AUTHORIZED')).toBe(false);
  });
});

describe("Supabase's default privileges kept, with one table's anon SELECT revoked (stranger-app-7)", () => {
  // After stranger-app-7: `revoke all on project_settings from anon` alone made init keep explicit
  // grants, and every anon or signed-in PATCH that row security filtered failed as "expected 42501 (grant)".
  const model = { tables: [prTickets, orders, { name: 'project_settings', columns: [{ name: 'id', type: 'uuid', primaryKey: true }] }], functions: [] };
  const settings: TargetTableFacts = { name: 'project_settings', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }] };
  const target = (defaultPrivilegesKept: boolean, revokedAlso: TargetTableFacts[] = []) => ({
    tables: [pressRequests, targetOrders, settings, ...revokedAlso].map((t) => (revokedAlso.some((r) => r.name === t.name) ? { ...t, anonCanSelect: false } : t)),
    functions: [],
    ...(defaultPrivilegesKept ? { defaultPrivilegesKept } : {}),
  });

  it('proposes supabase-default and names the revoked table', () => {
    const { mapping, notes } = proposeMapping(model, target(true));
    expect(mapping.conventions?.grants).toBe('supabase-default');
    expect(notes).toContainEqual("confirm: Supabase's default privileges are kept in public and anon holds SELECT on 2 of 3 mapped tables (revoked on project_settings): conventions.grants = supabase-default, row security decides");
  });

  it('a table revoked from anon is named with the setting to write, never written (stranger-app-12: anon reading a revoked team_members failed as "model expected success"; copying the catalog would pass rule 10\'s public projects revoked from anon)', () => {
    const revoked = { ...settings, grants: { anon: [], authenticated: ['select' as const] } };
    const { settings: proposed, notes } = proposeMapping(model, { ...target(true), tables: [pressRequests, targetOrders, revoked] });
    expect(proposed.tableGrants).toBeUndefined();
    expect(notes).toContainEqual("check: anon holds nothing on project_settings (revoked, where Supabase's defaults grant it): if the spec lets anon read none of its rows, write model.tableGrants.project_settings.anon: []; else it is a finding of rule 16");
  });

  it('keeps explicit grants where the default privileges were revoked, or where most tables are revoked', () => {
    expect(proposeMapping(model, target(false)).mapping.conventions?.grants).toBeUndefined();
    expect(proposeMapping(model, target(true, [targetOrders])).mapping.conventions?.grants).toBeUndefined();
  });
});

describe('words the rules draw by name that a target CHECK or enum lacks', () => {
  // After stranger-app-6: `kind private.node_kind` (root, division, team, unit) refused the model's `committee`: 386 cases dropped, no mapping proposed.
  const nodes: ModelTableFacts = { name: 'team_nodes', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'kind', type: 'text' }] };
  const enumNodes: TargetTableFacts = { name: 'team_nodes', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'kind', type: 'private.node_kind', vocabulary: ['root', 'division', 'team', 'unit'] }] };

  it('are each paired with a target word the rules never draw, proposed as values', () => {
    const { mapping, notes } = proposeMapping({ tables: [nodes], functions: [] }, { tables: [enumNodes], functions: [] }, [{ column: 'team_nodes.kind', generatedByName: ['team', 'division', 'committee'] }]);
    expect(mapping.tables?.team_nodes?.values).toEqual({ kind: { committee: 'root' } });
    expect(notes).toContainEqual(expect.stringMatching(/^confirm: the rules generate committee in team_nodes.kind by name/));
  });

  it('too few spare words: left to do, nothing proposed', () => {
    const narrow: TargetTableFacts = { ...enumNodes, columns: [enumNodes.columns[0], { name: 'kind', type: 'text', vocabulary: ['team', 'division'] }] };
    const { mapping, notes } = proposeMapping({ tables: [nodes], functions: [] }, { tables: [narrow], functions: [] }, [{ column: 'team_nodes.kind', generatedByName: ['team', 'division', 'committee'] }]);
    expect(mapping.tables?.team_nodes?.values).toBeUndefined();
    expect(notes).toContainEqual(expect.stringMatching(/^to do: the rules also generate committee/));
  });
});

describe("a project whose API's default schema is not public (config.toml schemas = [\"api\", …])", () => {
  // After stranger-app-6: views in `api` over tables in `private`; every rule was "not applicable".
  const users: ModelTableFacts = { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'role', type: 'text' }] };
  const tickets: ModelTableFacts = { name: 'vs_tickets', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'submitter_id', type: 'uuid', references: 'users' }] };
  const target = {
    tables: [
      { name: 'api.users', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'role', type: 'text' }] },
      { name: 'api.vs_tickets', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'submitter_id', type: 'uuid', references: { table: 'api.users', column: 'id' } }] },
    ],
    functions: [fn({ name: 'api.get_vs_ticket_by_id', args: [{ name: 'p_id', type: 'text' }], readOnly: true }), fn({ name: 'api.current_user_role', args: [], readOnly: true })],
  };
  const model = { tables: [users, tickets], functions: [{ name: 'get_vs_ticket_by_id', args: ['p_id'] }, { name: 'current_user_role', args: [] }] };

  it("matches its tables and functions as the model's bare names and proposes them qualified", () => {
    const { mapping } = proposeMapping(model, target, [], 'api');
    expect(mapping.tables).toEqual({ users: { name: 'api.users' }, vs_tickets: { name: 'api.vs_tickets' } });
    expect(mapping.functions).toEqual({ get_vs_ticket_by_id: { name: 'api.get_vs_ticket_by_id' }, current_user_role: { name: 'api.current_user_role' } });
  });

  it("finds another schema's objects kept in the one API schema, by a schema-prefixed or a bare name (stranger-app-17: passport's rules 19 and 20 were not applicable)", () => {
    const profiles: ModelTableFacts = { name: 'passport.profiles', columns: [{ name: 'user_id', type: 'uuid', primaryKey: true }, { name: 'points', type: 'integer' }] };
    const folded = {
      ...target,
      tables: [...target.tables, { name: 'api.passport_profiles', anonCanSelect: false, columns: [{ name: 'member_id', type: 'uuid', primaryKey: true }, { name: 'points', type: 'integer' }] }],
      functions: [...target.functions, fn({ name: 'api.admin_leaderboard', args: [], readOnly: true })],
      // a view joining tables has no shape of its own: named among the relations only
      relations: ['api.users', 'api.vs_tickets', 'api.passport_profiles', 'api.user_tiers'],
    };
    const withPassport = { tables: [...model.tables, profiles], functions: [...model.functions, { name: 'passport.admin_leaderboard', args: [] }], views: ['passport.user_tiers'] };
    const { mapping, notes } = proposeMapping(withPassport, folded, [], 'api');
    expect(mapping.tables?.['passport.profiles']).toMatchObject({ name: 'api.passport_profiles' });
    expect(mapping.tables?.['passport.user_tiers']).toEqual({ name: 'api.user_tiers' });
    expect(mapping.functions?.['passport.admin_leaderboard']).toEqual({ name: 'api.admin_leaderboard' });
    expect(notes).toContain("confirm: model passport.user_tiers is api.user_tiers (the API exposes one schema, which keeps passport's objects too)");
    expect(notes.filter((n) => n.startsWith('confirm: model table passport.profiles is '))).toEqual([expect.stringMatching(/^confirm: model table passport\.profiles is api\.passport_profiles\b/)]);
    // where the target keeps the schema itself, nothing is folded
    const exposed = proposeMapping(withPassport, { ...folded, tables: [...folded.tables, { ...folded.tables[2], name: 'passport.profiles' }] }, [], 'api');
    expect(exposed.mapping.tables?.['passport.profiles']?.name ?? 'passport.profiles').toBe('passport.profiles');
  });

  it("a jsonb answer reading the private table behind the API's view is the view's rows: tableRows (stranger-app-6: get_my_student_record, R18 failed on its record's columns)", () => {
    // `select jsonb_build_object('record', to_jsonb(s), …) from private.student_records s`: no tableRows was
    // proposed (the key's row is its select's own, and the table is the one behind api.student_records).
    const records: ModelTableFacts = { name: 'student_records', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }] };
    const requests: ModelTableFacts = { name: 'student_change_requests', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'status', type: 'text' }] };
    const source = `select case when auth.uid() is null then null else (
    select jsonb_build_object('record', to_jsonb(s),
      'requests', coalesce((select jsonb_agg(jsonb_build_object('id', r.id, 'status', r.status) order by r.id desc)
        from (select * from private.student_change_requests c where c.student_id = s.student_id limit 10) r), '[]'))
    from private.student_records s where s.student_id = api.my_person_id()) end`;
    const view = (name: string, columns: TargetTableFacts['columns']): TargetTableFacts => ({ name: `api.${name}`, viewOf: `private.${name}`, anonCanSelect: false, columns });
    const proposal = proposeMapping(
      { tables: [records, requests], functions: [{ name: 'get_my_student_record', args: [], answerRows: { record: ['id', 'email'], requests: ['id', 'status'] } }] },
      {
        tables: [
          view('student_records', [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }, { name: 'faculty', type: 'text' }]),
          view('student_change_requests', [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'status', type: 'text' }, { name: 'student_id', type: 'text' }]),
        ],
        functions: [
          fn({ name: 'api.my_person_id', args: [], returns: 'scalar', readOnly: true, source: 'select s.id from private.student_records s join auth.users a on a.id = auth.uid() where s.email = a.email' }),
          fn({ name: 'api.get_my_student_record', args: [], returns: 'scalar', readOnly: true, source }),
        ],
      },
      [],
      'api',
    );
    expect(proposal.mapping.functions?.get_my_student_record).toEqual({ name: 'api.get_my_student_record', tableRows: { record: 'student_records', requests: 'student_change_requests' }, extraColumns: ['faculty'] });
  });

  it("reads a guard's refusal raised by condition name (errcode = 'insufficient_privilege') as its SQLSTATE", () => {
    // stranger-app-6's guards: no guardRefusal was proposed, and every rule-1 refusal was a FAIL (42501 for the model's P0001).
    const guards = ['users', 'vs_tickets'].map((t) => fn({ name: `private.${t}_guard`, args: [], trigger: true, source: `raise exception '${t}: you may not change %', bad using errcode = 'insufficient_privilege';` }));
    const { mapping } = proposeMapping({ tables: [{ ...users, guarded: true }], functions: [] }, { tables: target.tables, functions: guards }, [], 'api');
    expect(mapping.conventions?.guardRefusal).toEqual({ code: '42501', message: '^(?:users|vs_tickets)' });
  });

  it("with public the default schema, api's functions are not the model's (the API calls public's); its tables of the model's bare names are, named with their schema", () => {
    const { mapping } = proposeMapping(model, target, []);
    expect(mapping.functions).toBeUndefined();
    expect(mapping.tables).toEqual({ users: { name: 'api.users' }, vs_tickets: { name: 'api.vs_tickets' } });
  });

  it("a table kept in a private schema under the model's bare name (private.student_records) is matched as that name, whichever schema the API defaults to", () => {
    // The schema lowered the name score to nothing: every rule on it was "not applicable".
    const records: ModelTableFacts = { name: 'student_records', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }, { name: 'faculty', type: 'text' }] };
    const kept: TargetTableFacts = { name: 'private.student_records', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }, { name: 'faculty', type: 'text' }] };
    for (const apiSchema of ['public', 'api']) {
      expect(proposeMapping({ tables: [records], functions: [] }, { tables: [kept], functions: [] }, [], apiSchema).mapping.tables, apiSchema).toEqual({ student_records: { name: 'private.student_records' } });
    }
    // A table of another bare name in another schema is still not the model's.
    const other: TargetTableFacts = { ...kept, name: 'private.student_files' };
    expect(proposeMapping({ tables: [records], functions: [] }, { tables: [other], functions: [] }).mapping.tables).toBeUndefined();
    // The public namesake, where there is one, is the model's.
    const publicOne: TargetTableFacts = { ...kept, name: 'student_records' };
    expect(proposeMapping({ tables: [records], functions: [] }, { tables: [kept, publicOne], functions: [] }).mapping.tables ?? {}).toEqual({});
  });
});

describe('init maps no column across types or meanings', () => {
  const projects: ModelTableFacts = {
    name: 'projects',
    columns: [
      { name: 'id', type: 'uuid', primaryKey: true },
      { name: 'title', type: 'text' },
      { name: 'owner_id', type: 'uuid' },
    ],
  };
  // The model's table name: the table is chosen, its columns are not guessed.
  const workspaces: TargetTableFacts = {
    name: 'projects',
    anonCanSelect: false,
    columns: [
      { name: 'id', type: 'uuid', primaryKey: true },
      { name: 'stripe_customer_id', type: 'text' },
      { name: 'owner_id', type: 'uuid', references: { table: 'auth.users', column: 'id' } },
    ],
  };

  it('leaves a title unmapped rather than onto the one text column left, stripe_customer_id', () => {
    const { mapping } = proposeMapping({ tables: [projects], functions: [] }, { tables: [workspaces], functions: [] });
    expect(mapping.tables?.projects?.columns).toEqual({ title: null });
  });

  it('a varchar(n) column is text: it keeps the model column of its name (format_type gives `character varying(255)`)', () => {
    const sized: TargetTableFacts = { ...workspaces, columns: [...workspaces.columns.filter((c) => c.name !== 'stripe_customer_id'), { name: 'title', type: 'character varying(255)' }] };
    const { mapping } = proposeMapping({ tables: [projects], functions: [] }, { tables: [sized], functions: [] });
    expect(mapping.tables?.projects?.columns ?? {}).toEqual({});
  });

  it("a text model column keeps its bytea namesake (the API sends it as a string), named for the user to confirm", () => {
    // After TypeCell: `data bytea not null` was "not found (null: the target has none)", and the world's rows lost it.
    const withData: TargetTableFacts = { ...workspaces, columns: [...workspaces.columns, { name: 'title', type: 'bytea', notNull: true }] };
    const { mapping, notes } = proposeMapping({ tables: [projects], functions: [] }, { tables: [withData], functions: [] });
    expect(mapping.tables?.projects?.columns ?? {}).toEqual({});
    expect(notes).toContain('confirm: projects columns the model types as text, kept by their name: title (bytea here)');
  });

  it('a model list of words (text[]) keeps its enum-array namesake (`permissions app_permission[]`)', () => {
    // After stranger-app-7: profiles.permissions public.app_permission[] was "not found (null: the target has none)".
    const users: ModelTableFacts = { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'permissions', type: 'text[]' }] };
    const profiles: TargetTableFacts = {
      name: 'profiles',
      anonCanSelect: false,
      columns: [
        { name: 'id', type: 'uuid', primaryKey: true, references: { table: 'auth.users', column: 'id' } },
        { name: 'permissions', type: 'app_permission[]', elementVocabulary: ['vs', 'pr', 'house', 'master'] },
      ],
    };
    const { mapping } = proposeMapping({ tables: [users], functions: [] }, { tables: [profiles], functions: [] });
    expect(mapping.tables?.users?.columns ?? {}).toEqual({});
    // An array of another type (a composite) is no list of words.
    const composite = { ...profiles, columns: [profiles.columns[0], { name: 'permissions', type: 'grant_entry[]' }] };
    expect(proposeMapping({ tables: [users], functions: [] }, { tables: [composite], functions: [] }).mapping.tables?.users?.columns).toEqual({ permissions: null });
  });

  it("a model handle (public_ref) is no target prose sharing its subject word (public_summary); a handle by another identifying name still is (stranger-app-10)", () => {
    // After stranger-app-10: vs_tickets.public_ref was mapped onto public_summary (the staff's summary), by the word `public` alone.
    const tickets: ModelTableFacts = { name: 'vs_tickets', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'public_ref', type: 'text', generated: true }, { name: 'public_title', type: 'text' }] };
    const target = (handle: string): TargetTableFacts => ({ name: 'vs_tickets', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'public_title', type: 'text' }, { name: handle, type: 'text' }] });
    expect(proposeMapping({ tables: [tickets], functions: [] }, { tables: [target('public_summary')], functions: [] }).mapping.tables?.vs_tickets?.columns).toEqual({ public_ref: null });
    expect(proposeMapping({ tables: [tickets], functions: [] }, { tables: [target('public_handle')], functions: [] }).mapping.tables?.vs_tickets?.columns).toEqual({ public_ref: 'public_handle' });
  });

  it('a model reference onto a legacy column with no foreign key declared (`submitter uuid`, `buyer text`) is still paired: only a handle onto text is no prose', () => {
    // Review of session 19: handleOntoProse left `submitter_id` and `buyer_id` unmapped on a schema declaring no foreign keys (stranger-app-11's 0001).
    const tickets: ModelTableFacts = { name: 'vs_tickets', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'submitter_id', type: 'uuid', references: 'users' }, { name: 'report', type: 'text' }] };
    const legacyTickets: TargetTableFacts = { name: 'vs_tickets', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'submitter', type: 'uuid' }, { name: 'report', type: 'text' }] };
    expect(proposeMapping({ tables: [tickets], functions: [] }, { tables: [legacyTickets], functions: [] }).mapping.tables?.vs_tickets?.columns ?? {}).toEqual({ submitter_id: 'submitter' });
    // A reference the model keeps as text, by name alone, onto a text column: the same buyer.
    const orders: ModelTableFacts = { name: 'shop_orders', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'buyer_id', type: 'text' }, { name: 'note', type: 'text' }] };
    const legacyOrders: TargetTableFacts = { name: 'shop_orders', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'buyer', type: 'text' }, { name: 'note', type: 'text' }] };
    expect(proposeMapping({ tables: [orders], functions: [] }, { tables: [legacyOrders], functions: [] }).mapping.tables?.shop_orders?.columns ?? {}).toEqual({ buyer_id: 'buyer' });
    // A handle the target keeps in a uuid (no prose type): the same handle under a shorter name.
    const parcels: ModelTableFacts = { name: 'parcels', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'tracking_ref', type: 'uuid' }] };
    const legacyParcels: TargetTableFacts = { name: 'parcels', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'tracking', type: 'uuid' }] };
    expect(proposeMapping({ tables: [parcels], functions: [] }, { tables: [legacyParcels], functions: [] }).mapping.tables?.parcels?.columns ?? {}).toEqual({ tracking_ref: 'tracking' });
  });

  it('citext outside the search path is text too (format_type gives `extensions.citext`)', () => {
    // After Atomic CRM: sales.email citext, created in schema extensions, was "kept by its name" as another type.
    const citext: TargetTableFacts = { ...workspaces, columns: [...workspaces.columns.filter((c) => c.name !== 'stripe_customer_id'), { name: 'title', type: 'extensions.citext' }] };
    const { mapping, notes } = proposeMapping({ tables: [projects], functions: [] }, { tables: [citext], functions: [] });
    expect(mapping.tables?.projects?.columns ?? {}).toEqual({});
    expect(notes.join('\n')).not.toContain('kept by their name');
  });

  it('a text model key lands on a uuid key only with uuidIds (sent as uuids, never as its text: 22P02)', () => {
    const uuidKeyed: TargetTableFacts = { ...pressRequests, columns: pressRequests.columns.map((c) => (c.name === 'ref' ? { ...c, type: 'uuid' } : c)) };
    const { mapping, notes } = proposeMapping({ tables: [prTickets], functions: [] }, { tables: [uuidKeyed], functions: [] });
    expect(mapping.tables?.pr_tickets).toMatchObject({ columns: { id: 'ref' }, uuidIds: ['id'] });
    expect(notes).toContain('confirm: press_requests keeps id as uuids where the model\'s are text ids: uuidIds');
  });

  it("a natural text key the model holds beside its own key takes the model's key; the natural column is null (stranger-app-6: student_records keyed by student_id)", () => {
    // After stranger-app-6: `id` was proposed null, so identity_conflicts.person_id named a record no row held: R17 dropped every case.
    const records: ModelTableFacts = {
      name: 'student_records',
      columns: [
        { name: 'id', type: 'uuid', primaryKey: true },
        { name: 'email', type: 'text' },
        { name: 'student_id', type: 'text' },
      ],
    };
    const keyed: TargetTableFacts = {
      name: 'student_records',
      anonCanSelect: false,
      columns: [
        { name: 'student_id', type: 'text', primaryKey: true, notNull: true },
        { name: 'email', type: 'text', notNull: true },
      ],
    };
    const { mapping, notes } = proposeMapping({ tables: [records], functions: [] }, { tables: [keyed], functions: [] });
    expect(mapping.tables?.student_records?.columns).toEqual({ id: 'student_id', student_id: null });
    expect(notes).toContainEqual(expect.stringMatching(/^confirm: student_records is keyed by student_id, its natural key/));
    // A target keyed by the model's own key column keeps both as they are.
    const both: TargetTableFacts = { ...keyed, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, ...keyed.columns.map((c) => ({ ...c, primaryKey: false }))] };
    expect(proposeMapping({ tables: [records], functions: [] }, { tables: [both], functions: [] }).mapping.tables?.student_records).toBeUndefined();
  });

  it("a key of several columns takes the model's id in the one no model column holds, in bigintIds' form for an integer (stranger-app-17: shop_orders (buyer_id, order_no))", () => {
    // After stranger-app-17: the model's `id` was proposed null, so every case naming an order by it was dropped (R04, R10).
    const numbered: TargetTableFacts = {
      name: 'orders',
      anonCanSelect: false,
      columns: [
        { name: 'buyer_id', type: 'uuid', keyPart: true, notNull: true, references: { table: 'auth.users', column: 'id' } },
        { name: 'line_no', type: 'integer', keyPart: true, notNull: true },
        { name: 'item_count', type: 'integer', notNull: true, defaultExpr: '0' },
        { name: 'admin_note', type: 'text' },
        { name: 'buyer_note', type: 'text' },
        { name: 'reviewed_by', type: 'uuid' },
      ],
    };
    const { mapping, notes } = proposeMapping({ tables: [orders], functions: [] }, { tables: [numbered], functions: [] });
    expect(mapping.tables?.shop_orders).toMatchObject({ name: 'orders', columns: { id: 'line_no' }, bigintIds: ['id'] });
    expect(notes).toContainEqual(expect.stringMatching(/^confirm: orders is keyed by buyer_id, line_no where the model keys shop_orders by id: id → line_no/));
    // Two key columns no model column holds: which is the id's is not guessed.
    const twoFree: TargetTableFacts = { ...numbered, columns: [...numbered.columns, { name: 'batch_no', type: 'integer', keyPart: true, notNull: true }] };
    expect(proposeMapping({ tables: [orders], functions: [] }, { tables: [twoFree], functions: [] }).mapping.tables?.shop_orders?.columns?.id).not.toBe('batch_no');
    expect(proposeMapping({ tables: [orders], functions: [] }, { tables: [twoFree], functions: [] }).mapping.tables?.shop_orders?.columns?.id).not.toBe('line_no');
    // A smallint cannot hold bigintIds' ids: no place.
    const small: TargetTableFacts = { ...numbered, columns: numbered.columns.map((c) => (c.name === 'line_no' ? { ...c, type: 'smallint' } : c)) };
    expect(proposeMapping({ tables: [orders], functions: [] }, { tables: [small], functions: [] }).mapping.tables?.shop_orders?.columns?.id).not.toBe('line_no');
  });

  it('a bigint identity key takes the model’s uuid key, proposed with bigintIds', () => {
    const purchases: TargetTableFacts = { ...targetOrders, name: 'purchases', columns: targetOrders.columns.map((c) => (c.name === 'id' ? { ...c, type: 'bigint' } : c)) };
    const proposal = proposeMapping({ tables: [orders], functions: [] }, { tables: [purchases], functions: [] });
    expect(proposal.mapping.tables!.shop_orders).toMatchObject({ name: 'purchases', bigintIds: ['id'] });
    expect(proposal.notes).toContainEqual(expect.stringMatching(/^confirm: purchases keeps id as bigint ids/));
  });

  it('a jsonb answer built from a bigint-keyed table carries its ids: found by the table named in the source (any identifier, `$` too)', () => {
    for (const name of ['purchases', 'purchases$v2']) {
      const purchases: TargetTableFacts = { ...targetOrders, name, columns: targetOrders.columns.map((c) => (c.name === 'id' ? { ...c, type: 'bigint' } : c)) };
      const summary = fn({ name: 'order_summary', args: [{ name: 'p_note', type: 'text' }], source: `return (select jsonb_agg(jsonb_build_object('id', id)) from public.${name});` });
      const proposal = proposeMapping({ tables: [orders], functions: [{ name: 'order_summary', args: ['p_note'] }] }, { tables: [purchases], functions: [summary] });
      expect(proposal.mapping.tables!.shop_orders).toMatchObject({ name, bigintIds: ['id'] });
      expect(proposal.mapping.functions?.order_summary?.bigintIds).toEqual(['id']);
      const elsewhere = proposeMapping({ tables: [orders], functions: [{ name: 'order_summary', args: ['p_note'] }] }, { tables: [purchases], functions: [{ ...summary, source: "return jsonb_build_object('id', 1);" }] });
      expect(elsewhere.mapping.functions?.order_summary?.bigintIds).toBeUndefined();
    }
  });

  it('a reference lands on no foreign key to another table, however alike the names (stranger-app-4: project_files.project_id is no document_id → project_documents)', () => {
    const model: ModelTableFacts[] = [
      projects,
      { name: 'project_documents', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'project_id', type: 'uuid', references: 'projects' }, { name: 'title', type: 'text' }] },
      { name: 'project_files', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'project_id', type: 'uuid', references: 'projects' }, { name: 'path', type: 'text' }] },
    ];
    const files = (ref: string, table: string): TargetTableFacts => ({
      name: 'project_files',
      anonCanSelect: true,
      columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: ref, type: 'uuid', notNull: true, references: { table, column: 'id' } }, { name: 'path', type: 'text' }],
    });
    const targetTables = (f: TargetTableFacts, filesName = 'project_files'): TargetTableFacts[] => [
      workspaces,
      { name: 'project_documents', anonCanSelect: true, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'project_id', type: 'uuid', references: { table: 'projects', column: 'id' } }, { name: 'title', type: 'text' }] },
      { ...f, name: filesName },
    ];
    // Keyed by document: the model's project_id has no counterpart.
    const byDocument = proposeMapping({ tables: model, functions: [] }, { tables: targetTables(files('document_id', 'project_documents')), functions: [] });
    expect(byDocument.mapping.tables?.project_files?.columns).toEqual({ project_id: null });
    // Keyed by project under another name: still mapped, and so is a renamed table found by its columns.
    const byProject = proposeMapping({ tables: model, functions: [] }, { tables: targetTables(files('parent_project_id', 'projects')), functions: [] });
    expect(byProject.mapping.tables?.project_files?.columns).toEqual({ project_id: 'parent_project_id' });
    const renamed = proposeMapping({ tables: model, functions: [] }, { tables: targetTables(files('project_id', 'projects'), 'attachments'), functions: [] });
    expect(renamed.mapping.tables?.project_files).toEqual({ name: 'attachments' });
  });

  it('where every key is a uuid, an integer parameter is a count, never proposed as a bigint id', () => {
    const proposal = proposeMapping({ tables: [orders], functions: [{ name: 'recent_orders', args: ['p_limit'] }] }, { tables: [targetOrders], functions: [fn({ name: 'recent_orders', args: [{ name: 'p_limit', type: 'integer' }], returns: 'setof-composite', outColumns: ['id'], readOnly: true })] });
    expect(proposal.mapping.functions?.recent_orders?.bigintIds).toBeUndefined();
    expect(proposal.notes.join('\n')).not.toContain('as bigint ids');
  });
});

describe('init reads function names in the target’s table words', () => {
  it('pr_tickets matched as service_requests teaches pr → service, ticket → request: remove_service_request is soft_delete_pr_ticket', () => {
    const serviceRequests: TargetTableFacts = { ...pressRequests, name: 'service_requests' };
    const { mapping } = proposeMapping(
      { tables: [prTickets], functions: [{ name: 'soft_delete_pr_ticket', args: ['p_id'] }, { name: 'get_pr_ticket_by_id', args: ['p_id'] }] },
      { tables: [serviceRequests], functions: [fn({ name: 'remove_service_request', args: [{ name: 'p_code', type: 'text' }], source: "return jsonb_build_object('removed', true, 'code', removed_code);" }), fn({ name: 'find_service_request', args: [{ name: 'p_code', type: 'text' }], readOnly: true })] },
    );
    expect(mapping.functions).toEqual({
      soft_delete_pr_ticket: { name: 'remove_service_request', args: { p_id: 'p_code' }, returns: { field: 'removed' } },
      get_pr_ticket_by_id: { name: 'find_service_request', args: { p_id: 'p_code' } },
    });
  });

  it('a table whose only likeness is a bigint key and one more column is not the model’s', () => {
    const projects: ModelTableFacts = { name: 'projects', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'title', type: 'text' }, { name: 'owner_id', type: 'uuid' }] };
    const comments: TargetTableFacts = { name: 'request_comments', anonCanSelect: false, columns: [{ name: 'id', type: 'bigint', primaryKey: true }, { name: 'author_id', type: 'uuid', references: { table: 'users', column: 'id' } }, { name: 'body', type: 'text' }] };
    expect(proposeMapping({ tables: [projects], functions: [] }, { tables: [comments], functions: [] }).mapping.tables).toBeUndefined();
  });
});

describe('a stranger’s schema of the spec’s domain (bigint keys, numeric money, enums, generated totals)', () => {
  const vsModel: ModelTableFacts = {
    name: 'vs_tickets',
    columns: [
      { name: 'id', type: 'text', primaryKey: true },
      { name: 'submitter_id', type: 'uuid' },
      { name: 'status', type: 'text', vocabulary: true, hasDefault: true },
      { name: 'duplicate_of', type: 'text', nullable: true },
      { name: 'is_duplicate', type: 'boolean', generated: true },
    ],
  };
  const vsTarget: TargetTableFacts = {
    name: 'vs_tickets',
    anonCanSelect: true,
    columns: [
      { name: 'id', type: 'bigint', primaryKey: true, notNull: true, serverFilled: 'identity' },
      { name: 'submitter_id', type: 'uuid', references: { table: 'users', column: 'id' }, notNull: true },
      { name: 'status', type: 'vs_status', vocabulary: ['open', 'closed'], defaultExpr: "'open'::vs_status" },
      { name: 'duplicate_of', type: 'bigint', references: { table: 'vs_tickets', column: 'id' } },
      { name: 'is_duplicate', type: 'boolean', serverFilled: 'generated' },
    ],
  };
  const ordersModel: ModelTableFacts = {
    name: 'shop_orders',
    columns: [
      { name: 'id', type: 'uuid', primaryKey: true },
      { name: 'buyer_id', type: 'uuid' },
      { name: 'subtotal', type: 'integer', hasDefault: true },
      { name: 'discount', type: 'integer', hasDefault: true },
      { name: 'total', type: 'integer', hasDefault: true },
    ],
  };
  const ordersTarget: TargetTableFacts = {
    name: 'shop_orders',
    anonCanSelect: true,
    columns: [
      { name: 'id', type: 'uuid', primaryKey: true, defaultExpr: 'gen_random_uuid()' },
      { name: 'order_no', type: 'bigint', serverFilled: 'identity', notNull: true },
      { name: 'buyer_id', type: 'uuid', references: { table: 'users', column: 'id' }, notNull: true },
      { name: 'subtotal', type: 'numeric(10,2)', notNull: true },
      { name: 'total', type: 'numeric(10,2)', serverFilled: 'generated' },
    ],
  };
  // passport keeps its own grants: Supabase's default privileges cover public only.
  const profiles: TargetTableFacts = { name: 'passport.profiles', anonCanSelect: false, columns: [{ name: 'user_id', type: 'uuid', primaryKey: true }, { name: 'points', type: 'integer' }] };
  const proposal = proposeMapping(
    {
      tables: [vsModel, ordersModel, { name: 'passport.profiles', columns: [{ name: 'user_id', type: 'uuid', primaryKey: true }, { name: 'points', type: 'integer' }] }],
      functions: [
        { name: 'get_vs_ticket_by_id', args: ['p_id'] },
        { name: 'merge_vs_tickets', args: ['p_duplicate', 'p_primary'], answersVoid: true },
      ],
    },
    {
      tables: [vsTarget, ordersTarget, profiles],
      functions: [
        fn({ name: 'get_vs_ticket_by_id', args: [{ name: 'p_id', type: 'bigint' }], returns: 'setof-composite', outColumns: ['id', 'status', 'duplicate_of'], readOnly: true }),
        fn({ name: 'merge_vs_tickets', args: [{ name: 'p_source', type: 'bigint' }, { name: 'p_target', type: 'bigint' }], returns: 'void' }),
      ],
    },
  );

  it('a bigint identity key takes a text model key, and a bigint reference to it is a bigint id too', () => {
    expect(proposal.mapping.tables!.vs_tickets).toEqual({ bigintIds: ['id', 'duplicate_of'] });
  });

  it('functions of that table take and answer its ids as bigints; parameters of the model’s function name are matched by position', () => {
    expect(proposal.mapping.functions).toEqual({
      get_vs_ticket_by_id: { bigintIds: ['p_id', 'id', 'duplicate_of'] },
      merge_vs_tickets: { args: { p_duplicate: 'p_source', p_primary: 'p_target' }, bigintIds: ['p_duplicate', 'p_primary'] },
    });
  });

  it('numeric money columns take the model’s integer amounts; a generated total and a sequence number are no model value', () => {
    expect(proposal.mapping.tables!.shop_orders).toEqual({ columns: { discount: null, total: null } });
    expect(proposal.notes).toContainEqual(expect.stringMatching(/^confirm: shop_orders\.total computed by the target \(GENERATED\)/));
  });

  it('Supabase default privileges are read on public’s tables: a passport table with its own grants does not hide them', () => {
    expect(proposal.mapping.conventions?.grants).toBe('supabase-default');
  });
});

describe('init heuristics that guessed wrong', () => {
  it('a function of the model’s name returning a table’s rows answers in that table’s renamed columns (stranger-app-4: report → body)', () => {
    const proposal = proposeMapping(
      {
        tables: [{ name: 'vs_tickets', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'report', type: 'text' }, { name: 'status', type: 'text' }] }],
        functions: [{ name: 'get_vs_ticket_by_id', args: ['p_id'] }],
      },
      {
        tables: [{ name: 'vs_tickets', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'report_text', type: 'text' }, { name: 'status', type: 'text' }] }],
        functions: [fn({ name: 'get_vs_ticket_by_id', args: [{ name: 'p_id', type: 'text' }], returns: 'setof-composite', returnsTable: 'vs_tickets', outColumns: ['id', 'report_text', 'status'], readOnly: true })],
      },
    );
    expect(proposal.mapping.tables?.vs_tickets?.columns).toEqual({ report: 'report_text' });
    expect(proposal.mapping.functions?.get_vs_ticket_by_id).toEqual({ columns: { report: 'report_text' } });
  });

  it('a function the model answers nothing from that returns a value here is proposed value-as-void; one returning void is left alone (stranger-app-5: vs_set_public returns jsonb)', () => {
    const proposal = proposeMapping(
      {
        tables: [],
        functions: [
          { name: 'vs_set_public', args: ['p_id'], answersVoid: true },
          { name: 'vs_post_public_comment', args: ['p_ref'], answersVoid: true },
          { name: 'soft_delete_vs_ticket', args: ['p_id'] },
        ],
      },
      {
        tables: [],
        functions: [
          fn({ name: 'vs_set_public', args: [{ name: 'p_id', type: 'uuid' }], returns: 'scalar', source: "begin return jsonb_build_object('id', p_id); end" }),
          fn({ name: 'vs_post_public_comment', args: [{ name: 'p_ref', type: 'uuid' }], returns: 'void' }),
          fn({ name: 'soft_delete_vs_ticket', args: [{ name: 'p_id', type: 'uuid' }], returns: 'scalar' }),
        ],
      },
    );
    expect(proposal.mapping.functions?.vs_set_public?.returns).toBe('value-as-void');
    expect(proposal.notes.join('\n')).toContain('vs_set_public returns a value where the model');
    expect(proposal.mapping.functions?.vs_post_public_comment?.returns).toBeUndefined();
    expect(proposal.mapping.functions?.soft_delete_vs_ticket?.returns).toBeUndefined();
  });

  it('a function returning void here where the model answers a value is proposed value-as-void too (stranger-app-6: soft_delete_* returns void, R07 and R14 failed)', () => {
    const proposal = proposeMapping(
      { tables: [], functions: [{ name: 'soft_delete_vs_ticket', args: ['p_id'] }, { name: 'vs_post_public_comment', args: ['p_ref'], answersVoid: true }] },
      {
        tables: [],
        functions: [fn({ name: 'soft_delete_vs_ticket', args: [{ name: 'p_id', type: 'text' }], returns: 'void' }), fn({ name: 'vs_post_public_comment', args: [{ name: 'p_ref', type: 'text' }], returns: 'void' })],
      },
    );
    expect(proposal.mapping.functions?.soft_delete_vs_ticket?.returns).toBe('value-as-void');
    expect(proposal.notes).toContain('confirm: soft_delete_vs_ticket returns nothing (void) where the model\'s soft_delete_vs_ticket answers a value: functions.soft_delete_vs_ticket.returns = "value-as-void" (only its success is compared)');
    expect(proposal.mapping.functions?.vs_post_public_comment).toBeUndefined();
  });

  it('the reference model marks the functions it answers nothing from', () => {
    const voidOnes = Object.values(referencePack.model.functions).filter((f) => f.answersVoid).map((f) => f.name).sort();
    expect(voidOnes).toEqual(['merge_vs_tickets', 'vs_post_public_comment', 'vs_set_public', 'vs_transfer_dept']);
  });

  it("a model function answering a success with no rows is void to init though it does not declare answersVoid: a void target is no value-as-void (Readest's increment_book_share_download)", () => {
    // init proposed `returns: "value-as-void"` for a model written as docs/function-models.md writes a void function.
    const defineFunction = (f: FunctionModel) => f;
    const bump = defineFunction({ name: 'bump_download', args: ['p_token_hash'], executableBy: ['anon'], predict: (world) => ({ outcome: allowed(null, 1), world }) });
    const count = defineFunction({ name: 'count_downloads', args: ['p_token_hash'], executableBy: ['anon'], predict: (world) => ({ outcome: allowed([{ value: 1 }], 1), world }) });
    const needsRows = defineFunction({ name: 'first_share', args: [], executableBy: ['anon'], predict: (world) => ({ outcome: allowed([world.shares![0]!], 1), world }) });
    const proposal = proposeMapping(
      { tables: [], functions: modelFunctionFacts({ bump, count, needsRows }) },
      { tables: [], functions: ['bump_download', 'count_downloads', 'first_share'].map((name) => fn({ name, args: name === 'first_share' ? [] : [{ name: 'p_token_hash', type: 'text' }], returns: 'void' })) },
    );
    expect(proposal.mapping.functions?.bump_download).toBeUndefined();
    // Answering rows, or saying nothing on an empty world (it needs rows), is answering a value, as before.
    expect(proposal.mapping.functions?.count_downloads?.returns).toBe('value-as-void');
    expect(proposal.mapping.functions?.first_share?.returns).toBe('value-as-void');
    // No reference function declared answering a value reads as void, with its settings or with none (as init reads them).
    expect(Object.values(referencePack.model.functions).filter((f) => !f.answersVoid && answersVoidOf(f, defaultSettings)).map((f) => f.name)).toEqual([]);
    expect(modelFunctionFacts(referencePack.model.functions).filter((f) => f.answersVoid).map((f) => f.name).sort()).toEqual(['merge_vs_tickets', 'vs_post_public_comment', 'vs_set_public', 'vs_transfer_dept']);
  });

  it('column-level UPDATE grants become the model’s column grants, in model names (stranger-app-4: profiles’ email not updatable)', () => {
    const users: ModelTableFacts = { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }, { name: 'display_name', type: 'text' }, { name: 'role', type: 'text' }] };
    const profiles: TargetTableFacts = {
      name: 'profiles',
      anonCanSelect: false,
      columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }, { name: 'display_name_text', type: 'text' }, { name: 'role', type: 'text' }, { name: 'bio', type: 'text' }],
      grants: { anon: [], authenticated: ['select'], columnUpdate: { authenticated: ['display_name_text', 'role', 'bio'] } },
    };
    const proposal = proposeMapping({ tables: [users], functions: [] }, { tables: [profiles], functions: [] });
    expect(proposal.mapping.tables?.users?.columns).toEqual({ display_name: 'display_name_text' });
    expect(proposal.settings.tableGrants).toEqual({ users: { authenticated: ['select'], columnUpdate: { authenticated: ['display_name', 'role'] } } });
    expect(proposal.notes).toContainEqual(expect.stringMatching(/^confirm: model\.tableGrants\.users: authenticated may UPDATE display_name, role only/));
  });

  it("a project role's privileges (granted to authenticator: supasheet's x-admin) are written as the model's grants for that role", () => {
    const users: ModelTableFacts = { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }] };
    const target: TargetTableFacts = {
      name: 'users',
      anonCanSelect: false,
      columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }],
      grants: { anon: [], authenticated: ['select'] },
      projectRoleGrants: { app_admin: ['select', 'delete'] },
    };
    const proposal = proposeMapping({ tables: [users], functions: [] }, { tables: [target], functions: [] });
    expect(proposal.settings.tableGrants).toEqual({ users: { app_admin: ['select', 'delete'] } });
    expect(proposal.notes).toContainEqual(expect.stringMatching(/^confirm: model\.tableGrants\.users\.app_admin: \["select","delete"\] \(the project's own role app_admin/));
  });

  it('a function with a parameter without a name is said to be out of the REST interface\'s reach, never paired with $1 (PostgREST cannot name it)', () => {
    const proposal = proposeMapping(
      { tables: [], functions: [{ name: 'get_vs_ticket_by_id', args: ['p_id'] }, { name: 'vs_transfer_dept', args: ['p_id', 'p_dept', 'p_remarks'] }] },
      {
        tables: [],
        functions: [
          fn({ name: 'get_vs_ticket_by_id', args: [{ name: '$1', type: 'bigint', unnamed: true }] }),
          fn({ name: 'vs_transfer_dept', args: [{ name: '$1', type: 'jsonb', unnamed: true }] }),
        ],
      },
    );
    expect(proposal.mapping.functions?.get_vs_ticket_by_id).toBeUndefined();
    expect(JSON.stringify(proposal.mapping)).not.toContain('$1');
    expect(proposal.notes).toContain(
      "check: get_vs_ticket_by_id(bigint) has a parameter without a name: PostgREST v12.2 leaves such a function out of its schema cache, so no REST call reaches it and every call of the model's get_vs_ticket_by_id answers PGRST202; name its parameters (p_id) to test it",
    );
    expect(proposal.notes).toContainEqual(expect.stringMatching(/^check: vs_transfer_dept\(jsonb\) takes the whole request body as its unnamed parameter/));
  });

  it('column-level SELECT grants are named in a check: note with the setting to write, never written (stranger-app-12: vs_tickets without duplicate_of, tags, remarks)', () => {
    const tickets: ModelTableFacts = { name: 'vs_tickets', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'status', type: 'text' }, { name: 'category', type: 'text' }, { name: 'duplicate_of', type: 'text' }] };
    const target: TargetTableFacts = {
      name: 'vs_tickets',
      anonCanSelect: false,
      columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'status', type: 'text' }, { name: 'category_id', type: 'text' }, { name: 'duplicate_of', type: 'text' }, { name: 'title', type: 'text' }],
      grants: { anon: [], authenticated: ['insert', 'update'], columnSelect: { authenticated: ['id', 'status', 'category_id', 'title'] } },
    };
    const proposal = proposeMapping({ tables: [tickets], functions: [] }, { tables: [target], functions: [] });
    expect(proposal.settings.tableGrants).toBeUndefined();
    expect(proposal.notes).toContain(
      'check: authenticated may SELECT id, status, category_id, title of vs_tickets only (column grants: PostgREST\'s select=* is refused with 42501): if the spec lets authenticated read no more of it (rule 12\'s column allow-list), write model.tableGrants.vs_tickets: {"authenticated":["insert","update"],"columnSelect":{"authenticated":["id","status","category"]}} (beside any columnUpdate), and its reads name those columns; else it is a finding of rule 16',
    );
  });

  it('a composite answer of jsonb fields built from bigint-keyed tables carries their ids (stranger-app-4: returns org_chart as (nodes jsonb, members jsonb))', () => {
    const proposal = proposeMapping(
      {
        tables: [
          { name: 'team_nodes', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'parent_id', type: 'uuid' }] },
          { name: 'team_members', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'node_id', type: 'uuid' }] },
        ],
        functions: [{ name: 'get_public_org_chart', args: [] }],
      },
      {
        tables: [
          { name: 'team_nodes', anonCanSelect: false, columns: [{ name: 'id', type: 'integer', primaryKey: true, serverFilled: 'identity' }, { name: 'parent_id', type: 'integer', references: { table: 'team_nodes', column: 'id' } }] },
          { name: 'team_members', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'node_id', type: 'integer', references: { table: 'team_nodes', column: 'id' } }] },
        ],
        functions: [
          fn({ name: 'get_public_org_chart', args: [], returns: 'composite', outColumns: ['nodes', 'members'], readOnly: true,
               source: "select row((select jsonb_agg(jsonb_build_object('id', n.id)) from public.team_nodes n), (select jsonb_agg(m) from public.team_members m))::public.org_chart" }),
        ],
      },
    );
    expect(proposal.mapping.functions?.get_public_org_chart).toEqual({ bigintIds: ['id', 'parent_id', 'node_id'] });
  });

  it('a scalar answer that is a bigint-keyed table’s key is an id in that form; a count of it is not (stranger-app-4: my_person_id returns integer)', () => {
    const proposal = proposeMapping(
      { tables: [{ name: 'student_records', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }] }], functions: [{ name: 'my_person_id', args: [] }, { name: 'count_records', args: [] }] },
      {
        tables: [{ name: 'student_records', anonCanSelect: false, columns: [{ name: 'id', type: 'integer', primaryKey: true, serverFilled: 'identity' }, { name: 'email', type: 'text' }] }],
        functions: [
          fn({ name: 'my_person_id', args: [], returns: 'scalar', readOnly: true, source: "\n  select r.id from public.student_records r\n  join public.profiles p on lower(p.email) = lower(r.email)\n  where p.id = (select auth.uid())\n" }),
          fn({ name: 'count_records', args: [], returns: 'scalar', readOnly: true, source: 'select count(*) from public.student_records' }),
        ],
      },
    );
    expect(proposal.mapping.functions?.my_person_id).toEqual({ bigintIds: ['value'] });
    expect(proposal.mapping.functions?.count_records).toBeUndefined();
  });

  it('a jsonb answer carrying the caller’s own rows: tableRows and the columns the model’s answer does not name as extraColumns; another person’s rows stay a finding (stranger-app-4 R18: created_at by hand)', () => {
    const records: ModelTableFacts = { name: 'student_records', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }] };
    const requests: ModelTableFacts = { name: 'student_change_requests', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'status', type: 'text', vocabulary: true }, { name: 'created_at', type: 'timestamptz' }] };
    const answerRows = { record: ['id', 'email'], requests: ['id', 'status'] };
    const body = (lookup: string) => `
  return jsonb_build_object(
    'record', (select to_jsonb(r) from public.student_records r where r.id = ${lookup}),
    'requests', coalesce((select jsonb_agg(q order by q.created_at desc) from (
        select c.id, c.verdict, c.created_at from public.student_change_requests c where c.record_id = ${lookup} limit 10) q), '[]'));`;
    const proposal = proposeMapping(
      { tables: [records, requests], functions: [{ name: 'get_my_student_record', args: [], answerRows }, { name: 'get_student_record', args: ['p_id'], answerRows }] },
      {
        tables: [
          { name: 'student_records', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }, { name: 'faculty', type: 'text' }] },
          { name: 'student_change_requests', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'verdict', type: 'text', vocabulary: ['pending', 'approved'] }, { name: 'created_at', type: 'timestamptz' }, { name: 'record_id', type: 'uuid' }] },
        ],
        functions: [
          fn({ name: 'my_person_id', args: [], returns: 'scalar', readOnly: true, source: 'select r.id from public.student_records r where r.email = auth.email()' }),
          // the caller's, through a helper reading who the caller is
          fn({ name: 'get_my_student_record', args: [], returns: 'scalar', readOnly: true, source: `declare v_id uuid := public.my_person_id(); begin${body('v_id')} end` }),
          // anyone's record by its id: what it carries beyond the model's is another person's data
          fn({ name: 'get_student_record', args: [{ name: 'p_id', type: 'uuid' }], returns: 'scalar', readOnly: true, source: `begin${body('p_id')} end` }),
        ],
      },
    );
    expect(proposal.mapping.tables?.student_change_requests?.columns).toEqual({ status: 'verdict' });
    // verdict is the model's status (renamed through the table), record_id is not carried: neither is extra.
    expect(proposal.mapping.functions?.get_my_student_record).toEqual({ tableRows: { record: 'student_records', requests: 'student_change_requests' }, extraColumns: ['faculty', 'created_at'] });
    expect(proposal.notes).toContainEqual(expect.stringMatching(/^confirm: get_my_student_record answers the caller's own rows .*extraColumns/));
    expect(proposal.mapping.functions?.get_student_record).toBeUndefined();
    expect(jsonAnswerRows("select jsonb_build_object('me', (select row_to_json(p) from profiles as p where p.id = auth.uid()), 'n', 1)")).toEqual([{ key: 'me', table: 'profiles' }]);
  });

  it('a jsonb answer carrying rows of a table outside public (a private or another exposed schema) is read too, named with its schema', () => {
    expect(
      jsonAnswerRows(
        `select jsonb_build_object('record', (select to_jsonb(r) from private.student_records r where r.id = v_id),
           'requests', (select jsonb_agg(q) from (select c.id, c.status from "app".change_requests c) q),
           'me', (select row_to_json(p) from public.profiles p))`,
      ),
    ).toEqual([
      { key: 'record', table: 'private.student_records' },
      { key: 'requests', table: 'app.change_requests', columns: ['id', 'status'] },
      { key: 'me', table: 'profiles' },
    ]);
    // A pack modelling the private table (its model name schema-qualified, as the reference's passport.profiles).
    const records: ModelTableFacts = { name: 'private.student_records', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }] };
    const proposal = proposeMapping(
      { tables: [records], functions: [{ name: 'get_my_student_record', args: [], answerRows: { record: ['id', 'email'] } }] },
      {
        tables: [{ name: 'private.student_records', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }, { name: 'faculty', type: 'text' }] }],
        functions: [
          fn({ name: 'get_my_student_record', args: [], returns: 'scalar', readOnly: true, source: "begin return jsonb_build_object('record', (select to_jsonb(r) from private.student_records r where r.email = auth.email())); end" }),
        ],
      },
    );
    expect(proposal.mapping.functions?.get_my_student_record).toEqual({ tableRows: { record: 'private.student_records' }, extraColumns: ['faculty'] });
  });

  it('a column defaulting to a word is no column defaulting to another text (stranger-app-5: vs_tickets.submitter_label default student was mapped onto title default \'\'); an empty default says nothing (report → body, name → label kept)', () => {
    const proposal = proposeMapping(
      {
        tables: [
          { name: 'vs_tickets', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'submitter_label', type: 'text', hasDefault: true, textDefault: 'student', nullable: false }, { name: 'report', type: 'text', hasDefault: true, textDefault: '', nullable: false }] },
          { name: 'vs_categories', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'name', type: 'text', hasDefault: true, textDefault: '', nullable: false }] },
        ],
        functions: [],
      },
      {
        tables: [
          { name: 'vs_tickets', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'title', type: 'text', notNull: true, defaultExpr: "''::text" }, { name: 'body', type: 'text', notNull: true, defaultExpr: "''::text" }] },
          { name: 'vs_categories', anonCanSelect: false, columns: [{ name: 'id', type: 'bigint', primaryKey: true }, { name: 'label', type: 'text', notNull: true, defaultExpr: "'General'::text" }] },
        ],
        functions: [],
      },
    );
    expect(proposal.mapping.tables?.vs_tickets?.columns).toEqual({ submitter_label: null, report: 'body' });
    expect(proposal.mapping.tables?.vs_categories?.columns).toEqual({ name: 'label' });
  });

  it('rows built per row as an object (jsonb_agg(jsonb_build_object(…))) are the caller’s rows too, their ids read by their table’s mapping: no function-wide bigint id turning the record’s uuid into one (stranger-app-5 R18)', () => {
    const records: ModelTableFacts = { name: 'student_records', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }] };
    const requests: ModelTableFacts = { name: 'student_change_requests', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'status', type: 'text' }, { name: 'created_at', type: 'timestamptz' }] };
    const source = `declare v_person uuid; begin v_person := public.my_person_id();
  return jsonb_build_object(
    'record', (select to_jsonb(r) from public.student_records r where r.id = v_person),
    'requests', coalesce((
      select jsonb_agg(jsonb_build_object('id', q.id, 'status', q.status, 'verdict', q.verdict,
                                          'created_at', q.created_at) order by q.created_at desc, q.id desc)
        from (select * from public.student_change_requests c where c.person_id = v_person
               order by c.created_at desc, c.id desc limit 10) q), '[]'::jsonb)); end`;
    const proposal = proposeMapping(
      { tables: [records, requests], functions: [{ name: 'get_my_student_record', args: [], answerRows: { record: ['id', 'email'], requests: ['id', 'status'] } }] },
      {
        tables: [
          { name: 'student_records', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }] },
          { name: 'student_change_requests', anonCanSelect: false, columns: [{ name: 'id', type: 'bigint', primaryKey: true, serverFilled: 'identity' }, { name: 'status', type: 'text' }, { name: 'verdict', type: 'text' }, { name: 'created_at', type: 'timestamptz' }, { name: 'person_id', type: 'uuid', references: { table: 'student_records', column: 'id' } }] },
        ],
        functions: [
          fn({ name: 'my_person_id', args: [], returns: 'scalar', readOnly: true, source: 'select r.id from public.student_records r join auth.users u on u.email = r.email where u.id = (select auth.uid())' }),
          fn({ name: 'get_my_student_record', args: [], returns: 'scalar', readOnly: true, source }),
        ],
      },
    );
    expect(proposal.mapping.tables?.student_change_requests?.bigintIds).toEqual(['id']);
    expect(proposal.mapping.functions?.get_my_student_record).toEqual({ tableRows: { record: 'student_records', requests: 'student_change_requests' }, extraColumns: ['verdict', 'created_at'] });
    expect(jsonAnswerRows(source)).toEqual([{ key: 'record', table: 'student_records' }, { key: 'requests', table: 'student_change_requests', columns: ['id', 'status', 'verdict', 'created_at'] }]);
  });

  it('a function with the model’s parameter names in another order is no swap: PostgREST passes them by name (stranger-app-4)', () => {
    const proposal = proposeMapping(
      { tables: [], functions: [{ name: 'merge_vs_tickets', args: ['p_duplicate', 'p_primary'], answersVoid: true }, { name: 'vs_transfer_dept', args: ['p_id', 'p_dept'], answersVoid: true }] },
      {
        tables: [],
        functions: [
          fn({ name: 'merge_vs_tickets', args: [{ name: 'p_primary', type: 'text' }, { name: 'p_duplicate', type: 'text' }], returns: 'void' }),
          // one name shared, one not: only the other is matched by position
          fn({ name: 'vs_transfer_dept', args: [{ name: 'p_dept', type: 'text' }, { name: 'p_ticket', type: 'text' }], returns: 'void' }),
        ],
      },
    );
    expect(proposal.mapping.functions?.merge_vs_tickets).toBeUndefined();
    expect(proposal.mapping.functions?.vs_transfer_dept).toEqual({ args: { p_id: 'p_ticket' } });
  });

  it('a numeric takes a model integer only when it is an amount of money; another (a score) is null and named', () => {
    const model: ModelTableFacts = { name: 'passport.profiles', columns: [{ name: 'user_id', type: 'uuid', primaryKey: true }, { name: 'points', type: 'integer' }, { name: 'balance_cents', type: 'integer' }] };
    const target: TargetTableFacts = { name: 'passport.profiles', anonCanSelect: false, columns: [{ name: 'user_id', type: 'uuid', primaryKey: true }, { name: 'points', type: 'numeric(6,2)' }, { name: 'balance_cents', type: 'numeric' }] };
    const proposal = proposeMapping({ tables: [model], functions: [] }, { tables: [target], functions: [] });
    expect(proposal.mapping.tables?.['passport.profiles']).toEqual({ columns: { points: null } });
    expect(proposal.notes).toContainEqual('confirm: passport.profiles points numeric here where the model counts in integers (no amount of money): mapped to null (not written, not compared); map by hand if it holds whole numbers only');
  });

  it('a function’s output source among tables that all have its columns (`id`): the one its body reads FROM, never one named in a comment', () => {
    const tickets: ModelTableFacts = { name: 'vs_tickets', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'title', type: 'text' }] };
    const notes: ModelTableFacts = { name: 'vs_notes', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'body', type: 'text' }] };
    const targetTickets: TargetTableFacts = { name: 'vs_tickets', anonCanSelect: true, columns: [{ name: 'id', type: 'bigint', primaryKey: true, serverFilled: 'identity' }, { name: 'title', type: 'text' }] };
    const targetNotes: TargetTableFacts = { name: 'vs_notes', anonCanSelect: true, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'body', type: 'text' }] };
    const propose = (source: string, returns: TargetFunctionFacts['returns'], outColumns: string[]) =>
      proposeMapping(
        { tables: [notes, tickets], functions: [{ name: 'get_vs_ticket_ids', args: ['p_id'] }] },
        { tables: [targetNotes, targetTickets], functions: [fn({ name: 'get_vs_ticket_ids', args: [{ name: 'p_id', type: 'bigint' }], returns, outColumns, readOnly: true, source })] },
      ).mapping.functions?.get_vs_ticket_ids;
    // vs_notes comes first and has an id too: the body reads vs_tickets, whose ids are bigints.
    expect(propose('select t.id from public.vs_tickets t where t.id >= p_id', 'setof-composite', ['id'])).toEqual({ bigintIds: ['p_id', 'id'] });
    // Neither read (no FROM to go by): no guess.
    expect(propose('select p_id as id', 'setof-composite', ['id'])).toEqual({ bigintIds: ['p_id'] });
    // A jsonb answer: the tables named in comments are not read.
    expect(propose("-- ids as in vs_tickets\n/* vs_tickets */ select jsonb_agg(jsonb_build_object('id', n.id)) from vs_notes n where p_id > 0", 'scalar', [])).toEqual({ bigintIds: ['p_id'] });
    expect(propose("select jsonb_agg(jsonb_build_object('id', t.id)) from vs_tickets t where t.id >= p_id", 'scalar', [])).toEqual({ bigintIds: ['p_id', 'id'] });
  });
});

describe('a third stranger’s schema (stranger-app-3: slug keys, roles without admin, a guard per table)', () => {
  it('a model uuid key the target keeps as a text slug, and the text references to it, keep their names', () => {
    const nodes: ModelTableFacts = { name: 'team_nodes', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'parent_id', type: 'uuid' }, { name: 'name', type: 'text' }] };
    const members: ModelTableFacts = { name: 'team_members', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'node_id', type: 'uuid' }, { name: 'nickname', type: 'text' }] };
    const targetNodes: TargetTableFacts = { name: 'team_nodes', anonCanSelect: true, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'parent_id', type: 'text', references: { table: 'team_nodes', column: 'id' } }, { name: 'name', type: 'text' }] };
    const targetMembers: TargetTableFacts = { name: 'team_members', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'node_id', type: 'text', references: { table: 'team_nodes', column: 'id' } }, { name: 'nickname', type: 'text' }, { name: 'major', type: 'text' }] };
    const { mapping } = proposeMapping({ tables: [nodes, members], functions: [] }, { tables: [targetNodes, targetMembers], functions: [] });
    // Nothing renamed or left out: before, id, parent_id and node_id were mapped to null (uuid ≠ text).
    expect(mapping.tables?.team_nodes?.columns ?? {}).toEqual({});
    expect(mapping.tables?.team_members?.columns ?? {}).toEqual({});
    // A uuid is no free text: a plain text column that is neither key nor reference takes no model uuid.
    const loose: TargetTableFacts = { ...targetMembers, columns: targetMembers.columns.map((c) => (c.name === 'node_id' ? { name: 'node_ref', type: 'text' } : c)) };
    expect(proposeMapping({ tables: [members], functions: [] }, { tables: [loose], functions: [] }).mapping.tables?.team_members?.columns).toEqual({ node_id: null });
  });

  it('staff, admin and handler lists naming a role the CHECK lacks are read off the helpers that decide them, else named to be set (a guess would make FAILs of its wrong answers)', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'staffRoles', helper: 'staff' }, { path: 'adminRoles', helper: 'admin' }, { path: 'vs.handlerRoles', helper: 'vs.*handl|handl.*vs' }, { path: 'projects.actorRoles', helper: 'project.*actor' }, { path: 'pr.onBehalfRoles', helper: 'behalf' }] }];
    const proposed = { roles: ['user', 'dev', 'staff', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof'] };
    const defaults = { staffRoles: ['dev', 'staff', 'vs_staff', 'vp_admin', 'admin'], adminRoles: ['admin', 'dev'], vs: { handlerRoles: ['vs_staff', 'vp_admin', 'admin', 'dev'] }, projects: { actorRoles: ['dev', 'staff', 'admin'] }, pr: { onBehalfRoles: ['uni_staff', 'sa_prof'] } };
    const helpers = [
      { name: 'current_user_is_staff', source: "select u.role in ('dev', 'staff', 'vs_staff', 'uni_staff') from public.users u" },
      { name: 'is_admin', source: "select public.current_user_role() in ('dev', 'vp_admin')" },
      { name: 'admin_leaderboard', source: 'select private.is_admin()' },
      { name: 'can_handle_vs', source: "case when role in ('dev', 'staff', 'vs_staff') then true when role = 'vp_admin' then dept = my_dept() end" },
    ];
    const { settings, notes } = proposeVocabularySubsets(vocabularies, proposed, defaults, helpers);
    expect(settings).toEqual({
      staffRoles: ['dev', 'staff', 'vs_staff', 'uni_staff'],
      adminRoles: ['dev', 'vp_admin'],
      vs: { handlerRoles: ['dev', 'staff', 'vs_staff', 'vp_admin'] },
      // No helper lists project actors: left to the default (a harness error names it). onBehalfRoles names none missing: untouched.
    });
    expect(notes).toContainEqual(expect.stringMatching(/^confirm: model\.staffRoles: dev, staff, vs_staff, uni_staff \(the roles current_user_is_staff lists; the default names admin, which users\.role does not allow\)/));
    expect(notes).toContainEqual(expect.stringMatching(/^set model\.projects\.actorRoles: the default names admin, which users\.role does not allow, and no helper/));
    // Roles the target has, and helpers listing what the defaults say: nothing to propose.
    const asDefaults = [{ name: 'current_user_is_staff', source: "select u.role in ('dev', 'staff', 'vs_staff', 'vp_admin', 'admin') from public.users u" }];
    expect(proposeVocabularySubsets(vocabularies, { roles: [...proposed.roles, 'admin'] }, defaults, asDefaults).settings).toEqual({});
  });

  it('departmentList open where users.department and vs_tickets.target_dept hold no list (stranger-app-5’s dept_code checks a format only); not where a CHECK list or a foreign key holds one', () => {
    const vocabularies = [{ path: 'departments', column: 'users.department', open: { path: 'departmentList', value: 'open', alsoColumns: ['vs_tickets.target_dept'] } }];
    const model: ModelTableFacts[] = [
      { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'department', type: 'text' }] },
      { name: 'vs_tickets', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'target_dept', type: 'text' }] },
    ];
    const target = (department: object, targetDept: object): TargetTableFacts[] => [
      { name: 'users', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'department', type: 'text', ...department }] },
      { name: 'vs_tickets', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'target_dept', type: 'text', ...targetDept }] },
    ];
    const open = proposeMapping({ tables: model, functions: [] }, { tables: target({}, {}), functions: [] }, vocabularies);
    expect(open.settings).toEqual({ departmentList: 'open' });
    expect(open.notes).toContain('confirm: model.departmentList: open (users.department, vs_tickets.target_dept hold no list of their values: no CHECK list, enum or foreign key)');
    expect(proposeMapping({ tables: model, functions: [] }, { tables: target({ vocabulary: ['ENG', 'SCI'] }, {}), functions: [] }, vocabularies).settings).toEqual({ departments: ['ENG', 'SCI'] });
    expect(proposeMapping({ tables: model, functions: [] }, { tables: target({}, { references: { table: 'departments', column: 'code' } }), functions: [] }, vocabularies).settings).toEqual({});
  });

  it('a helper named for a role list that reads no role (stranger-app-3’s project actor: an owner) proposes none, so the run does not stop on a default naming a missing role', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'projects.actorRoles', helper: 'project.*actor' }] }];
    const defaults = { projects: { actorRoles: ['dev', 'staff', 'admin'] } };
    const proposed = { roles: ['user', 'dev', 'staff'] };
    const owner = { name: 'current_user_is_project_actor', returns: 'boolean', source: 'select auth.uid() is not null and exists (select 1 from public.projects p where p.owner_id = auth.uid())' };
    const { settings, notes } = proposeVocabularySubsets(vocabularies, proposed, defaults, [owner]);
    expect(settings).toEqual({ projects: { actorRoles: [] } });
    expect(notes).toEqual(['confirm: model.projects.actorRoles: none (current_user_is_project_actor decides without reading any role; the default names admin, which users.role does not allow)']);
    // Through a helper that reads the role, or naming the roles nowhere the readers find: not role-free, left to be set.
    const viaStaff = { ...owner, source: 'select public.current_user_is_staff()' };
    const staff = { name: 'current_user_is_staff', returns: 'boolean', source: 'select public.current_user_role() is not null' };
    expect(proposeVocabularySubsets(vocabularies, proposed, defaults, [viaStaff, staff]).settings).toEqual({});
    // The default naming only roles the target has: nothing to propose.
    expect(proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'staff', 'admin'] }, defaults, [owner]).settings).toEqual({});
  });

  // stranger-app-2: `current_user_is_admin()` is `current_user_role() = 'admin'`, and `dev` is a role
  // of its CHECK. Before, nothing was missing from the default `admin, dev`, so it stood, and every
  // rule ran dev as an admin the schema does not make one: FAILs of the schema's own choice.
  it('a helper listing fewer (or more) roles than the default, all of them the target’s, is proposed too', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'adminRoles', helper: '(^|_)(is|has)_admin(_|$)' }] }];
    const helpers = [{ name: 'current_user_is_admin', returns: 'boolean', source: "select coalesce(public.current_user_role() = 'admin', false)" }];
    const { settings, notes } = proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'admin'] }, { adminRoles: ['admin', 'dev'] }, helpers);
    expect(settings).toEqual({ adminRoles: ['admin'] });
    expect(notes).toEqual(['confirm: model.adminRoles: admin (the roles current_user_is_admin lists; the default is admin, dev)']);
  });

  // stranger-app-4: every list helper is `select public.has_role('vs_staff', 'admin', 'dev')`, a
  // helper taking the roles. Before, none of them compared the role column with a quoted role, so
  // four lists were "set model…" by hand.
  it('lists passed to a helper taking the roles (has_role(variadic …), has_any_role(array[…])) and token claims are read', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'staffRoles', helper: 'staff' }, { path: 'vs.handlerRoles', helper: 'vs.*handl|handl.*vs' }, { path: 'adminRoles', helper: 'admin' }, { path: 'projects.actorRoles', helper: 'project.*actor' }] }];
    const roles = ['user', 'dev', 'vs_staff', 'vp_admin', 'uni_staff', 'sa_prof', 'admin'];
    const defaults = { staffRoles: ['staff', 'admin'], adminRoles: ['root'], vs: { handlerRoles: ['staff'] }, projects: { actorRoles: ['staff'] } };
    const helpers = [
      { name: 'has_role', returns: 'boolean', source: 'select coalesce((select p.role = any (p_roles) from public.profiles p where p.id = (select auth.uid())), false)' },
      { name: 'has_any_role', returns: 'boolean', source: 'select exists (select 1 from public.user_roles r where r.user_id = auth.uid() and r.role = any(roles))' },
      { name: 'current_user_is_staff', returns: 'boolean', source: "select public.has_role('dev', 'vs_staff'::public.app_role, 'uni_staff')" },
      { name: 'is_vs_handler', returns: 'boolean', source: "select has_any_role(array['vs_staff', 'vp_admin']) or has_any_role('{admin}') or public.current_user_has_permission('vs')" },
      { name: 'is_admin', returns: 'boolean', source: "select (auth.jwt() ->> 'user_role')::text = 'admin' or auth.jwt() ->> 'user_role' in ('dev')" },
      // Quoted text that is not a role passed on (a raised message) is no member; a predicate called
      // as it is lists its roles too (stranger-app-2: `current_user_is_staff() or role in (…)`), a negated one none.
      { name: 'current_user_is_project_actor', returns: 'boolean', source: "begin if not (public.current_user_is_staff() or public.has_role('sa_prof') and not public.is_admin()) then raise exception 'vp_admin'; end if; return true; end" },
    ];
    const { settings } = proposeVocabularySubsets(vocabularies, { roles }, defaults, helpers);
    expect(settings).toEqual({ staffRoles: ['dev', 'vs_staff', 'uni_staff'], vs: { handlerRoles: ['vs_staff', 'vp_admin', 'admin'] }, adminRoles: ['dev', 'admin'], projects: { actorRoles: ['sa_prof', 'dev', 'vs_staff', 'uni_staff'] } });
    expect(roleParameterHelpers(helpers, 'role')).toEqual(['has_role', 'has_any_role']);
    expect(rolesPassed("select public.has_role('a') or \"has_role\"('b'::r, 'c') or not_has_role('x')", ['has_role'])).toEqual(['a', 'b', 'c']);
  });

  // stranger-app-14 keeps roles in an array (`roles app_role[]`, its token's `user_roles` claim) and
  // tests it with `&&`: before, neither its has_role(variadic wanted) nor the roles passed to it were
  // read, and uni_staff (staff there, not in the default) was no staff member: false alarms.
  it('roles held in an array are read: a helper testing the array against its parameter takes roles, and the roles a body tests the array for are listed', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'staffRoles', helper: 'staff' }, { path: 'adminRoles', helper: 'admin' }, { path: 'vs.handlerRoles', helper: 'vs.*handl|handl.*vs' }] }];
    const roles = ['user', 'dev', 'staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin'];
    const defaults = { staffRoles: ['dev', 'staff', 'vs_staff', 'vp_admin', 'admin'], adminRoles: ['admin', 'dev'], vs: { handlerRoles: ['vs_staff', 'admin'] } };
    const helpers = [
      { name: 'app.has_role', returns: 'boolean', source: 'select coalesce(app.jwt_roles() && wanted, false)' },
      { name: 'current_user_is_staff', returns: 'boolean', source: "select app.has_role('staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin', 'dev')" },
      { name: 'app.is_admin', returns: 'boolean', source: "select 'admin' = any (u.roles) or u.roles @> array['dev']::app_role[] from public.users u where u.id = auth.uid()" },
      { name: 'app.can_handle_vs', returns: 'boolean', source: "select array['vs_staff', 'vp_admin']::public.app_role[] && app.jwt_roles() and p_dept = public.current_user_dept()" },
    ];
    expect(roleParameterHelpers(helpers, 'role')).toEqual(['app.has_role']);
    expect(roleParameterHelpers([{ name: 'holds', source: 'select wanted = any (app.jwt_roles())' }, { name: 'none', source: "select 'x' = any (app.jwt_roles())" }], 'role')).toEqual(['holds']);
    // A role literal's cast is no parameter: `'pr_staff'::app_role = any(u.roles)` names pr_staff (it was taken for a helper taking roles, its roles never read).
    expect(roleParameterHelpers([{ name: 'is_pr_handler', source: "select exists (select 1 from public.users u where u.id = auth.uid() and 'pr_staff'::app_role = any(u.roles))" }], 'role')).toEqual([]);
    expect(rolesCompared("select 'admin' = any (u.roles) or u.roles && '{dev,staff}' or array['x'] <@ roles or 'y' = any (perms)", 'role')).toEqual(['admin', 'dev', 'staff', 'x']);
    const { settings } = proposeVocabularySubsets(vocabularies, { roles }, defaults, helpers);
    expect(settings).toEqual({ staffRoles: ['staff', 'vs_staff', 'vp_admin', 'uni_staff', 'admin', 'dev'], vs: { handlerRoles: ['vs_staff', 'vp_admin'] } });
  });

  // stranger-app-14's can_handle_vs keeps vs_staff to its department as vp_admin: with the default
  // (vp_admin alone scoped), a vs_staff of SCI was expected to read and move ENG's tickets (R06, R09).
  it('the roles a VS handler helper keeps to the caller’s department are proposed as vs.deptScopedRoles', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'vs.handlerRoles', helper: 'vs.*handl|handl.*vs', deptScopePath: 'vs.deptScopedRoles' }] }];
    const roles = ['user', 'vs_staff', 'vp_admin', 'admin', 'dev'];
    const defaults = { vs: { handlerRoles: ['vs_staff', 'vp_admin', 'admin', 'dev'], deptScopedRoles: ['vp_admin'] } };
    const helpers = [
      { name: 'has_role', returns: 'boolean', source: 'select coalesce(app.jwt_roles() && wanted, false)' },
      { name: 'is_admin', returns: 'boolean', source: "select app.has_role('admin', 'dev')" },
      { name: 'can_handle_vs', returns: 'boolean', source: "select app.is_admin() or (p_dept is not null and p_dept = public.current_user_dept() and (app.has_role('vs_staff', 'vp_admin') or public.current_user_has_permission('vs')))" },
    ];
    const { settings, notes } = proposeVocabularySubsets(vocabularies, { roles }, defaults, helpers);
    expect(settings).toEqual({ vs: { deptScopedRoles: ['vs_staff', 'vp_admin'] } });
    expect(notes).toContainEqual(expect.stringMatching(/^confirm: model\.vs\.deptScopedRoles: vs_staff, vp_admin \(can_handle_vs keeps them/));
    // A role another alternative lets in whatever the department is not scoped; the default's reading proposes nothing.
    const wider = [...helpers.slice(0, 2), { name: 'can_handle_vs', returns: 'boolean', source: "select app.has_role('vs_staff', 'admin') or (p_dept = public.current_user_dept() and app.has_role('vs_staff', 'vp_admin'))" }];
    expect((proposeVocabularySubsets(vocabularies, { roles }, defaults, wider).settings as { vs?: { deptScopedRoles?: string[] } }).vs?.deptScopedRoles).toBeUndefined();
    // A role whose name holds "dept" is no department test: has_role('dept_admin') names a role (it was read as scoping dept_admin).
    const named = [...helpers.slice(0, 2), { name: 'can_handle_vs', returns: 'boolean', source: "select app.is_admin() or app.has_role('dept_admin', 'vs_staff')" }];
    expect((proposeVocabularySubsets(vocabularies, { roles: [...roles, 'dept_admin'] }, defaults, named).settings as { vs?: { deptScopedRoles?: string[] } }).vs?.deptScopedRoles).toBeUndefined();
  });

  // stranger-app-15's can_handle_vs is a simple CASE on the role: only the WHEN whose THEN compares
  // the department scopes its roles (every listed role was read as scoped: dev, staff, vs_staff
  // expected kept to their department, a false alarm wherever they handle another one).
  it('a simple CASE on the role scopes only the roles of a WHEN whose THEN compares the caller’s department', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'vs.handlerRoles', helper: 'vs.*handl|handl.*vs', deptScopePath: 'vs.deptScopedRoles' }] }];
    const roles = ['user', 'vs_staff', 'vp_admin', 'admin', 'dev'];
    const defaults = { vs: { handlerRoles: ['vs_staff', 'vp_admin', 'admin', 'dev'], deptScopedRoles: ['admin'] } };
    const helpers = [
      { name: 'can_handle_vs', returns: 'boolean', source: "select case public.current_user_role() when 'dev' then true when 'vs_staff', 'admin' then true when 'vp_admin' then p_dept is not null and p_dept = public.current_user_dept() when 'user' then false else public.current_user_has_permission('vs') end" },
    ];
    const { settings } = proposeVocabularySubsets(vocabularies, { roles }, defaults, helpers);
    expect((settings as { vs?: { deptScopedRoles?: string[] } }).vs?.deptScopedRoles).toEqual(['vp_admin']);
  });

  it('a model column of one word onto a target array of such words (users.role onto roles app_role[]) is proposed with arrayOfOne', () => {
    const model: ModelTableFacts = { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'role', type: 'text', vocabulary: true }, { name: 'permissions', type: 'text[]' }, { name: 'department', type: 'text' }] };
    const table: TargetTableFacts = {
      name: 'users',
      anonCanSelect: false,
      columns: [
        { name: 'id', type: 'uuid', primaryKey: true, references: { table: 'auth.users', column: 'id' } },
        { name: 'roles', type: 'app_role[]', elementVocabulary: ['user', 'staff', 'admin'], notNull: true },
        { name: 'permissions', type: 'text[]' },
        { name: 'department', type: 'text' },
      ],
    };
    const { mapping, notes, settings } = proposeMapping({ tables: [model], functions: [] }, { tables: [table], functions: [] }, [{ path: 'roles', column: 'users.role' }]);
    expect(mapping.tables?.users).toEqual({ columns: { role: 'roles' }, arrayOfOne: ['role'] });
    // The roles are the array's enum labels, as a CHECK list or enum of one role column gives them.
    expect(settings).toEqual({ roles: ['user', 'staff', 'admin'] });
    expect(notes).toContainEqual(expect.stringMatching(/^confirm: users keeps role \(roles\) as an array where the model holds one value: arrayOfOne/));
    // A free-text model column (no vocabulary) is no word of a list: not put in an array.
    const free: ModelTableFacts = { ...model, columns: model.columns.map((c) => (c.name === 'role' ? { name: 'role', type: 'text' } : c)) };
    expect(proposeMapping({ tables: [free], functions: [] }, { tables: [table], functions: [] }).mapping.tables?.users?.arrayOfOne).toBeUndefined();
  });

  // Before, every quoted value of a helper named like the list was read as a member: a staff helper
  // excluding roles (`not in`) made exactly them staff, and a raised message's role name joined them.
  it('a helper is read for the roles it compares the role column with, not every quoted value: a negated comparison lists none', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'staffRoles', helper: 'staff' }] }];
    const proposed = { roles: ['user', 'guest', 'dev', 'moderator'] };
    const defaults = { staffRoles: ['dev', 'admin'] };
    const excluding = [{ name: 'current_user_is_staff', returns: 'boolean', source: "select coalesce(public.current_user_role() not in ('user', 'guest'), false)" }];
    expect(proposeVocabularySubsets(vocabularies, proposed, defaults, excluding).settings).toEqual({});
    const messaged = [{ name: 'current_user_is_staff', returns: 'boolean', source: "begin if auth.uid() is null then raise exception 'guest'; end if; return (select u.role = any (array['dev', 'moderator']) from users u where u.id = auth.uid()); end" }];
    expect(proposeVocabularySubsets(vocabularies, proposed, defaults, messaged).settings).toEqual({ staffRoles: ['dev', 'moderator'] });
    // A trigger function named like the list (it notifies staff) decides nothing.
    const notifier = [{ name: 'notify_staff', returns: 'trigger', source: "perform pg_notify('x', id) from users where role = 'moderator'" }];
    expect(proposeVocabularySubsets(vocabularies, proposed, defaults, notifier).settings).toEqual({});
    expect(rolesCompared("case when role in ('a', 'b') then true when u.role = 'c' then d() when role <> 'x' then false end or r.role = any('{e,\"f\"}'::text[])", 'role')).toEqual(['a', 'b', 'e', 'f', 'c']);
  });

  // stranger-app-15's can_handle_vs: a simple CASE on the caller's role, a branch per role; init asked the user to set vs.handlerRoles.
  it('a simple CASE on the role lists the roles of its branches that can grant, not one answering false', () => {
    const source = "select case public.current_user_role() when 'DEV' then true when 'STAFF', 'VS_STAFF' then true when 'VP_ADMIN' then p_dept is not null and p_dept = public.current_user_dept() when 'USER' then false else public.current_user_has_permission('vs') end";
    expect(rolesCompared(source, 'role')).toEqual(['DEV', 'STAFF', 'VS_STAFF', 'VP_ADMIN']);
    // A branch answering null (or a parenthesized false) grants nothing either.
    expect(rolesCompared("select case current_user_role() when 'USER' then null when 'GUEST' then (false) when 'STAFF' then true end", 'role')).toEqual(['STAFF']);
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'vs.handlerRoles', helper: 'vs.*handl|handl.*vs' }] }];
    const proposed = { roles: ['USER', 'DEV', 'STAFF', 'VS_STAFF', 'VP_ADMIN'] };
    expect(proposeVocabularySubsets(vocabularies, proposed, { vs: { handlerRoles: ['vs_staff', 'admin'] } }, [{ name: 'can_handle_vs', returns: 'boolean', source }]).settings).toEqual({ vs: { handlerRoles: ['DEV', 'STAFF', 'VS_STAFF', 'VP_ADMIN'] } });
  });

  // stranger-app-2/3/4 all name team_members' e-mail `kkumail`, the spec's word for it ("kkumail-type
  // e-mail column"): before, init mapped the model's `email` to null and left `kkumail` to the filler.
  it('a column named by its kind, the spec’s word for it (a model alias) or the target’s domain, is that column', () => {
    const email = referencePack.model.tables.team_members.columns.find((c) => c.name === 'email')!;
    expect(email.aliases).toContain('kkumail');
    const members: ModelTableFacts = { name: 'team_members', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'name', type: 'text' }, { name: 'email', type: 'text', aliases: email.aliases }, { name: 'major', type: 'text' }] };
    const target = (mail: { name: string; type: string; domain?: string }): TargetTableFacts => ({ name: 'team_members', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'name', type: 'text' }, { ...mail, notNull: true }, { name: 'major', type: 'text' }] });
    const columnsOf = (t: TargetTableFacts, m: ModelTableFacts = members) => proposeMapping({ tables: [m], functions: [] }, { tables: [t], functions: [] }).mapping.tables?.team_members?.columns;
    expect(columnsOf(target({ name: 'kkumail', type: 'text' }))).toEqual({ email: 'kkumail' });
    expect(columnsOf(target({ name: 'kku_mail_address', type: 'extensions.citext' }))).toEqual({ email: 'kku_mail_address' });
    // The reverse: a target naming it `email` still takes the model's column, alias or not.
    expect(columnsOf(target({ name: 'email', type: 'text' })) ?? {}).toEqual({});
    // Named by its domain (`contact public.email_address`), no alias needed.
    const plain: ModelTableFacts = { ...members, columns: members.columns.map((c) => (c.name === 'email' ? { name: 'email', type: 'text' } : c)) };
    expect(columnsOf(target({ name: 'contact', type: 'text', domain: 'public.email_address' }), plain)).toEqual({ email: 'contact' });
    expect(columnsOf(target({ name: 'contact', type: 'text' }), plain)).toEqual({ email: null });
  });

  it('the reference pack reads staff and admin off a predicate named for them, not a narrower group’s (is_shop_staff, is_vp_admin)', () => {
    const proposed = { roles: ['user', 'dev', 'moderator', 'root'] };
    const helpers = [
      { name: 'current_user_is_staff', returns: 'boolean', source: "select coalesce(public.current_user_role() in ('dev', 'root'), false)" },
      { name: 'is_shop_staff', returns: 'boolean', source: "select coalesce(public.current_user_role() = 'moderator', false)" },
      { name: 'is_admin', returns: 'boolean', source: "select public.current_user_role() = 'root'" },
      { name: 'is_vp_admin', returns: 'boolean', source: "select public.current_user_role() = 'dev'" },
    ];
    const { settings } = proposeVocabularySubsets(referencePack.vocabularies!.filter((v) => v.path === 'roles'), proposed, defaultSettings, helpers);
    expect(settings).toMatchObject({ staffRoles: ['dev', 'root'], adminRoles: ['root'] });
  });

  it('a handler helper that reads the role only: the permission that also makes a handler by default is proposed null', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'shop.handlerRoles', helper: 'shop.*(handl|manag)|(handl|manag).*shop', permissionPath: 'shop.handlerPermission' }, { path: 'pr.handlerRoles', helper: 'pr.*handl|handl.*pr', permissionPath: 'pr.handlerPermission' }] }];
    const defaults = { shop: { handlerRoles: ['staff', 'admin', 'dev'], handlerPermission: 'house' }, pr: { handlerRoles: ['staff', 'admin', 'dev'], handlerPermission: 'pr' } };
    const helpers = [
      { name: 'can_manage_shop', source: "select coalesce(public.current_user_role() in ('dev', 'staff'), false)" },
      { name: 'can_handle_pr', source: "select coalesce(public.current_user_role() in ('dev', 'staff'), false) or public.current_user_has_permission('pr')" },
    ];
    const { settings, notes } = proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'staff'] }, defaults, helpers);
    expect(settings).toEqual({ shop: { handlerRoles: ['dev', 'staff'], handlerPermission: null }, pr: { handlerRoles: ['dev', 'staff'] } });
    expect(notes).toContainEqual('confirm: model.shop.handlerPermission: null (can_manage_shop reads the role only; the default also makes a holder of the house permission one)');
  });

  it("a shop helper named for the shop's staff (stranger-app-12's current_user_is_shop_staff) is the shop handlers' helper, read with the reference's patterns", () => {
    const roles = referencePack.vocabularies!.filter((v) => v.path === 'roles');
    const helpers = [{ name: 'current_user_is_shop_staff', returns: 'boolean', source: "select coalesce((select u.role in ('dev', 'admin', 'staff') from public.users u where u.id = auth.uid()), false)" }];
    const { settings, notes } = proposeVocabularySubsets(roles, { roles: ['user', 'dev', 'staff', 'pr_staff', 'admin'] }, defaultSettings, helpers);
    expect(settings).toMatchObject({ shop: { handlerPermission: null } });
    expect(notes).toContainEqual('confirm: model.shop.handlerPermission: null (current_user_is_shop_staff reads the role only; the default also makes a holder of the house permission one)');
  });

  it("an admin helper letting a permission's holder in besides its roles proposes adminPermission (stranger-app-19's is_admin); one testing it with a role does not", () => {
    const roles = referencePack.vocabularies!.filter((v) => v.path === 'roles');
    const helpers = [{ name: 'is_admin', returns: 'boolean', source: "select coalesce(private.current_role() = 'admin', false) or private.has_permission('master')" }];
    const { settings, notes } = proposeVocabularySubsets(roles, { roles: ['user', 'staff', 'admin'] }, defaultSettings, helpers);
    expect(settings).toMatchObject({ adminRoles: ['admin'], adminPermission: 'master' });
    expect(notes).toContainEqual('confirm: model.adminPermission: master (is_admin lets a holder of master in besides its roles)');
    const both = [{ name: 'is_admin', returns: 'boolean', source: "select private.current_role() = 'admin' and private.has_permission('master')" }];
    expect(proposeVocabularySubsets(roles, { roles: ['user', 'staff', 'admin'] }, defaultSettings, both).settings).not.toHaveProperty('adminPermission');
  });

  it('a handler helper letting in a second permission: it implies the setting’s one (stranger-app-7: master holders handle the shop)', () => {
    const vocabularies = [{ path: 'roles', column: 'users.role', subsets: [{ path: 'shop.handlerRoles', helper: 'shop.*(handl|manag)|(handl|manag).*shop', permissionPath: 'shop.handlerPermission' }] }];
    const defaults = { shop: { handlerRoles: ['staff', 'admin', 'dev'], handlerPermission: 'house' } };
    const helpers = [{ name: 'can_handle_shop', source: "select coalesce(public.current_user_role() in ('dev', 'admin', 'staff') or public.current_user_has_permission('house') or public.current_user_has_permission('master'), false)" }];
    const { settings, notes } = proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'staff', 'admin'] }, defaults, helpers);
    expect(settings).toEqual({ permissionImplies: { master: ['house'] } });
    expect(notes).toContainEqual('confirm: model.permissionImplies.master: ["house"] (can_handle_shop lets a holder of master in as one of house)');
    // A helper testing the setting's permission alone implies nothing.
    const alone = [{ name: 'can_handle_shop', source: "select public.current_user_role() in ('dev', 'admin', 'staff') or public.current_user_has_permission('house')" }];
    expect(proposeVocabularySubsets(vocabularies, { roles: ['user', 'dev', 'staff', 'admin'] }, defaults, alone).settings).toEqual({});
  });

  /** stranger-app-10's handler settings: shop and vs handler roles, a vs permission scoped to the department by default. */
  const handlerSettings = () => {
    const vocabularies = [
      {
        path: 'roles',
        column: 'users.role',
        subsets: [
          { path: 'shop.handlerRoles', helper: 'shop.*(handl|manag)|(handl|manag).*shop', permissionPath: 'shop.handlerPermission' },
          { path: 'vs.handlerRoles', helper: 'vs.*handl|handl.*vs', permissionScope: { path: 'vs.permissionScope', value: 'every-department', permissionPath: 'vs.handlerPermission' } },
        ],
      },
    ];
    const defaults = { shop: { handlerRoles: ['staff', 'admin', 'dev'], handlerPermission: 'house' }, vs: { handlerRoles: ['vs_staff', 'vp_admin', 'admin', 'dev'], handlerPermission: 'vs' } };
    const roles = { roles: ['user', 'dev', 'admin', 'staff', 'vs_staff', 'vp_admin'] };
    return { vocabularies, defaults, roles };
  };

  it("settings read off a handler helper's CASE (stranger-app-10): the one permission it tests instead of the default's, and a permission granting whatever the department", () => {
    // After stranger-app-10: shop.handlerPermission (master) and vs.permissionScope (every-department) were set by hand.
    const { vocabularies, defaults, roles } = handlerSettings();
    const shop = { name: 'can_handle_shop', source: "select coalesce(public.current_user_role() in ('dev', 'admin', 'staff'), false)\n      or public.current_user_has_permission('master')" };
    const vs = (permissionBranch: string) => ({
      name: 'can_handle_vs',
      source: `select case\n    when public.current_user_role() = 'vp_admin'\n      then p_dept is not null and p_dept = public.current_user_dept()\n    when public.current_user_role() in ('dev', 'admin', 'staff', 'vs_staff') then true\n    ${permissionBranch}\n    else false\n  end`,
    });
    const { settings, notes } = proposeVocabularySubsets(vocabularies, roles, defaults, [shop, vs("when public.current_user_has_permission('vs') then true")]);
    expect(settings).toMatchObject({ shop: { handlerPermission: 'master' }, vs: { permissionScope: 'every-department' } });
    expect(notes).toContainEqual('confirm: model.shop.handlerPermission: master (can_handle_shop tests it, never house, the default)');
    expect(notes).toContainEqual('confirm: model.vs.permissionScope: every-department (can_handle_vs lets a holder of vs in whatever the department)');
    // A holder kept to their department, and a helper testing the default permission: nothing proposed.
    const scoped = proposeVocabularySubsets(vocabularies, roles, defaults, [vs("when public.current_user_has_permission('vs') then p_dept = public.current_user_dept()")]);
    expect(scoped.settings).not.toHaveProperty('vs.permissionScope');
    expect((scoped.settings as { vs?: { permissionScope?: string } }).vs?.permissionScope).toBeUndefined();
    const anded = proposeVocabularySubsets(vocabularies, roles, defaults, [{ name: 'can_handle_vs', source: "select public.current_user_role() in ('dev', 'admin', 'staff', 'vs_staff', 'vp_admin') or (public.current_user_has_permission('vs') and p_dept = public.current_user_dept())" }]);
    expect((anded.settings as { vs?: { permissionScope?: string } }).vs?.permissionScope).toBeUndefined();
    const ored = proposeVocabularySubsets(vocabularies, roles, defaults, [{ name: 'can_handle_vs', source: "select public.current_user_role() in ('dev', 'admin', 'staff', 'vs_staff', 'vp_admin') or public.current_user_has_permission('vs')" }]);
    expect((ored.settings as { vs?: { permissionScope?: string } }).vs?.permissionScope).toBe('every-department');
    const house = { name: 'can_handle_shop', source: "select public.current_user_role() in ('dev', 'admin', 'staff') or public.current_user_has_permission('house')" };
    expect((proposeVocabularySubsets(vocabularies, roles, defaults, [house]).settings as { shop?: unknown }).shop).toBeUndefined();
  });

  it('a join table keyed by (node, person) in a tenant (stranger-app-16): the person reference is the column referencing the person table, the model\'s own key none of the references', () => {
    // Before: team_members' id took profile_id (a key column), and user_id the one uuid left, the tenant's workspace_id.
    const users: ModelTableFacts = { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }, { name: 'display_name', type: 'text' }] };
    const nodes: ModelTableFacts = { name: 'team_nodes', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'name', type: 'text' }] };
    const members: ModelTableFacts = { name: 'team_members', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'node_id', type: 'uuid' }, { name: 'name', type: 'text' }, { name: 'user_id', type: 'uuid', nullable: true }] };
    const workspace = { table: 'public.workspaces', column: 'id' };
    const profiles: TargetTableFacts = { name: 'profiles', anonCanSelect: true, columns: [{ name: 'id', type: 'uuid', primaryKey: true, notNull: true, references: { table: 'auth.users', column: 'id' } }, { name: 'workspace_id', type: 'uuid', notNull: true, references: workspace }, { name: 'email', type: 'text', notNull: true }, { name: 'full_name', type: 'text' }] };
    const teamNodes: TargetTableFacts = { name: 'team_nodes', anonCanSelect: true, columns: [{ name: 'id', type: 'uuid', primaryKey: true, notNull: true, defaultExpr: 'gen_random_uuid()' }, { name: 'workspace_id', type: 'uuid', notNull: true, references: workspace }, { name: 'name', type: 'text', notNull: true }] };
    const teamMembers: TargetTableFacts = {
      name: 'team_members',
      anonCanSelect: true,
      columns: [
        { name: 'node_id', type: 'uuid', primaryKey: true, notNull: true, references: { table: 'team_nodes', column: 'id' } },
        { name: 'profile_id', type: 'uuid', primaryKey: true, notNull: true, references: { table: 'profiles', column: 'id' } },
        { name: 'workspace_id', type: 'uuid', notNull: true, references: workspace },
        { name: 'name', type: 'text', notNull: true },
      ],
    };
    const { mapping } = proposeMapping({ tables: [users, nodes, members], functions: [] }, { tables: [profiles, teamNodes, teamMembers], functions: [] });
    expect(mapping.tables!.team_members.columns).toEqual({ id: null, user_id: 'profile_id' });
    // A row keyed by its parent alone (profiles.id → auth.users) is still the model's key.
    expect(mapping.tables!.users.columns?.id).toBeUndefined();
    // A model key that names a reference (passport's profile keyed by user_id) still takes the target's person column
    // beside a key of the target's own (stranger-app-8's passport.profiles "userId").
    const passport: ModelTableFacts = { name: 'passport.profiles', columns: [{ name: 'user_id', type: 'uuid', primaryKey: true }, { name: 'display_name', type: 'text' }] };
    const targetPassport: TargetTableFacts = { name: 'passport.profiles', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true, notNull: true }, { name: 'user_id', type: 'uuid', notNull: true, references: { table: 'profiles', column: 'id' } }, { name: 'display_name', type: 'text' }] };
    const keyed = proposeMapping({ tables: [users, passport], functions: [] }, { tables: [profiles, targetPassport], functions: [] }).mapping;
    expect(keyed.tables?.['passport.profiles']?.columns?.user_id ?? 'user_id').toBe('user_id');
  });

  it('a plpgsql helper of guard clauses (stranger-app-16): the permission its last RETURN grants on lets a holder in whatever the department', () => {
    const { vocabularies, defaults, roles } = handlerSettings();
    const scopeOf = (source: string) => (proposeVocabularySubsets(vocabularies, roles, defaults, [{ name: 'can_handle_vs', source }]).settings as { vs?: { permissionScope?: string } }).vs?.permissionScope;
    const guarded = (last: string) => `
DECLARE
  v_role text := public.current_user_role();
BEGIN
  IF v_role IS NULL THEN
    RETURN false;
  END IF;
  IF v_role = 'vp_admin' THEN
    RETURN p_dept IS NOT NULL AND p_dept = public.current_user_dept();
  END IF;
  RETURN ${last};
END;
`;
    expect(scopeOf(guarded("v_role IN ('admin', 'staff', 'vs_staff') OR public.current_user_has_permission('vs')"))).toBe('every-department');
    // The last RETURN keeping the holder to their department, or a clause on anything but the role first: nothing proposed.
    expect(scopeOf(guarded("v_role IN ('admin', 'staff', 'vs_staff') OR (public.current_user_has_permission('vs') AND p_dept = public.current_user_dept())"))).toBeUndefined();
    expect(scopeOf("begin\n  if p_dept is distinct from public.current_user_dept() then return false; end if;\n  return public.current_user_has_permission('vs');\nend;")).toBeUndefined();
    // An IF doing more than returning is no guard clause: not read.
    expect(scopeOf("begin\n  if public.current_user_role() is null then perform 1; return false; end if;\n  return public.current_user_has_permission('vs');\nend;")).toBeUndefined();
  });

  it('a permission granting whatever the department only at the top level of the answer or of a CASE branch answering true; a negated permission test names no way in (review of session 19)', () => {
    const { vocabularies, defaults, roles } = handlerSettings();
    const scopeOf = (source: string) => (proposeVocabularySubsets(vocabularies, roles, defaults, [{ name: 'can_handle_vs', source }]).settings as { vs?: { permissionScope?: string } }).vs?.permissionScope;
    // An OR inside the department test: a holder is kept to their department (the secure target failed on every-department).
    expect(scopeOf("select p_dept = public.current_user_dept() and (public.current_user_role() in ('dev', 'admin', 'staff', 'vs_staff', 'vp_admin') or public.current_user_has_permission('vs'))")).toBeUndefined();
    // A CASE branch whose condition holds the permission but whose answer compares the department.
    expect(scopeOf("select case when public.current_user_role() in ('dev', 'admin') then true when public.current_user_role() = 'vp_admin' or public.current_user_has_permission('vs') then p_dept = public.current_user_dept() else false end")).toBeUndefined();
    // The permission as one alternative of a branch answering true, or of a plpgsql RETURN: every department.
    expect(scopeOf("select case when public.current_user_role() = 'vp_admin' then p_dept = public.current_user_dept() when public.current_user_role() = 'dev' or public.current_user_has_permission('vs') then true else false end")).toBe('every-department');
    expect(scopeOf("begin\n  return public.current_user_role() in ('dev', 'admin') or (public.current_user_has_permission('vs'));\nend;")).toBe('every-department');
    // A negated test keeps holders out: no handler permission (it was proposed `banned`), nothing implied.
    const shopWith = (source: string) => proposeVocabularySubsets(vocabularies, roles, defaults, [{ name: 'can_handle_shop', source }]);
    expect(shopWith("select public.current_user_role() in ('dev', 'admin', 'staff') and not public.current_user_has_permission('banned')").settings).toEqual({});
    expect(shopWith("select public.current_user_role() in ('dev', 'admin', 'staff') and public.has_permission('banned') = false").settings).toEqual({});
    expect(shopWith("select (public.current_user_role() in ('dev', 'admin', 'staff') or public.current_user_has_permission('house')) and not (public.current_user_has_permission('banned'))").settings).toEqual({});
    // Beside a negated test, the permission tested as a way in is still read.
    expect(shopWith("select (public.current_user_role() in ('dev', 'admin', 'staff') or public.current_user_has_permission('master')) and not public.current_user_has_permission('banned')").settings).toEqual({ shop: { handlerPermission: 'master' } });
  });

  it('guards that each raise with their table’s name: the convention reads every one of them, not the commonest', () => {
    const guard = (table: string, n: number) => fn({ name: `guard_${table}`, args: [], trigger: true, source: Array.from({ length: n }, () => `raise exception '${table}: no' using errcode = '42501';`).join('\n') });
    const guarded: ModelTableFacts = { ...prTickets, guarded: true };
    const { mapping } = proposeMapping({ tables: [guarded], functions: [] }, { tables: [pressRequests], functions: [guard('vs_tickets', 3), guard('users', 1), guard('shop_orders', 1)] });
    expect(mapping.conventions?.guardRefusal).toEqual({ code: '42501', message: '^(?:vs_tickets|shop_orders|users)' });
    expect(new RegExp(mapping.conventions!.guardRefusal!.message!).test('users: only display_name may be changed')).toBe(true);
  });
});

describe('an ORM-first stranger’s schema (stranger-app-8: Prisma’s quoted camelCase tables and columns)', () => {
  // After stranger-app-8: camelCase names were one token each (`submitterLabel` → `submitterlabel`), so
  // init proposed vs_tickets.submitter_label → submitterId, public_title → title, passport.profiles.user_id → id.
  const users: ModelTableFacts = { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'avatar_url', type: 'text', nullable: true }, { name: 'managed_permissions', type: 'text[]', hasDefault: true }] };
  const tickets: ModelTableFacts = {
    name: 'vs_tickets',
    columns: [
      { name: 'id', type: 'text', primaryKey: true },
      { name: 'submitter_id', type: 'uuid', nullable: true, references: 'users' },
      { name: 'submitter_label', type: 'text', hasDefault: true, textDefault: 'student' },
      { name: 'public_title', type: 'text', nullable: true },
      { name: 'public_ref', type: 'text', nullable: true, generated: true },
      { name: 'deleted_at', type: 'timestamptz', nullable: true },
    ],
  };
  const profiles: ModelTableFacts = { name: 'passport.profiles', columns: [{ name: 'user_id', type: 'uuid', primaryKey: true, references: 'users' }, { name: 'display_name', type: 'text', nullable: true }] };
  const target = {
    tables: [
      { name: 'User', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true, notNull: true }, { name: 'avatarUrl', type: 'text' }, { name: 'managedPermissions', type: '"Permission"[]', elementVocabulary: ['vs', 'pr'], defaultExpr: 'ARRAY[]::"Permission"[]' }] },
      {
        name: 'VsTicket',
        anonCanSelect: false,
        columns: [
          { name: 'id', type: 'text', primaryKey: true, notNull: true },
          { name: 'submitterId', type: 'text', notNull: true, references: { table: 'User', column: 'id' } },
          { name: 'submitterLabel', type: 'text', notNull: true },
          { name: 'title', type: 'text', notNull: true },
          { name: 'publicTitle', type: 'text' },
          { name: 'deletedAt', type: 'timestamp(3) without time zone' },
        ],
      },
      {
        name: 'passport.profiles',
        anonCanSelect: false,
        columns: [
          { name: 'id', type: 'text', primaryKey: true, notNull: true },
          { name: 'userId', type: 'text', notNull: true, references: { table: 'User', column: 'id' } },
          { name: 'displayName', type: 'text', notNull: true },
        ],
      },
    ],
    functions: [],
  };

  it('splits camelCase and PascalCase names into their words', () => {
    expect(['submitterId', 'VsTicket', 'HTTPStatus', '_ProjectToUser', 'deleted_at'].map(snakeCased)).toEqual(['submitter_id', 'vs_ticket', 'http_status', '_project_to_user', 'deleted_at']);
  });

  it('maps each model column to its camelCase namesake, a reference to the users table chosen for people included', () => {
    const { mapping } = proposeMapping({ tables: [users, tickets, profiles], functions: [] }, target);
    // An array of an enum holds the model's list of words (Prisma's `"Permission"[]`): it was "not found".
    expect(mapping.tables?.users).toEqual({ name: 'User', columns: { avatar_url: 'avatarUrl', managed_permissions: 'managedPermissions' } });
    expect(mapping.tables?.vs_tickets).toEqual({ name: 'VsTicket', columns: { submitter_id: 'submitterId', submitter_label: 'submitterLabel', public_title: 'publicTitle', public_ref: null, deleted_at: 'deletedAt' } });
    expect(mapping.tables?.['passport.profiles']?.columns).toEqual({ user_id: 'userId', display_name: 'displayName' });
  });

  it('a reference to the users table counts as one to a person only where it names the same role; an amount is no version counter', () => {
    // After the camelCase split: student_id → userId, student_record_id → decidedById (both reference User), discount → version.
    const { mapping } = proposeMapping(
      {
        tables: [
          users,
          { name: 'student_records', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'student_id', type: 'text' }, { name: 'full_name', type: 'text' }] },
          { name: 'student_change_requests', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'student_record_id', type: 'uuid' }, { name: 'applied_value', type: 'text', nullable: true }] },
          { name: 'shop_orders', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'buyer_id', type: 'uuid' }, { name: 'discount', type: 'integer', hasDefault: true, nullable: true }, { name: 'total', type: 'integer' }] },
        ],
        functions: [],
      },
      {
        tables: [
          target.tables[0],
          { name: 'StudentRecord', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'userId', type: 'text', notNull: true, references: { table: 'User', column: 'id' } }, { name: 'studentId', type: 'text', notNull: true }, { name: 'fullName', type: 'text', notNull: true }] },
          { name: 'StudentChangeRequest', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'recordId', type: 'text', notNull: true, references: { table: 'StudentRecord', column: 'id' } }, { name: 'appliedValue', type: 'text' }, { name: 'decidedById', type: 'text', references: { table: 'User', column: 'id' } }] },
          { name: 'ShopOrder', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'buyerId', type: 'text', notNull: true, references: { table: 'User', column: 'id' } }, { name: 'total', type: 'numeric(10,2)', notNull: true }, { name: 'version', type: 'integer', notNull: true, defaultExpr: '1' }] },
        ],
        functions: [],
      },
    );
    expect(mapping.tables?.student_records?.columns).toEqual({ student_id: 'studentId', full_name: 'fullName' });
    expect(mapping.tables?.student_change_requests?.columns).toEqual({ student_record_id: 'recordId', applied_value: 'appliedValue' });
    expect(mapping.tables?.shop_orders?.columns).toEqual({ buyer_id: 'buyerId', discount: null });
  });

  it('a jsonb answer keyed by the table’s camelCase columns answers the model’s columns; an object with a key set to true answers the model’s boolean', () => {
    // After stranger-app-8: get_vs_ticket_by_id's `json_build_object('targetDept', t."targetDept", …)` and soft_delete_vs_ticket's
    // `{id, deleted: true}` were compared as they came: "returned columns differ" in R03, R07, R12.
    const lookup = fn({ name: 'get_vs_ticket_by_id', args: [{ name: 'p_id', type: 'text' }], readOnly: true, source: `SELECT json_build_object('id', t."id", 'submitterLabel', t."submitterLabel", 'publicTitle', t."publicTitle", 'title', t."title", 'tags', '[]'::json) INTO v FROM "VsTicket" t WHERE t."id" = p_id;` });
    const softDelete = fn({ name: 'soft_delete_vs_ticket', args: [{ name: 'p_id', type: 'text' }], source: `UPDATE "VsTicket" SET "deletedAt" = now() WHERE "id" = p_id; RETURN json_build_object('id', p_id, 'deleted', true);` });
    const { mapping } = proposeMapping(
      { tables: [users, tickets], functions: [{ name: 'get_vs_ticket_by_id', args: ['p_id'] }, { name: 'soft_delete_vs_ticket', args: ['p_id'] }] },
      { tables: target.tables.slice(0, 2), functions: [lookup, softDelete] },
    );
    expect(mapping.functions?.get_vs_ticket_by_id).toEqual({ columns: { submitter_label: 'submitterLabel', public_title: 'publicTitle' } });
    expect(mapping.functions?.soft_delete_vs_ticket).toEqual({ returns: { field: 'deleted' } });
  });

  it("reads a guard's message up to its first format placeholder (`'… status %', new.status`)", () => {
    const guard = fn({ name: 'guard_shop_order_update', args: [], trigger: true, source: "RAISE EXCEPTION 'Buyers cannot set status %', NEW.\"status\" USING ERRCODE = '42501';" });
    const { mapping } = proposeMapping({ tables: [{ ...tickets, guarded: true }], functions: [] }, { tables: target.tables, functions: [guard] });
    expect(mapping.conventions?.guardRefusal).toEqual({ code: '42501', message: '^Buyers cannot set status' });
    expect(new RegExp(mapping.conventions!.guardRefusal!.message!).test('Buyers cannot set status paid')).toBe(true);
  });
});

describe('an RBAC stranger’s api schema of views (stranger-app-9)', () => {
  const people: ModelTableFacts = { name: 'users', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text' }] };
  const model = {
    tables: [
      people,
      { name: 'student_records', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'full_name', type: 'text' }] },
      { name: 'student_change_requests', columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'student_record_id', type: 'uuid' }, { name: 'applied_value', type: 'text', nullable: true }] },
      { name: 'pr_tickets', columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'brief', type: 'text' }, { name: 'updated_at', type: 'timestamptz' }, { name: 'deleted_at', type: 'timestamptz', nullable: true }] },
    ],
    functions: [],
  };
  const target = {
    tables: [
      { name: 'api.users', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'email', type: 'text', notNull: true }] },
      { name: 'api.student_records', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'full_name', type: 'text', notNull: true }] },
      // The change request's decider references the users view, as its record does the records view.
      { name: 'api.student_change_requests', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'record_id', type: 'uuid', notNull: true, references: { table: 'api.student_records', column: 'id' } }, { name: 'applied_value', type: 'text' }, { name: 'decided_by', type: 'uuid', references: { table: 'api.users', column: 'id' } }] },
      // A view hiding soft-deleted rows shows no deleted_at: its created_at is no deletion stamp.
      { name: 'api.pr_tickets', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, { name: 'brief', type: 'text', notNull: true }, { name: 'created_at', type: 'timestamp with time zone', notNull: true }, { name: 'updated_at', type: 'timestamp with time zone', notNull: true }] },
    ] satisfies TargetTableFacts[],
    functions: [],
  };

  it('a `<table>_id` column the model declares no foreign key for refers to that table, not to a person: student_record_id is record_id, not decided_by', () => {
    const { mapping } = proposeMapping(model, target, [], 'api');
    expect(mapping.tables?.student_change_requests?.columns).toEqual({ student_record_id: 'record_id' });
  });

  it('a column the users view computes (role_of(id) as role) is mapped to null, and the note names fixtures.columnsAsRows', () => {
    const withRole = { ...model, tables: [{ ...people, columns: [...people.columns, { name: 'role', type: 'text', nullable: true }] }, ...model.tables.slice(1)] };
    const users = { ...target.tables[0], viewOf: 'app.users', columns: [...target.tables[0].columns, { name: 'role', type: 'text', serverFilled: 'generated' as const }] };
    const { mapping, notes } = proposeMapping(withRole, { ...target, tables: [users, ...target.tables.slice(1)] }, [], 'api');
    expect(mapping.tables?.users?.columns).toEqual({ role: null });
    expect(notes).toContain('confirm: users.role computed by the view (not a column of app.users) where the model writes the value: mapped to null (not written, not compared); where it reads a value kept as rows of another table (a role in user_roles), write those rows with fixtures.columnsAsRows (docs/config.md)');
  });

  it('two stamps of different events are never one column: deleted_at is not found, not created_at', () => {
    const { mapping } = proposeMapping(model, target, [], 'api');
    expect(mapping.tables?.pr_tickets?.columns).toEqual({ deleted_at: null });
  });
});
