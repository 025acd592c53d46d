/**
 * init's reading of a tenant column (stranger-app-16's `workspace_id`, re-created with an org):
 * proposed as `fixtures.tenantColumn`, and never paired with a model column (stranger-app-16's
 * `project_settings.key → workspace_id`: the settings row keyed by its workspace took the model's key).
 */
import { describe, expect, it } from 'vitest';
import { proposeMapping, type ModelTableFacts, type TargetFunctionFacts, type TargetTableFacts } from './propose.ts';
import { tenantColumnIn } from './tenant-column.ts';

const orgRef = { name: 'org_id', type: 'uuid', notNull: true, references: { table: 'orgs', column: 'id' } };
const orgs: TargetTableFacts = { name: 'orgs', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true, defaultExpr: 'gen_random_uuid()' }, { name: 'slug', type: 'text', notNull: true }] };
const members: TargetTableFacts = {
  name: 'members',
  anonCanSelect: false,
  columns: [{ name: 'id', type: 'uuid', primaryKey: true, references: { table: 'auth.users', column: 'id' } }, orgRef, { name: 'email', type: 'text' }],
};
const tickets: TargetTableFacts = { name: 'tickets', anonCanSelect: false, columns: [{ name: 'id', type: 'text', primaryKey: true }, orgRef, { name: 'submitter_id', type: 'uuid', references: { table: 'members', column: 'id' } }] };
const notes: TargetTableFacts = { name: 'notes', anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, orgRef, { name: 'body', type: 'text' }] };
// Keyed by its org: one settings row per tenant.
const orgSettings: TargetTableFacts = { name: 'project_settings', anonCanSelect: false, columns: [{ ...orgRef, primaryKey: true }, { name: 'settings', type: 'jsonb', notNull: true, defaultExpr: "'{}'::jsonb" }] };
const helper: TargetFunctionFacts = { name: 'my_org', args: [], returns: 'scalar', outColumns: [], readOnly: true, trigger: false, source: 'select org_id from public.members where id = auth.uid()' };

describe('the tenant column init recognises', () => {
  const target = { tables: [orgs, members, tickets, notes, orgSettings], functions: [helper] };

  it('a column on most tables referencing one table of no people, read by a helper', () => {
    expect(tenantColumnIn(target)).toEqual({ column: 'org_id', table: 'orgs', holders: 4, of: 4 });
  });

  it('none where a helper never reads it, where few tables hold it, or where the table it references holds people', () => {
    expect(tenantColumnIn({ ...target, functions: [] })).toBeUndefined();
    expect(tenantColumnIn({ tables: [orgs, members, tickets], functions: [helper] })).toBeUndefined();
    // submitter_id → members on three tables: members is keyed by its person (auth.users), a profile, not a tenant.
    const bySubmitter = (name: string): TargetTableFacts => ({ name, anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: 'submitter_id', type: 'uuid', references: { table: 'members', column: 'id' } }] });
    expect(tenantColumnIn({ tables: [members, bySubmitter('a'), bySubmitter('b'), bySubmitter('c')], functions: [{ ...helper, source: 'select submitter_id' }] })).toBeUndefined();
  });

  it('counts the tables reaching a holder by a NOT NULL foreign key as the tenant’s (Basejump’s children carry no account_id: stranger-app-18)', () => {
    const child = (name: string, parent: string, notNull = true): TargetTableFacts => ({ name, anonCanSelect: false, columns: [{ name: 'id', type: 'uuid', primaryKey: true }, { name: `${parent}_id`, type: 'uuid', notNull, references: { table: parent, column: 'id' } }] });
    const projects: TargetTableFacts = { ...notes, name: 'projects' };
    const people: TargetTableFacts = { ...members, name: 'people', columns: members.columns.filter((c) => c.name !== 'org_id') };
    // org_id on 3 of 8 tables; with the comments, documents and files under them, 6 of 8 are the tenant's.
    const tables = [orgs, people, tickets, notes, projects, child('comments', 'tickets'), child('documents', 'projects'), child('files', 'documents')];
    expect(tenantColumnIn({ tables, functions: [helper] })).toEqual({ column: 'org_id', table: 'orgs', holders: 3, of: 7 });
    // A nullable reference is no tenant's child: 3 of 7 then.
    expect(tenantColumnIn({ tables: [...tables.slice(0, 5), child('comments', 'tickets', false), child('documents', 'projects', false), child('files', 'documents', false)], functions: [helper] })).toBeUndefined();
  });

  it('is proposed, and no model column is paired with it', () => {
    const settings: ModelTableFacts = { name: 'project_settings', columns: [{ name: 'key', type: 'text', primaryKey: true }, { name: 'value', type: 'jsonb' }] };
    const proposal = proposeMapping({ tables: [settings], functions: [] }, target);
    expect(proposal.tenantColumn).toBe('org_id');
    expect(proposal.mapping.tables?.project_settings?.columns?.key ?? null).toBeNull();
    expect(proposal.notes).toContainEqual(expect.stringMatching(/^confirm: fixtures\.tenantColumn: org_id \(on 4 of 4 tables, referencing orgs/));
  });
});
