/**
 * The layout's one rule, read from the sources: nothing imports from a higher layer, and no
 * module imports itself back through others. Layers, lowest first (README "Layout"):
 *   engine → sso → packs → cli → api
 * Tests (`*.test.ts`) sit beside what they test and may use a pack as their fixture; testing/,
 * bench/, examples/ and bin/ stand outside the layers and may import any of them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/paths.ts';

const LAYERS = ['engine', 'sso', 'packs', 'cli', 'api'];
const layerOf = (file: string) => LAYERS.indexOf(file.split('/')[0]);

const sources = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.ts'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
  .trim()
  .split('\n')
  .filter((f) => f && !f.endsWith('.test.ts') && !f.endsWith('.d.ts') && layerOf(f) >= 0);

/** Relative imports of a file (value and type imports, re-exports and dynamic imports), resolved. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:^(?:import|export)\s[^;]*?from\s+|import\(\s*)'(\.[^']+)'/gm)].map((m) => m[1]);
  return specs.map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)));
}

describe('layering', () => {
  it('finds the sources it reads', () => {
    expect(sources.filter((f) => f.startsWith('engine/')).length).toBeGreaterThan(40);
    expect(sources.some((f) => f.startsWith('packs/reference/'))).toBe(true);
  });

  it('no file imports from a higher layer', () => {
    const upward = sources.flatMap((f) => importsOf(f).filter((t) => layerOf(t) > layerOf(f) || (layerOf(t) < 0 && !t.startsWith('node_modules'))).map((t) => `${f} imports ${t}`));
    expect(upward).toEqual([]);
  });

  it('has no import loop', () => {
    const graph = new Map(sources.map((f) => [f, importsOf(f)]));
    const loops: string[] = [];
    const done = new Set<string>();
    const visit = (f: string, trail: string[]) => {
      const at = trail.indexOf(f);
      if (at >= 0) return void loops.push([...trail.slice(at), f].join(' → '));
      if (done.has(f)) return;
      for (const d of graph.get(f) ?? []) visit(d, [...trail, f]);
      done.add(f);
    };
    for (const f of graph.keys()) visit(f, []);
    expect(loops).toEqual([]);
  });

  it('would see an upward import (the check can fail)', () => {
    const fake = 'engine/x.ts';
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(fake), '../packs/reference/index.ts'));
    expect(layerOf(target)).toBeGreaterThan(layerOf(fake));
  });

  it('every command reaches the engine through its one entry (engine/run/): none opens environments, runs properties, fits them or writes fixtures itself', () => {
    const commands = sources.filter((f) => f.startsWith('cli/'));
    expect(commands.length).toBeGreaterThan(10);
    const direct = commands.flatMap((f) => importsOf(f).filter((t) => /^engine\/(runner|target|mapping)\//.test(t)).map((t) => `${f} imports ${t}`));
    expect(direct).toEqual([]);
  });

  it('one place turns a model world or request into the target\'s rows and statements: engine/target/', () => {
    const makers = /^export function (worldToTarget|orderToTarget|requestToTarget|requestForTarget|fixtureStatements|fixtureStatementsPerRow|fillWorld|fillWorldWithParents|fillInsertRows)\b/m;
    const defining = sources.filter((f) => makers.test(readFileSync(path.join(PROJECT_ROOT, f), 'utf8')));
    expect(defining.length).toBeGreaterThan(0);
    expect(defining.filter((f) => !f.startsWith('engine/target/'))).toEqual([]);
  });
});
