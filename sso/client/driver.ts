import type { QueryPairs } from '../model/front-channel.ts';

/**
 * A login driver plays the browser on the front channel (`/login`, `/logout`). Each named
 * browser keeps its own cookies. The answer is what the browser saw first from the service:
 * a redirect (status, Location) or a page (status).
 */
export type FrontObservation =
  | { kind: 'redirect'; status: number; location: string; headers: Record<string, string> }
  | { kind: 'page'; status: number; headers: Record<string, string>; text?: string };

export interface LoginDriver {
  readonly name: string;
  /** Open `/login?query`; with credentials, submit them on the login form. */
  login(browser: string, query: QueryPairs, credentials?: { username: string; password: string }): Promise<FrontObservation>;
  logout(browser: string, query: QueryPairs): Promise<FrontObservation>;
  /** The cookies a browser holds now (session-fixation checks); absent when a driver cannot tell. */
  cookiesOf?(browser: string): [string, string][];
  /** Give a browser exactly these cookies (an attacker planting a cookie it obtained earlier). */
  plantCookies?(browser: string, cookies: [string, string][]): void;
  /**
   * Post credentials to the login form from another site: no cookies, no hidden fields (a
   * cross-site page cannot read them), `Origin` and `Referer` of `attackerOrigin`.
   */
  crossSitePost?(query: QueryPairs, credentials: { username: string; password: string }, attackerOrigin: string): Promise<FrontObservation>;
  close(): Promise<void>;
}

export function queryString(query: QueryPairs): string {
  return new URLSearchParams(query.map(([k, v]) => [k, v] as [string, string])).toString();
}
