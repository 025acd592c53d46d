import path from 'node:path';
import { expect, it } from 'vitest';
import { shownPath } from './shown-path.ts';

it('shownPath: relative inside the current folder, absolute outside it (never ../..), as given when it is the current folder', () => {
  const cwd = process.cwd();
  expect(shownPath(path.join(cwd, 'supabase', 'migrations'))).toBe(path.join('supabase', 'migrations'));
  expect(shownPath(path.join('supabase', 'migrations'))).toBe(path.join('supabase', 'migrations'));
  const outside = path.join(path.parse(cwd).root, 'pf-shown-path-elsewhere', 'migrations');
  expect(shownPath(outside)).toBe(outside);
  const up = path.join('..', 'sibling', 'migrations');
  expect(shownPath(up)).toBe(path.resolve(up));
  expect(shownPath(up)).not.toMatch(/^\.\./);
  expect(shownPath(cwd)).toBe(cwd);
});
