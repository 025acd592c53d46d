import { z } from 'zod';
import type { EmulatorContext } from './context.ts';
import { API_PREFIX, jsonReply, reply, type EmulatorRequest, type Middleware, type Reply } from './http.ts';
import type { RequestLog } from './request-log.ts';

/**
 * The control API under `{apiUrl}/__control/`: the tester talking to the emulator (health, clock,
 * reset, request log) and the failures a relying-party test queues for the next requests.
 */

const InjectionSchema = z.strictObject({
  endpoint: z.enum(['login', 'logout', 'auth.token', 'user.profile', 'auth.status']),
  kind: z.enum(['slow', 'malformed', 'status']),
  delayMs: z.number().int().min(0).max(30_000).default(2000),
  status: z.number().int().min(100).max(599).default(503),
  times: z.number().int().min(1).max(1000).default(1),
});
type Injection = z.infer<typeof InjectionSchema>;
/** Built once: zod builds and compiles a schema on its first parse, a cost each clock call paid again (a third of the SSO half's control time). */
const ClockSchema = z.strictObject({ advanceMs: z.number().int().min(0) });

/** Queued failures; as middleware they come before everything else on their endpoint. */
export class Injections {
  private queue: Injection[] = [];

  get length(): number {
    return this.queue.length;
  }
  push(i: Injection): void {
    this.queue.push(i);
  }
  clear(): void {
    this.queue = [];
  }

  readonly middleware: Middleware = async (req, next) => {
    const injected = this.take(req.endpoint);
    if (injected?.kind === 'slow') await new Promise((r) => setTimeout(r, injected.delayMs));
    else if (injected?.kind === 'malformed') return reply(200, { 'Content-Type': 'application/json' }, '{"ok":tru');
    else if (injected) return reply(injected.status, { 'Content-Type': 'text/plain' }, `injected status ${injected.status}`);
    return next(req);
  };

  private take(endpoint: string): Injection | null {
    const i = this.queue.find((x) => x.endpoint === endpoint);
    if (!i) return null;
    i.times -= 1;
    if (i.times <= 0) this.queue = this.queue.filter((x) => x !== i);
    return i;
  }
}

export async function controlRoute(ctx: EmulatorContext, req: EmulatorRequest, log: RequestLog, injections: Injections): Promise<Reply> {
  const op = req.url.pathname.slice(`${API_PREFIX}/__control/`.length);
  const { method } = req;
  const raw = (await req.readBody(64 * 1024)) ?? '';
  const json = (): unknown => (raw.trim() === '' ? {} : JSON.parse(raw));
  const { store } = ctx;
  try {
    if (op === 'health' && method === 'GET') return jsonReply(200, { ok: true, emulator: 'policyfuzz-sso', nowMs: store.now(), settings: ctx.config.settings });
    if (op === 'clock' && method === 'POST') {
      const { advanceMs } = ClockSchema.parse(json());
      store.advanceClock(advanceMs);
      return jsonReply(200, { ok: true, nowMs: store.now() });
    }
    if (op === 'reset' && method === 'POST') {
      store.reset();
      log.clear();
      injections.clear();
      return jsonReply(200, { ok: true });
    }
    if (op === 'inject' && method === 'POST') {
      injections.push(InjectionSchema.parse(json()));
      return jsonReply(200, { ok: true, queued: injections.length });
    }
    if (op === 'log' && method === 'GET') return jsonReply(200, { ok: true, entries: log.entries() });
    return jsonReply(404, { ok: false, error: `unknown control operation ${method} ${op}` });
  } catch (e) {
    const message = e instanceof z.ZodError ? e.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ') : String(e);
    return jsonReply(400, { ok: false, error: message });
  }
}
