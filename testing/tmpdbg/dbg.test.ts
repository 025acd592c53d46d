import pg from 'pg';
import { it } from 'vitest';
import { sharedServer } from '../shared-server.ts';
import { prepareTemplate } from '../../engine/db/databases.ts';
import { loadMigrationFolder } from '../../engine/db/migrations.ts';
import { readTableShapes } from '../../engine/introspection/table-shapes.ts';
import { fillWorldWithParents } from '../../engine/target/fill-row.ts';
it('dbg', async () => {
const server = await sharedServer();
const t = await prepareTemplate(server, { migrations: loadMigrationFolder('/tmp/s10-rw/capgo-pf/supabase/migrations', []) });
const c = new pg.Client({ connectionString: t.url }); await c.connect();
const shapes = await readTableShapes(c, ['public', 'auth']);
for (const n of ['channels']) console.log('SHAPE', n, JSON.stringify(shapes.get(n)!.filter((x) => x.notNull && !x.hasDefault)));
const w = { 'auth.users': [{ id: 'a' }], users: [{ id: 'a' }], orgs: [{ id: 'o' }], deploy_history: [{ id: 1, owner_org: 'o', created_by: 'a', app_id: 'x' }] };
try { console.log(JSON.stringify(fillWorldWithParents(w as any, shapes))); } catch (e) { console.log('ERR', e); }
await c.end(); await t.drop();
}, 300000);
