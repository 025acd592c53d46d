/**
 * `policyfuzz cache clear`: removes what policyfuzz keeps between runs (template-cache.ts): the
 * local servers' caches (kept templates, pristine clusters, binaries copied for another account)
 * and, with --database-url, the kept template databases on that server. Says what it removed.
 */
import { dropKeptTemplates } from '../engine/db/databases.ts';
import { connectExplicitServer, redact } from '../engine/db/providers/explicit.ts';
import { clearLocalCache, LOCAL_CACHE_ROOT } from '../engine/db/providers/local-server.ts';

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `policyfuzz cache clear` (cli/commands/cache.ts defines its options): says what it removed. */
export async function clearCache(opts: { databaseUrl?: string }): Promise<number> {
    const local = clearLocalCache();
    for (const entry of local.removed) console.log(`removed ${entry.path} (${megabytes(entry.bytes)})`);
    for (const entry of local.left) console.log(`left ${entry.path}: in use by a running policyfuzz (pid ${entry.pid}); run \`policyfuzz cache clear\` again once it ends`);
    if (!local.removed.length && !local.left.length) console.log(`no local cache in ${LOCAL_CACHE_ROOT}`);
    if (opts.databaseUrl !== undefined) {
      const server = await connectExplicitServer(opts.databaseUrl);
      const where = redact(new URL(server.adminUrl));
      const { dropped, inUse } = await dropKeptTemplates(server.adminUrl);
      for (const name of dropped) console.log(`dropped database ${name} on ${where}`);
      for (const name of inUse) console.log(`left database ${name} on ${where}: in use by a run`);
      if (!dropped.length && !inUse.length) console.log(`no kept templates on ${where}`);
    }
    return 0;
}
