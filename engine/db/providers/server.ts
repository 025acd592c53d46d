import type { TemplateKey } from '../template-cache.ts';

/** One interface over the three ways policyfuzz finds a Postgres server. */
export interface DatabaseServer {
  kind: 'explicit' | 'testcontainers' | 'local';
  description: string;
  /** A superuser (or database owner) connection string; scratch databases are created from it. */
  adminUrl: string;
  /** True when policyfuzz started the server and may do cluster-wide set-up freely. */
  ownsServer: boolean;
  stop(): Promise<void>;
  /**
   * Keeps the server's state, now holding `key`'s kept template and no other, for the next start
   * (a local server started for one run; template-cache.ts).
   */
  keepTemplate?(key: TemplateKey): Promise<void>;
  /** Told once the run's workers are ready: work for later runs starts then, not while the run starts (the local server's spare copy). */
  ready?(): void;
}
