import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/paths.ts';
import { escapeRegExp } from './regexp.ts';

describe('escapeRegExp', () => {
  it('makes every character of the text literal', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p';
    expect(new RegExp(`^${escapeRegExp(text)}$`).test(text)).toBe(true);
    expect(new RegExp(`^${escapeRegExp(text)}$`, 'u').test(text)).toBe(true);
    expect(new RegExp(escapeRegExp('VS-1.0')).test('VS-1x0')).toBe(false);
  });

  /** Eight modules once escaped inline, one only `$`: a copy drifts. */
  it('is the only regex escape in the sources (no inline copy)', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        ['node_modules', 'dist', '.scratch', '.git'].includes(e.name) ? [] : e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [path.join(dir, e.name)] : [],
      );
    // The replacement every escape writes (a backslash before the match), or a dot-only escape of a name (every dot given a backslash).
    const inline = /\.replace\([^\n]*'\\\\\$&'\)|\.replace\(\/\\\.\/g,\s*['"]\\\\\.['"]\)/;
    const copies = sources(PROJECT_ROOT).filter((f) => f !== path.join(PROJECT_ROOT, 'engine', 'regexp.ts') && inline.test(readFileSync(f, 'utf8')));
    expect(copies.map((f) => path.relative(PROJECT_ROOT, f))).toEqual([]);
  });
});
