/**
 * Finds a Postgres server, in this order: an explicit connection string; testcontainers when a
 * container engine answers; otherwise a throwaway local server started from shipped binaries.
 * Whatever starts is registered for shutdown on exit and on signals.
 */
import { onShutdown } from '../cleanup.ts';
import { connectExplicitServer } from './explicit.ts';
import { startLocalServer } from './local-server.ts';
import type { DatabaseServer } from './server.ts';
import type { TemplateKey } from '../template-cache.ts';
import { probeContainerEngine, startContainerServer } from './testcontainers.ts';

export type { DatabaseServer } from './server.ts';

export interface ServerChoice {
  databaseUrl?: string;
  /** Force one provider (tests and `--provider`); default: the order above. */
  provider?: 'explicit' | 'testcontainers' | 'local';
  log?: (line: string) => void;
  /** The template the run will build: a local server started for it starts from a kept one (template-cache.ts). */
  template?: TemplateKey;
}

export async function startDatabaseServer(choice: ServerChoice = {}): Promise<DatabaseServer> {
  const log = choice.log ?? (() => {});
  const url = choice.databaseUrl ?? (choice.provider ? undefined : process.env.DATABASE_URL);
  let server: DatabaseServer;
  if (url || choice.provider === 'explicit') {
    server = await connectExplicitServer(url ?? '');
  } else if (choice.provider === 'testcontainers') {
    server = await startContainerServer();
  } else if (choice.provider === 'local') {
    server = await startLocalServer({ template: choice.template });
  } else {
    const probe = await probeContainerEngine();
    if (probe.available) {
      server = await startContainerServer();
    } else {
      log(`no container engine (${probe.reason}); starting a local Postgres`);
      server = await startLocalServer({ template: choice.template });
    }
  }
  const unregister = onShutdown(() => server.stop());
  const stop = server.stop.bind(server);
  server.stop = async () => {
    unregister();
    await stop();
  };
  log(`database: ${server.description}`);
  return server;
}
