/**
 * The emulator's request log for the control API. Secrets never reach it: codes, client secrets,
 * passwords and tokens are replaced by their length.
 */
export interface LogEntry {
  seq: number;
  atMs: number;
  method: string;
  path: string;
  query: string;
  body?: string;
  status?: number;
  notes: string[];
}

const SECRET_KEYS = new Set(['code', 'clientsecret', 'password', 'accesstoken', 'access_token', 'token']);
const MAX_ENTRIES = 1000;

export function mask(value: string): string {
  return `<masked ${value.length} chars>`;
}

export function maskedQuery(search: string): string {
  const params = new URLSearchParams(search);
  const out: string[] = [];
  for (const [k, v] of params) out.push(`${k}=${SECRET_KEYS.has(k.toLowerCase()) ? mask(v) : v}`);
  return out.join('&');
}

export function maskedTokenBody(body: string): string {
  try {
    const v = JSON.parse(body) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const masked = Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, SECRET_KEYS.has(k.toLowerCase()) ? mask(String(x)) : x]),
      );
      return JSON.stringify(masked).slice(0, 500);
    }
  } catch {
    /* not JSON: say only how long it was */
  }
  return `<unparsed body ${body.length} chars>`;
}

export interface LogHandle {
  finish(status: number): void;
  setBody(body: string): void;
  note(n: string): void;
}

export class RequestLog {
  static readonly ignored: LogHandle = { finish: () => {}, setBody: () => {}, note: () => {} };
  private list: LogEntry[] = [];
  private seq = 0;

  start(method: string, path: string, query: string, atMs: number): LogHandle {
    const e: LogEntry = { seq: ++this.seq, atMs, method, path, query, notes: [] };
    this.list.push(e);
    if (this.list.length > MAX_ENTRIES) this.list.shift();
    return {
      finish: (status: number) => void (e.status = status),
      setBody: (body: string) => void (e.body = body),
      note: (n: string) => void e.notes.push(n),
    };
  }
  entries(): LogEntry[] {
    return this.list.map((e) => ({ ...e, notes: [...e.notes] }));
  }
  clear(): void {
    this.list = [];
  }
}
