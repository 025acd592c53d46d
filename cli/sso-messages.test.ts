/**
 * What `policyfuzz sso check` says (the real binary, a child process), issue 26: a drifted
 * auth.token answer is one finding naming the field, and the properties that read the token say
 * they could not run; S10 diffs like shapes (`$.status: 200 → 500`); a WARN is counted as warned,
 * not failed; S14's and S18's notes count the values of their own findings.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBin } from '../testing/run-bin.ts';
import { tempDir } from '../testing/temp-dir.ts';
import example from '../sso/examples/sso.config.json' with { type: 'json' };
import { parseSsoConfig } from '../sso/config.ts';
import { startEmulator } from '../sso/emulator/server.ts';
import type { SsoFault } from '../sso/emulator/faults/index.ts';
import { otherHandConfig, startOtherHandServer, type OtherHandFault } from '../sso/testing/other-hand-server.ts';

const dir = tempDir('sso-messages');
const EXAMPLE = join(process.cwd(), 'sso/examples/sso.config.json');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

async function otherHand(faults: OtherHandFault[]): Promise<string[]> {
  const data = otherHandConfig(example);
  const server = await startOtherHandServer({ ...parseSsoConfig(data), faults });
  closers.push(() => server.close());
  const config = join(dir, `other-hand-${faults.join('-') || 'correct'}.json`);
  await writeFile(config, JSON.stringify(data));
  return ['sso', 'check', '--web', server.webUrl, '--api', server.apiUrl, '--config', config, '--no-wait'];
}

async function emulator(faults: SsoFault[]): Promise<string[]> {
  const emu = await startEmulator({ config: parseSsoConfig(example), faults });
  closers.push(() => emu.close());
  return ['sso', 'check', '--web', emu.webUrl, '--api', emu.apiUrl, '--config', EXAMPLE, '--control-api'];
}

/** The lines of one property's block in the output. */
const block = (stdout: string, id: string) => stdout.split(/\n(?=S\d\d {2}|time )/).find((b) => b.startsWith(`${id}  `)) ?? '';

