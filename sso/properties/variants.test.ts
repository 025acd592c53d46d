import { describe, it, expect, afterAll } from 'vitest';
import { ssoCheck, type Output } from '../../cli/sso-command.ts';
import { startEmulator, type RunningEmulator } from '../emulator/server.ts';
import { parseSsoConfig } from '../config.ts';
import example from '../examples/sso.config.json' with { type: 'json' };

const CONFIG = new URL('../examples/sso.config.json', import.meta.url).pathname;
const running: RunningEmulator[] = [];
afterAll(async () => Promise.all(running.map((e) => e.close())));

/** Variant families: the part of a variant name before its first ':' detail. */
const family = (name: string) => name.replace(/^variant /, '').replace(/ \(no-op\)$/, '').split(':').slice(0, 2).join(':');

describe('every variant of S10 and S11 runs in every run, however few runs and whatever the seed', () => {
  it('with --runs 1 under three seeds, each variant appears in the counts and the output', async () => {
    const emu = await startEmulator({ config: parseSsoConfig(example) });
    running.push(emu);
    const perSeed: Record<string, string[]> = {};
    for (const seed of ['1', '2', '3']) {
      const lines: string[] = [];
      const io: Output = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
      const { results, exitCode } = await ssoCheck({ web: emu.webUrl, api: emu.apiUrl, config: CONFIG, seed, runs: '1', only: 'S10,S11', controlApi: true }, io);
      expect(exitCode, lines.join('\n')).toBe(0);
      for (const r of results) {
        const names = Object.keys(r.counts).filter((k) => k.startsWith('variant ')).map(family);
        perSeed[`${r.id}/${seed}`] = [...new Set(names)].sort();
        expect(lines.join('\n')).toMatch(new RegExp(`^ {6}variants \\(\\d+\\): `, 'm'));
      }
    }
    // S10: 8 families + 6 content types + 4 methods + 2 query-string + 6 JSON scalars; S11: 13 header shapes + logged-out + expired (cold and warm).
    for (const seed of ['1', '2', '3']) {
      const s10 = perSeed[`S10/${seed}`]!;
      expect(s10.filter((n) => n.startsWith('content-type:'))).toHaveLength(6);
      expect(s10.filter((n) => n.startsWith('method:'))).toEqual(['method:DELETE', 'method:GET', 'method:PATCH', 'method:PUT']);
      expect(s10.filter((n) => n.startsWith('json-'))).toHaveLength(6);
      for (const f of ['not-json', 'truncated-json', 'form-encoded', 'nested', 'array-wrapped', '__proto__-key']) expect(s10).toContain(f);
      for (const f of ['missing', 'extra-field', 'wrong-type', 'huge', 'control-char', 'duplicate-key']) expect(s10.some((n) => n.startsWith(`${f}:`))).toBe(true);
      const s11 = perSeed[`S11/${seed}`]!.map((n) => n.split(':')[0]);
      for (const f of ['missing', 'scheme', 'empty', 'bare-scheme', 'token-only', 'spaces', 'two-headers', 'random', 'truncated', 'head-cut', 'extended', 'bit-flipped', 'logged-out', 'expired']) expect(s11).toContain(f);
      expect(perSeed[`S11/${seed}`]!.filter((n) => n.startsWith('scheme:'))).toHaveLength(5);
    }
  }, 60_000);
});

describe('every variant of S05, S07, S08 and S15 runs in every run', () => {
  it('with --runs 1 under three seeds: every secret and client-id variant, every bad app, and the good path', async () => {
    const emu = await startEmulator({ config: parseSsoConfig(example) });
    running.push(emu);
    const BAD_APPS = ['missing', 'empty', 'duplicated', 'case-flip', 'whitespace', 'suffix', 'encoded', 'other-name', 'unknown'];
    for (const seed of ['1', '2', '3']) {
      const lines: string[] = [];
      const io: Output = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
      const { results, exitCode } = await ssoCheck({ web: emu.webUrl, api: emu.apiUrl, config: CONFIG, seed, runs: '1', only: 'S05,S07,S08,S15', controlApi: true }, io);
      expect(exitCode, lines.join('\n')).toBe(0);
      const seen = (id: string) => Object.keys(results.find((r) => r.id === id)!.counts);
      const variantsOf = (id: string, prefix: string) => [...new Set(seen(id).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length).split(':')[0]))].sort();
      expect(seen('S05').map((k) => k.replace(/:(refused|accepted)$/, '')).sort()).toEqual(
        ['client-id:case-flip', 'client-id:unknown', 'secret:all-caps', 'secret:case-flip', 'secret:empty', 'secret:extended', 'secret:leading-space', 'secret:missing', 'secret:random', 'secret:truncated', 'secret:whitespace'].sort(),
      );
      expect(variantsOf('S07', 'bad-app:')).toEqual([...BAD_APPS].sort());
      expect(seen('S07').some((k) => k.startsWith('good-app:'))).toBe(true);
      expect(variantsOf('S08', 'bad-app:')).toEqual([...BAD_APPS].sort());
      expect(seen('S08').some((k) => k.startsWith('logout:'))).toBe(true);
      expect(variantsOf('S15', 'error-page:')).toEqual([...BAD_APPS].sort());
      expect(seen('S15').some((k) => k.startsWith('login-page:'))).toBe(true);
    }
  }, 60_000);
});
