import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * PostgreSQL refuses to run as root, so as root (containers) the embedded server runs as the OS user `postgres`
 * (README "Operations"). That user must reach the binaries (under node_modules) and the data directory; a checkout
 * under root's home or a `mktemp -d` folder (mode 700) hides both. Rather than chmod the user's own folders, what
 * it cannot reach is kept under sharedDir(): a copy of the binaries (once per version) and the cluster, which
 * DATA_DIR/postgres then links to.
 */
export const SHARED_DIR = '/var/lib/ltk-embedded-postgres';

/** SHARED_DIR, or the folder EMBEDDED_POSTGRES_SHARED_DIR names (the tests keep it under their own temporary root). */
export const sharedDir = (): string => process.env.EMBEDDED_POSTGRES_SHARED_DIR || SHARED_DIR;

export interface OsUser {
  uid: number;
  gid: number;
}

/** The `postgres` OS user when running as root (created if missing, as the server needs one); otherwise none. */
export function serverUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const exists = (database: 'group' | 'passwd') =>
    spawnSync('getent', [database, 'postgres'], { stdio: 'ignore' }).status === 0;
  if (!exists('passwd')) {
    create('groupadd', ['--system', 'postgres'], () => exists('group'));
    create(
      'useradd',
      ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'],
      () => exists('passwd'),
    );
  }
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Runs groupadd or useradd unless what it makes exists. Another process starting at the same time (serve beside
 * worker, each on its own DATA_DIR or not) may make it first: its failure is then no failure. Any other failure
 * (the tool missing, a read-only /etc) is told in one line with what to do.
 */
function create(tool: string, args: string[], exists: () => boolean): void {
  if (exists()) return;
  const result = spawnSync(tool, args, { encoding: 'utf8' });
  if (result.status === 0 || exists()) return;
  const why = result.error?.message ?? (result.stderr.trim().split('\n')[0] || `exit code ${result.status}`);
  throw new Error(
    `as root the embedded PostgreSQL runs as the OS user postgres, which could not be created (${tool}: ${why}): ` +
      'create that user, run as another user, or set DATABASE_URL',
  );
}

/** Whether `user` can reach `path` (every parent traversable; a directory itself searchable, a file executable). */
export function canReach(user: OsUser | undefined, path: string): boolean {
  return !user || spawnSync('test', ['-x', path], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

/** The folder holding bin/, lib/ and share/: the package's own, or a copy under `shared` when the user cannot reach it. */
export function reachableNativeDir(nativeDir: string, user: OsUser | undefined, shared = sharedDir()): string {
  if (canReach(user, join(nativeDir, 'bin', 'postgres'))) return nativeDir;
  const version = (JSON.parse(readFileSync(join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string })
    .version;
  const copy = join(shared, `native-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    mkdirSync(shared, { recursive: true, mode: 0o755 });
    const partial = `${copy}.${process.pid}.partial`;
    // Symlinks kept as they are (lib/ holds relative ones); renamed into place whole, so a concurrent start
    // never runs a half copy.
    cpSync(nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(partial, copy);
    } catch {
      rmSync(partial, { recursive: true, force: true });
    }
  }
  if (!canReach(user, join(copy, 'bin', 'postgres'))) throw unreachable(copy);
  return copy;
}

/**
 * Where the cluster of DATA_DIR lives: DATA_DIR/postgres, or, when the user cannot enter DATA_DIR, a folder under
 * `shared` that DATA_DIR/postgres links to. `beforeReset` runs on a folder about to be emptied (its DATA_DIR was
 * deleted and made again: the files it stored are gone, so its database starts afresh too).
 */
export async function reachableClusterDir(
  dataDir: string,
  user: OsUser | undefined,
  beforeReset: (dir: string) => Promise<void>,
  shared = sharedDir(),
): Promise<string> {
  const link = join(dataDir, 'postgres');
  const stat = lstatSync(link, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) return readlinkSync(link);
  if (canReach(user, dataDir)) return link;
  if (stat) throw unreachable(dataDir);
  const target = join(shared, 'data', createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 16));
  if (existsSync(target)) {
    await beforeReset(target);
    rmSync(target, { recursive: true, force: true });
  }
  mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
  symlinkSync(target, link);
  return target;
}

const unreachable = (path: string) =>
  new Error(
    `the OS user postgres, which runs the embedded PostgreSQL as root, cannot reach ${path}: ` +
      'make its parent folders traversable (chmod o+x), set DATA_DIR elsewhere, or set DATABASE_URL',
  );
