/**
 * The engine's code digest (a kept catalog's key, catalog-cache.ts) is computed by the build, not
 * at every start: a built engine's is read from the file the build wrote, and that file holds
 * what hashing the built files gives.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { tempDir } from '../../testing/temp-dir.ts';
import { BUILT_ENGINE_DIGEST, codeDigestOf, hashEngineCode } from './catalog-cache.ts';

it('a built engine: the digest its build wrote, not its files hashed again; without one, its files hashed', () => {
  const dir = tempDir('engine-digest');
  mkdirSync(path.join(dir, 'db'));
  writeFileSync(path.join(dir, 'db', 'reader.js'), 'export const read = 1;\n');
  const hashed = hashEngineCode(dir);
  expect(codeDigestOf(dir)).toBe(hashed);
  writeFileSync(path.join(dir, BUILT_ENGINE_DIGEST), 'built0123456789\n');
  expect(codeDigestOf(dir)).toBe('built0123456789');
  // The digest file is no code of the engine's: writing it changes no hash.
  expect(hashEngineCode(dir)).toBe(hashed);
});

it("the build's digest is the built engine's files hashed (dist/, which `npm test` builds first)", () => {
  const engine = path.join(PROJECT_ROOT, 'dist', 'engine');
  expect(readFileSync(path.join(engine, BUILT_ENGINE_DIGEST), 'utf8').trim()).toBe(hashEngineCode(engine));
});
