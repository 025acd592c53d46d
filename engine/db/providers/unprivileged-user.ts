/**
 * Postgres refuses to run as root. When policyfuzz runs as root (CI containers often do), the
 * server runs as an existing unprivileged account instead: `postgres` if the system has one,
 * else `nobody`.
 */
import { readFileSync } from 'node:fs';

export interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

export function unprivilegedUserIfRoot(): RunAs | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const line = passwd.find((l) => l.startsWith(`${name}:`));
    if (!line) continue;
    const [, , uid, gid] = line.split(':');
    return { name, uid: Number(uid), gid: Number(gid) };
  }
  throw new Error('running as root and neither a "postgres" nor a "nobody" account exists to run Postgres as');
}
