/** One interface over the three ways policyfuzz finds a Postgres server. */
export interface DatabaseServer {
  kind: 'explicit' | 'testcontainers' | 'local';
  description: string;
  /** A superuser (or database owner) connection string; scratch databases are created from it. */
  adminUrl: string;
  /** True when policyfuzz started the server and may do cluster-wide set-up freely. */
  ownsServer: boolean;
  stop(): Promise<void>;
}
