/**
 * `policyfuzz sso check` against a deployment without a control API (the real binary, a child
 * process): it waits the configured code and token lifetimes out by default when they fit the
 * 120 s bound, and says so first; `--no-wait` skips it (S06 N/A, saying why); lifetimes beyond
 * the bound make S06 N/A naming the bound and the option. A server whose codes never expire is
 * caught with no flag at all, as a CI job copied from the first example runs it.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import example from '../sso/examples/sso.config.json' with { type: 'json' };
import { parseSsoConfig } from '../sso/config.ts';
import { otherHandConfig, startOtherHandServer, type OtherHandFault, type OtherHandServer } from '../sso/testing/other-hand-server.ts';

const dir = tempDir('sso-expiry-wait');
const servers: OtherHandServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A server with the given lifetimes (seconds) and a config that declares them. */
async function target(name: string, codeS: number, tokenS: number, faults: OtherHandFault[] = []): Promise<string[]> {
  const base = otherHandConfig(example, codeS);
  const data = { ...base, settings: { ...base.settings, tokenLifetimeSeconds: tokenS } };
  const config = parseSsoConfig(data);
  const server = await startOtherHandServer({ clients: config.clients, users: config.users, codeLifetimeMs: codeS * 1000, tokenLifetimeMs: tokenS * 1000, faults });
  servers.push(server);
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(data));
  return ['sso', 'check', '--web', server.webUrl, '--api', server.apiUrl, '--config', file, '--seed', '4', '--only', 'S06'];
}

describe('sso check waits for expiry by default without a control API', () => {
  it('waits short lifetimes out (announced), catches codes that never expire with no flag, --no-wait skips, long lifetimes are N/A naming the bound', async () => {
    const [short, neverExpires, long] = await Promise.all([target('short', 2, 3), target('never-expires', 2, 3, ['code-never-expires']), target('long', 300, 3600)]);
    const [waited, caught, skipped, beyond, contradictory] = await Promise.all([runBin(short), runBin(neverExpires), runBin([...short, '--no-wait']), runBin(long), runBin([...short, '--no-wait', '--real-time'])]);

    expect(waited.code, waited.stdout + waited.stderr).toBe(0);
    expect(waited.stdout).toContain('waiting up to 4 s for code/token expiry (S06: code lifetime 2 s, token lifetime 3 s); --no-wait to skip\n');
    expect(waited.stdout).toMatch(/^S06 {2}PASS .*\n {6}note: real-time mode: waited 4\.0 s past issue \(code lifetime 2 s, token lifetime 3 s\)$/m);

    expect(caught.code, caught.stdout + caught.stderr).toBe(1);
    expect(caught.stdout).toMatch(/^S06 {2}FAIL /m);
    expect(caught.stdout).toMatch(/code for .*, 4000 ms old \(lifetime 2 s\), must fail/);

    expect(skipped.code, skipped.stdout + skipped.stderr).toBe(0);
    expect(skipped.stdout).not.toMatch(/waiting up to/);
    expect(skipped.stdout).toMatch(/^S06 {2}N\/A .*\n {6}note: expiry not checked: .*--no-wait/m);

    expect(beyond.code, beyond.stdout + beyond.stderr).toBe(0);
    expect(beyond.stdout).toContain('not waiting for expiry: the code lifetime (300 s) is beyond the 120 s bound (--max-wait), so S06 is N/A; --max-wait 301 waits it out\n');
    expect(beyond.stdout).toMatch(/^S06 {2}N\/A .*\n {6}note: expiry not checked: the code lifetime \(300 s\) is beyond the 120 s bound of the real-time wait; --max-wait 301 waits it out$/m);

    expect(contradictory.code).toBe(2);
    expect(contradictory.stderr).toBe('error: --real-time waits for expiry and --no-wait skips it: give one of them\n');
  }, 60_000);
});
