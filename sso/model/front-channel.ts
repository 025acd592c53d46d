import type { ClientRegistration } from './schemas.ts';

/**
 * Front-channel helpers shared by model and emulator: which client a `/login` or `/logout`
 * query names, and where the browser is sent.
 */

/** Query as the browser sent it: ordered pairs, duplicates kept. */
export type QueryPairs = readonly (readonly [string, string])[];

/**
 * The client named by exactly one `app` parameter equal, as a string, to a registered App ID.
 * Duplicated, missing, empty or near-miss values name no client.
 */
export function clientForApp(clients: readonly ClientRegistration[], query: QueryPairs): ClientRegistration | null {
  const apps = query.filter(([k]) => k === 'app');
  if (apps.length !== 1) return null;
  const app = apps[0]![1];
  return clients.find((c) => c.appId === app) ?? null;
}

/** The registered Redirect URL with exactly one `code` added (before any fragment). */
export function redirectWithCode(redirectUrl: string, code: string): string {
  const hash = redirectUrl.indexOf('#');
  const base = hash < 0 ? redirectUrl : redirectUrl.slice(0, hash);
  const fragment = hash < 0 ? '' : redirectUrl.slice(hash);
  const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${sep}code=${encodeURIComponent(code)}${fragment}`;
}

/** Parse a URL's query into ordered pairs (the inverse view the emulator and client use). */
export function queryPairsOf(search: string): [string, string][] {
  return [...new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)];
}
