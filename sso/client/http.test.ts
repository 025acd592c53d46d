import { describe, it, expect } from 'vitest';
import { createServer, type Socket } from 'node:net';
import { PacedHttp, TransportError } from './http.ts';

/**
 * A server that answers the first request on each connection with keep-alive, then drops the
 * connection without answering when the client reuses it: what a checker sees after a pause
 * longer than the server's keep-alive timeout.
 */
async function droppingServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    let answered = false;
    socket.on('data', () => {
      if (answered) return void socket.destroy();
      answered = true;
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}

describe('PacedHttp transport', () => {
  it('retries once on a fresh connection when a kept-alive socket was dropped', async () => {
    const server = await droppingServer();
    try {
      const http = new PacedHttp();
      for (const method of ['GET', 'POST']) {
        const first = await http.send({ method, url: `${server.url}/a`, body: method === 'POST' ? '{}' : undefined });
        const second = await http.send({ method, url: `${server.url}/b`, body: method === 'POST' ? '{}' : undefined });
        expect([first.status, second.status, first.text, second.text]).toEqual([200, 200, 'ok', 'ok']);
      }
      expect(server.connections()).toBeGreaterThanOrEqual(3);
    } finally {
      await server.close();
    }
  });

  it('reports a target that never answers as a TransportError naming the URL, not as a reply', async () => {
    const http = new PacedHttp({ timeoutMs: 2000 });
    await expect(http.send({ method: 'GET', url: 'http://127.0.0.1:1/api/auth.status' })).rejects.toThrow(TransportError);
    await expect(http.send({ method: 'POST', url: 'http://127.0.0.1:1/api/auth.token', body: '' })).rejects.toThrow(/POST http:\/\/127\.0\.0\.1:1\/api\/auth\.token: connection refused \(ECONNREFUSED\)/);
  });
});
