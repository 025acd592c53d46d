import { it } from 'vitest';
import os from 'node:os';
import { inspectMigrations } from '../../engine/config/init.ts';
import { referencePack } from '../../packs/reference/index.ts';
import { sharedServer } from '../../testing/shared-server.ts';
it('dev init', async () => {
  const server = await sharedServer();
  const r = await inspectMigrations(server, process.env.MIG ?? 'examples/student-union/supabase/migrations', referencePack.properties, os.tmpdir(), referencePack.model, referencePack.vocabularies);
  console.log(JSON.stringify(r.config, null, 1));
  await server.stop();
}, 120000);
