import { describe, it, expect, afterAll } from 'vitest';
import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PacedHttp, TransportError } from './http.ts';
import { runFcProperty } from '../properties/kit.ts';

/**
 * A server that answers the first request of each connection and then silently drops the
 * connection on the next one: a keep-alive socket gone stale while the checker paused.
 */
async function staleKeepAliveServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const socket = req.socket as typeof req.socket & { served?: boolean };
    req.resume();
    if (socket.served) return socket.destroy();
    socket.served = true;
    res.writeHead(200, { 'content-type': 'text/plain', connection: 'keep-alive' }).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => (s.close(), s.closeAllConnections())));

describe('PacedHttp on a stale keep-alive connection', () => {
  it('retries an idempotent request once on a fresh connection', async () => {
    const { url, server } = await staleKeepAliveServer();
    servers.push(server);
    const http = new PacedHttp();
    let connections = 0;
    server.on('connection', () => connections++);
    expect((await http.send({ method: 'GET', url })).text).toBe('ok');
    expect((await http.send({ method: 'GET', url })).text).toBe('ok');
    expect(connections).toBe(2); // the second GET met the dropped socket and went again on a new one
  });

  it('reports a POST that lost its connection as a transport error, which a property run never shrinks as a finding', async () => {
    const { url, server } = await staleKeepAliveServer();
    servers.push(server);
    const http = new PacedHttp();
    await http.send({ method: 'POST', url, body: 'a' });
    await expect(http.send({ method: 'POST', url, body: 'b' })).rejects.toBeInstanceOf(TransportError);
    let calls = 0;
    const result = await runFcProperty({ id: 'T', title: 't' }, { seed: 1, numRuns: 20 }, fc.integer(), async () => {
      calls++;
      await http.send({ method: 'POST', url, body: 'c' });
    });
    expect(result.status).toBe('error');
    expect(result.failure).toBeUndefined();
    expect(result.note).toMatch(/transport error on POST \/: .*an environment problem, not a finding/);
    expect(calls).toBeLessThanOrEqual(2); // stopped, not shrunk
  });
});
