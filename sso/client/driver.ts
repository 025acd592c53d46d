import type { QueryPairs } from '../model/front-channel.ts';

/**
 * A login driver plays the browser on the front channel (`/login`, `/logout`). Each named
 * browser keeps its own cookies. The answer is what the browser saw first from the service:
 * a redirect (status, Location) or a page (status).
 */
export type FrontObservation =
  | { kind: 'redirect'; status: number; location: string; headers: Record<string, string> }
  | { kind: 'page'; status: number; headers: Record<string, string>; /** The HTML, when the driver has it (for messages). */ body?: string };

export interface LoginDriver {
  readonly name: string;
  /** Open `/login?query`; with credentials, submit them on the login form. */
  login(browser: string, query: QueryPairs, credentials?: { username: string; password: string }): Promise<FrontObservation>;
  /** Open `/logout?query`; `referer` is sent as the page the browser came from. */
  logout(browser: string, query: QueryPairs, options?: { referer?: string }): Promise<FrontObservation>;
  /** The cookies the service has set in `browser`, name and value (to look for them where they must not be). */
  cookiesOf?(browser: string): ReadonlyMap<string, string>;
  /** A case ended: its browsers are not used again, so their cookie jars (browser contexts) can go. */
  endCase?(): Promise<void>;
  close(): Promise<void>;
}

export function queryString(query: QueryPairs): string {
  return new URLSearchParams(query.map(([k, v]) => [k, v] as [string, string])).toString();
}
