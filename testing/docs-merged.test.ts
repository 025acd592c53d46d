/**
 * The docs after a merge: no conflict markers left in README.md or docs/ (a merge of s12-stranger3
 * committed both sides of a paragraph of docs/config.md, markers and all).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/paths.ts';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? markdownFiles(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : []));
}

it('README.md and docs/ hold no merge conflict markers', () => {
  const files = [path.join(PROJECT_ROOT, 'README.md'), ...markdownFiles(path.join(PROJECT_ROOT, 'docs'))];
  expect(files.length).toBeGreaterThan(5);
  const marked = files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .split('\n')
      .flatMap((line, i) => (/^(<{7}|>{7}) /.test(line) ? [`${path.relative(PROJECT_ROOT, f)}:${i + 1}: ${line}`] : [])),
  );
  expect(marked).toEqual([]);
});
