/**
 * `ownerEditableColumns: []` is the honest setting for a table owners cannot update. It used to
 * crash R01's generator with a fast-check stack trace; now it means "owners cannot update": an
 * owner's change is as secure refused by the guard as left undone by row security. Through the
 * binary, on the reference plus a migration that takes the owners' UPDATE policy away.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_MIGRATIONS } from '../../../../cli/paths.ts';
import { runBin } from '../../../../testing/run-bin.ts';
import { tempDir } from '../../../../testing/temp-dir.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'owners-cannot-update');

describe('R01 with an empty allow-list', () => {
  it('owners cannot update users: R01 passes, no stack trace', async () => {
    const dir = tempDir('owners-cannot-update');
    const config = path.join(dir, 'policyfuzz.config.json');
    writeFileSync(config, JSON.stringify({ migrations: [BUNDLED_MIGRATIONS, FIXTURE], model: { users: { ownerEditableColumns: [] } }, rules: { include: ['R01'] } }));
    const r = await runBin(['fuzz', '--config', config, '--seed', '3', '--runs', '150', '--no-sso', '--no-replay', '--no-color', '--report-dir', path.join(dir, 'r'), '--failures-dir', path.join(dir, 'f'), '--database-url', inject('databaseUrl')], { cwd: dir });
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect({ code: r.code, verdict: /R01\s+\S*\s*PASS/.test(r.stdout) || r.stdout.includes('1 passed, 0 failed') }).toEqual({ code: 0, verdict: true });
  });
});
