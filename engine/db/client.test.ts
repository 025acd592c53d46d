/**
 * A server that ends a connection policyfuzz holds open (a fast shutdown's FATAL, as a signal's
 * clean-up stops the local server while the start-up probe is connected) fails what was in flight,
 * never the process: a pg client's 'error' with no listener was an uncaught exception, exit 1 with
 * a stack trace instead of 130 (the rare exit 1 of cli/cache-command's signal test).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { waitUntilReady } from './providers/local-server.ts';

/** A message of the Postgres wire protocol: a type byte, its length, its body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}
const AUTHENTICATION_OK = message('R', Buffer.from([0, 0, 0, 0]));
const READY_FOR_QUERY = message('Z', Buffer.from('I'));
const EMPTY_QUERY = message('I');
const FATAL_ADMIN_SHUTDOWN = message('E', Buffer.from('SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0'));

/**
 * A server stopped as its first session starts: the session is ready, then ended as Postgres's fast
 * shutdown ends it (FATAL 57P01), both in one write, so the client reads the FATAL with no query in
 * flight. Later sessions it serves (an empty answer to each query).
 */
function stoppedAsFirstSessionStarts(): Promise<{ port: number; sessions: () => number; close: () => Promise<void> }> {
  let sessions = 0;
  const server = net.createServer((socket) => {
    const session = ++sessions;
    let startedUp = false;
    socket.on('data', (chunk) => {
      if (!startedUp) {
        startedUp = true;
        if (session === 1) socket.end(Buffer.concat([AUTHENTICATION_OK, READY_FOR_QUERY, FATAL_ADMIN_SHUTDOWN]));
        else socket.write(Buffer.concat([AUTHENTICATION_OK, READY_FOR_QUERY]));
        return;
      }
      if (chunk[0] !== 'Q'.charCodeAt(0)) return socket.end();
      socket.write(Buffer.concat([EMPTY_QUERY, READY_FOR_QUERY]));
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as net.AddressInfo).port, sessions: () => sessions, close: () => new Promise((done) => server.close(() => done())) }),
    ),
  );
}

describe('a connection the server ends while it is open', () => {
  const uncaught: unknown[] = [];
  const record = (e: unknown) => uncaught.push(e);
  beforeEach(() => {
    uncaught.length = 0;
    process.on('uncaughtException', record);
  });
  afterEach(() => {
    process.off('uncaughtException', record);
  });

  it("the local server's start-up probe: a session ended as it starts fails the probe, which is tried again; nothing uncaught", async () => {
    const server = await stoppedAsFirstSessionStarts();
    // Stands for the server process waited on: alive all along.
    const postgres = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      await waitUntilReady(`postgresql://postgres@127.0.0.1:${server.port}/postgres`, postgres, '/dev/null');
      // Its 'end' is emitted on the next ticks: give it the time to surface.
      await new Promise((r) => setTimeout(r, 50));
      expect(server.sessions()).toBe(2);
      expect(uncaught).toEqual([]);
    } finally {
      postgres.kill();
      await server.close();
    }
  });

  it('policyfuzz opens its connections through newClient alone (each has its error listener)', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) return sources(file);
        return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [file] : [];
      });
    const raw = ['engine', 'cli', 'api', 'sso']
      .flatMap((d) => sources(path.join(PROJECT_ROOT, d)))
      .filter((f) => f !== path.join(PROJECT_ROOT, 'engine/db/client.ts') && /new\s+pg\.Client\s*\(|new\s+Client\s*\(/.test(readFileSync(f, 'utf8')));
    expect(raw.map((f) => path.relative(PROJECT_ROOT, f))).toEqual([]);
  });
});
