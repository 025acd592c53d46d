/**
 * The built pack reads its faker pools from dist/…/faker-pools.json (written by the build) instead
 * of filling them: those pools must be the very ones faker fills, or the same seed would draw other
 * cases from the binary than from source. Read from dist/, which `npm test` builds first.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../cli/paths.ts';

const built = (module: string) => pathToFileURL(path.join(PROJECT_ROOT, 'dist', 'packs', 'reference', module)).href;

it('every pool the build kept is the pool faker fills for its label and make', async () => {
  // Every module declaring a pool, loaded as the binary loads them.
  await import(built('properties.js'));
  const { keptPoolsNotAsFilled } = (await import(built('generators/faker.js'))) as typeof import('./faker.ts');
  const { checked, differing } = keptPoolsNotAsFilled();
  expect(checked).toBeGreaterThanOrEqual(15);
  expect(differing).toEqual([]);
});
