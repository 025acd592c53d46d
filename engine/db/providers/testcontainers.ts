/**
 * Postgres in a container, used only when a container engine answers. The check is cheap
 * (environment and socket first, then a ping with a short timeout) and testcontainers is
 * imported lazily, so machines without an engine pay nothing.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { EnvironmentError } from '../../errors.ts';
import type { DatabaseServer } from './server.ts';

export const POSTGRES_IMAGE = 'postgres:17-alpine';
const PING_TIMEOUT_MS = 500;

export type EngineProbe = { available: true; via: string } | { available: false; reason: string };

/** Where a Docker-compatible engine would listen, in the order testcontainers itself looks. */
export function candidateEngineSockets(env: NodeJS.ProcessEnv = process.env): string[] {
  const sockets: string[] = [];
  const dockerHost = env.DOCKER_HOST;
  if (dockerHost?.startsWith('unix://')) sockets.push(dockerHost.slice('unix://'.length));
  sockets.push('/var/run/docker.sock', path.join(os.homedir(), '.docker/run/docker.sock'));
  if (env.XDG_RUNTIME_DIR) sockets.push(path.join(env.XDG_RUNTIME_DIR, 'podman/podman.sock'), path.join(env.XDG_RUNTIME_DIR, 'docker.sock'));
  return sockets;
}

function ping(options: http.RequestOptions): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ ...options, path: '/_ping', timeout: PING_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

export async function probeContainerEngine(env: NodeJS.ProcessEnv = process.env): Promise<EngineProbe> {
  const dockerHost = env.DOCKER_HOST;
  if (dockerHost?.startsWith('tcp://')) {
    const u = new URL(dockerHost.replace('tcp://', 'http://'));
    return (await ping({ host: u.hostname, port: Number(u.port) || 2375 }))
      ? { available: true, via: dockerHost }
      : { available: false, reason: `DOCKER_HOST=${dockerHost} does not answer a ping` };
  }
  const present = candidateEngineSockets(env).filter((s) => existsSync(s));
  if (present.length === 0) return { available: false, reason: 'no container engine socket found (looked for DOCKER_HOST, /var/run/docker.sock, ~/.docker/run/docker.sock, podman)' };
  for (const socketPath of present) {
    if (await ping({ socketPath })) return { available: true, via: socketPath };
  }
  return { available: false, reason: `container engine socket ${present.join(', ')} exists but does not answer a ping within ${PING_TIMEOUT_MS} ms` };
}

export async function startContainerServer(): Promise<DatabaseServer> {
  const probe = await probeContainerEngine();
  if (!probe.available) throw new EnvironmentError(`testcontainers cannot run: ${probe.reason}`);
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer(POSTGRES_IMAGE)
    .withUsername('postgres')
    .withPassword('postgres')
    .withCommand(['postgres', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'])
    .start();
  return {
    kind: 'testcontainers',
    description: `container ${POSTGRES_IMAGE} via ${probe.via}`,
    adminUrl: container.getConnectionUri(),
    ownsServer: true,
    async stop() {
      await container.stop();
    },
  };
}
