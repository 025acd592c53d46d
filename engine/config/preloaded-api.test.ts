/**
 * A .ts pack in a project without "type": "module" (compiled to CommonJS) gets the very API
 * module the CLI loaded, as an ES module pack does, not a second copy of every module compiled to
 * CommonJS (~1 s of CPU a run; preloaded-api.ts). Through the built modules in a child process, as
 * the binary loads a pack.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { tempDir } from '../../testing/temp-dir.ts';

const dist = (file: string) => JSON.stringify(path.join(PROJECT_ROOT, 'dist', file));

describe('the API a project pack imports', () => {
  it('is the loaded one for a CommonJS .ts pack (same definePack), and the pack loads', async () => {
    const dir = tempDir('preloaded-api');
    writeFileSync(path.join(dir, 'package.json'), '{"name":"app","type":"commonjs"}');
    writeFileSync(
      path.join(dir, 'policyfuzz.pack.ts'),
      "import { definePack, z } from 'policyfuzz';\nexport const definer = definePack;\nexport default definePack({ name: 'cjs', model: { tables: {}, functions: {}, fixtureOrder: [] }, settingsSchema: z.object({}).strict(), properties: [] });\n",
    );
    const script = `
      const { preloadTheApiPacksImport } = await import(${dist('engine/config/preloaded-api.js')});
      const { importModule } = await import(${dist('engine/config/project-module.js')});
      await preloadTheApiPacksImport();
      const api = await import(${dist('api/index.js')});
      const pack = await importModule(${JSON.stringify(path.join(dir, 'policyfuzz.pack.ts'))});
      console.log(JSON.stringify({ name: pack.default.name, same: pack.definer === api.definePack }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({ name: 'cjs', same: true });
  });
});