describe('sso check messages', () => {
  it('a renamed field in the token answer: one FAIL naming it; the properties reading the token could not run; the rest judge as usual', async () => {
    const drifted = await otherHand(['token-field-renamed']);
    const [all, alone, should] = await Promise.all([
      runBin([...drifted, '--seed', '2', '--runs', '3', '--only', 'S02,S09,S10,S11,S12,S13']),
      runBin([...drifted, '--seed', '2', '--runs', '3', '--only', 'S13,S11']),
      runBin([...drifted, '--seed', '2', '--runs', '3', '--only', 'S13']),
    ]);
    expect(all.code, all.stdout + all.stderr).toBe(1);
    // Reported once, by S12, naming the field and what is there instead.
    expect(all.stdout.match(/^S\d\d {2}FAIL/gm)).toEqual(['S12  FAIL']);
    expect(block(all.stdout, 'S12')).toContain("schema drift: auth.token's success answer does not follow the spec's schema: accessToken is absent (access_token is there instead: renamed?)");
    expect(block(all.stdout, 'S12')).toMatch(/\$\.accessToken: "string" → \(absent\)\n\s+\$\.access_token: \(absent\) → "string"/);
    expect(block(all.stdout, 'S12')).toMatch(/replay: --seed 2 --only S12\n/);
    for (const id of ['S09', 'S11', 'S13']) expect(block(all.stdout, id), all.stdout).toMatch(new RegExp(`^${id} {2}ERROR .*\\n {6}note: could not run: .*accessToken is absent \\(access_token is there instead: renamed\\?\\) \\(S12 reports the drift\\)`));
    // Those that need only a success, not its fields, still judge.
    for (const id of ['S02', 'S10']) expect(block(all.stdout, id), all.stdout).toMatch(new RegExp(`^${id} {2}PASS`));
    expect(all.stdout).not.toMatch(/must succeed/);
    // Without S12, the first must that reads the token reports it (a should never does: the
    // drift must not pass as a WARN with exit 0); with no such must, none could run (exit 2).
    expect(alone.code, alone.stdout + alone.stderr).toBe(1);
    expect(alone.stdout).toMatch(/^S11 {2}FAIL .*\n(.*\n)*? {6}schema drift: .*accessToken is absent/m);
    expect(alone.stdout).toMatch(/^S13 {2}ERROR .*\n {6}note: could not run: .*\(S11 reports the drift\)/m);
    expect(should.code, should.stdout + should.stderr).toBe(2);
    expect(should.stdout).toMatch(/^S13 {2}ERROR .*\n {6}note: could not run: .*accessToken is absent .*\(S12 reports the drift; run it\)/m);
  }, 60_000);

  it('S10 compares like shapes: the status and the body, and says what was sent', async () => {
    const r = await runBin([...(await emulator(['malformed-json-500'])), '--seed', '1', '--runs', '3', '--only', 'S10']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const s10 = block(r.stdout, 'S10');
    expect(s10).toMatch(/\n {6}sent: POST \(application\/json\) /);
    expect(s10).toMatch(/\n {8}\$\.status: 200 → 500\n/);
    expect(s10).not.toMatch(/\$\.request|\$\.reply/);
  }, 60_000);

  it('a WARN is counted as warned, not failed (exit 0)', async () => {
    // The server written in another hand keeps a replayed code's token: S13, a should, warns.
    const r = await runBin([...(await otherHand([])), '--seed', '1', '--runs', '3', '--only', 'S02,S13']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^S13 {2}WARN/m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 1 warned, 0 not applicable, 0 errors (seed 1)');
  }, 60_000);

  it('S11: a token cache that outlives logout (warm 200, cold 401) is named a fault; tokens that survive logout cold too keep the setting hint', async () => {
    const [cache, survives] = await Promise.all([
      runBin([...(await otherHand(['revocation-cached'])), '--seed', '100', '--only', 'S11']),
      runBin([...(await emulator(['token-survives-logout'])), '--seed', '100', '--only', 'S11']),
    ]);
    expect(cache.code, cache.stdout + cache.stderr).toBe(1);
    expect(block(cache.stdout, 'S11')).toContain('with a logged-out-warm bearer must answer 401 (a cold logged-out token gets 401 on both: what was read before outlives the logout, a cache; a fault under any setting)');
    expect(block(cache.stdout, 'S11')).not.toMatch(/a setting or a fault/);
    expect(block(cache.stdout, 'S11')).toMatch(/\$\.user\.profile\.status: 401 → 200/);
    expect(survives.code, survives.stdout + survives.stderr).toBe(1);
    expect(block(survives.stdout, 'S11')).toMatch(/a setting or a fault: what was observed matches setting logoutRevokesTokens/);
  }, 60_000);

  it("S14's and S18's notes count the values of their own findings", async () => {
    const [codes, tokens] = await Promise.all([
      runBin([...(await emulator(['guessable-codes'])), '--seed', '3', '--only', 'S14,S18']),
      runBin([...(await otherHand(['predictable-tokens'])), '--seed', '3', '--only', 'S18']),
    ]);
    const s14 = block(codes.stdout, 'S14');
    // The two codes of the finding are among those counted, and the closest pair is the finding's.
    const bits = Number(/two codes differ in only (\d+) of 128 bits/.exec(s14)?.[1]);
    expect(s14, codes.stdout).toMatch(new RegExp(`note: codes issued: ([2-9]|\\d\\d+) .*closest two codes: ${bits} bits? apart`));
    expect(block(codes.stdout, 'S18')).toMatch(/note: ([2-9]|\d\d+) codes, .*\n(.*\n)*? {6}two issued codes share their first/);
    expect(block(tokens.stdout, 'S18'), tokens.stdout).toMatch(/note: \d+ codes?, ([1-9]\d*) tokens? checked\n {6}an issued access token is predictable/);
  }, 60_000);
});
