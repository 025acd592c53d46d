import { readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { it } from 'vitest';
import { fuzz } from '/work/wt-realproj/cli/fuzz-command.ts';
import pack from '/work/wt-realproj/examples/student-union/policyfuzz.pack.ts';
import { sharedServer } from '/work/wt-realproj/testing/shared-server.ts';

it('dev run', async () => {
  const server = await sharedServer();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'pf-dev-'));
  const lines: string[] = [];
  const code = await fuzz({ config: process.env.CFG ?? '/work/wt-realproj/examples/student-union/policyfuzz.config.json', migrations: pack.migrations!, pack, databaseUrl: server.adminUrl, seed: Number(process.env.SEED ?? 1), runs: Number(process.env.RUNS ?? 100), workers: 1, reportDir: path.join(tmp, 'r'), failuresDir: path.join(tmp, 'f'), replay: false, ...(process.env.ONLY ? { only: process.env.ONLY } : {}) } as any, (l) => lines.push(l));
  console.log(lines.join('\n'));
  const summary = JSON.parse(readFileSync(path.join(tmp, 'r', 'summary.json'), 'utf8'));
  for (const p of summary.properties) if (p.failures?.[0]) console.log(p.id, JSON.stringify(p.failures[0]).slice(0, 3000));
  console.log('code', code);
  await server.stop();
}, 300000);
