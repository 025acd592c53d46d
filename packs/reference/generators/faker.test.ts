/**
 * The built pack reads its faker pools from dist/…/faker-pools.json (written by the build) instead
 * of filling them: those pools must be the very ones faker fills, or the same seed would draw other
 * cases from the binary than from source. Read from dist/, which `npm test` builds first.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

it('a kept-pools file another filling wrote (another pool size or faker) is not read: the pools are filled afresh', async () => {
  // The built module copied beside a file of its own, in the repo (its imports resolve from here).
  const dir = mkdtempSync(path.join(PROJECT_ROOT, '.scratch-faker-'));
  try {
    copyFileSync(path.join(PROJECT_ROOT, 'dist', 'packs', 'reference', 'generators', 'faker.js'), path.join(dir, 'faker.js'));
    const make = (f: { person: { firstName(): string } }) => f.person.firstName();
    const key = `stale:${createHash('sha256').update(String(make)).digest('hex').slice(0, 12)}`;
    const loadWith = async (filling: string) => {
      writeFileSync(path.join(dir, 'faker-pools.json'), JSON.stringify({ filling, pools: { [key]: Array(512).fill('KEPT') } }));
      const m = (await import(`${pathToFileURL(path.join(dir, 'faker.js')).href}?${filling}`)) as typeof import('./faker.ts');
      m.fakerValue(make as never, 'stale');
      return m.keptPoolsNotAsFilled();
    };
    const version = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'node_modules', '@faker-js', 'faker', 'package.json'), 'utf8')) as { version: string }).version;
    // Its own filling: the kept pool is read (and differs from faker's fill, as written here).
    expect(await loadWith(`pool 512, faker ${version}`)).toEqual({ checked: 1, differing: [key] });
    // Another pool size or faker: not read.
    expect(await loadWith(`pool 1024, faker ${version}`)).toEqual({ checked: 0, differing: [] });
    expect(await loadWith('pool 512, faker 0.0.1')).toEqual({ checked: 0, differing: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
