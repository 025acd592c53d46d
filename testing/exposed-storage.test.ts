/**
 * A project whose config.toml exposes `storage` and whose policies let signed-in users see and
 * create Storage buckets (supabase-swift's examples), with a pack that models `storage.buckets`
 * and sends requests to it through the API: `mutants --auto` mutates those policies (it skipped
 * them as Supabase's own, telling to send the table as SQL, which the pack did not need).
 * Through the real binary, on the shared server.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, it } from 'vitest';
import { runBin } from './run-bin.ts';
import { tempDir } from './temp-dir.ts';

const PACK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'exposed-storage', 'policyfuzz.pack.ts');

it('mutants --auto mutates the policies of a Supabase table a property sends API requests to, and kills them', async () => {
  const dir = tempDir('exposed-storage');
  const r = await runBin(['mutants', '--auto', '--pack', PACK, '--runs', '60', '--seed', '1', '--database-url', inject('databaseUrl')], { cwd: dir });
  expect(r.stdout, r.stderr).not.toMatch(/^skipped /m);
  expect(r.stdout).toMatch(/^killed +widen-roles-buckets-signed-in-users-see-buckets by B01 in \d+ ms$/m);
  expect(r.stdout).toMatch(/^killed +widen-roles-buckets-signed-in-users-create-buckets by B01 in \d+ ms$/m);
  expect(r.stdout).toMatch(/^killed +disable-row-security-storage-buckets by B01 in \d+ ms$/m);
  expect(r.stdout).toMatch(/^3 of 3 automatic variants killed \(100%\), 0 equivalent not run$/m);
  expect(r.code).toBe(0);
});
