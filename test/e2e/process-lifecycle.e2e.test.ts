import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canReach, reachableNativeDir, serverUser, sharedDir } from '../../src/db/embedded-postgres-root';
import { REPO_ROOT, SANDBOX_WORKER_SCRIPT } from '../../src/db/paths';
import { assertBuilt, cleanEnv, MAIN, startProcess, type RunningProcess } from '../helpers/service-process';

/** Operations (README "Operations"): signals, orphans of killed runs, root, and builds beside a running service. */
beforeAll(assertBuilt);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').match(/\) Z /);
  } catch {
    return false;
  }
};
const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true))).once('error', () => resolve(false));
  });
/** The embedded server of a DATA_DIR: its postmaster's pid and port. */
const postmaster = (dataDir: string) => {
  const [pid, , , port] = readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
    .split('\n')
    .map(Number);
  return { pid, port };
};
const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};
/** The processes recorded as using a DATA_DIR's embedded server. */
const holders = (dataDir: string) => readdirSync(join(dataDir, 'postgres.holders')).map(Number);
const until = async (condition: () => boolean, timeoutMs = 10_000) => {
  for (const deadline = Date.now() + timeoutMs; !condition() && Date.now() < deadline;)
    await new Promise((r) => setTimeout(r, 50));
  return condition();
};

describe('npm start stops on SIGTERM or SIGINT sent to npm (what a supervisor signals)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ltk-npm-'));

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: node and the embedded PostgreSQL are gone, their ports free',
    async (signal) => {
      const npm = spawn('npm', ['start'], {
        cwd: REPO_ROOT,
        env: cleanEnv({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      npm.stdout.on('data', (chunk) => (output += chunk));
      npm.stderr.on('data', (chunk) => (output += chunk));
      const exited = new Promise((resolve) => npm.once('exit', resolve));
      expect(await until(() => /listening on port/.test(output), 40_000)).toBe(true);
      const port = Number(output.match(/"port":(\d+)/)![1]);
      const [node] = holders(dataDir);
      const server = postmaster(dataDir);
      expect([alive(node), alive(server.pid), await portOpen(server.port)]).toEqual([true, true, true]);

      npm.kill(signal);
      await exited;
      expect(await until(() => !alive(node) && !alive(server.pid))).toBe(true);
      expect([await portOpen(port), await portOpen(server.port)]).toEqual([false, false]);
      expect(output).toContain('"msg":"stopped"');
      expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    },
    60_000,
  );
});

describe('an embedded PostgreSQL orphaned by a SIGKILL', () => {
  it('is detected at the next start and stopped, and a server of this run takes its place', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ltk-orphan-'));
    const env = cleanEnv({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
    let service: RunningProcess = startProcess(MAIN, [], env);
    try {
      await service.waitFor(/listening on port/, 40_000);
      const orphan = postmaster(dataDir);
      service.child.kill('SIGKILL');
      await service.exited;
      expect(alive(orphan.pid)).toBe(true);

      service = startProcess(MAIN, [], env);
      const notice = JSON.parse(await service.waitFor(/left running by a killed process/, 40_000));
      expect(notice).toMatchObject({ pid: orphan.pid, port: orphan.port });
      await service.waitFor(/listening on port/, 40_000);
      expect(alive(orphan.pid)).toBe(false);
      expect(postmaster(dataDir).pid).not.toBe(orphan.pid);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    }
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 90_000);
});

describe('two processes on one DATA_DIR (serve beside worker, the CLI beside the service)', () => {
  it('start together on one server, which outlives the process that started it and stops with the last one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ltk-shared-data-'));
    const env = cleanEnv({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' });
    const services = [startProcess(MAIN, ['--role', 'serve'], env), startProcess(MAIN, ['--role', 'serve'], env)];
    try {
      const ports = await Promise.all(
        services.map(async (service) =>
          Number((await service.waitFor(/listening on port/, 40_000)).match(/"port":(\d+)/)![1]),
        ),
      );
      const server = postmaster(dataDir);
      expect(holders(dataDir).sort()).toEqual(services.map((service) => service.child.pid).sort());

      // Whichever of the two started the server stops first: the other keeps its database.
      const starter = services.find((service) => service.child.pid === parentOf(server.pid));
      if (!starter) throw new Error('neither process started the server');
      const other = services[1 - services.indexOf(starter)];
      starter.child.kill('SIGTERM');
      expect(await starter.exited).toBe(0);
      expect(alive(server.pid)).toBe(true);
      const ready = await fetch(`http://127.0.0.1:${ports[services.indexOf(other)]}/readyz`);
      expect(ready.status).toBe(200);
      expect(holders(dataDir)).toEqual([other.child.pid]);

      other.child.kill('SIGTERM');
      expect(await other.exited).toBe(0);
      expect(await until(() => !alive(server.pid))).toBe(true);
      expect(holders(dataDir)).toEqual([]);
    } finally {
      for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
    }
  }, 90_000);
});

const asRoot = process.getuid?.() === 0 ? describe : describe.skip;
asRoot('as root, a DATA_DIR or checkout the postgres OS user cannot enter (mode 700, like mktemp -d)', () => {
  it('starts: the cluster lives under the shared folder, linked from DATA_DIR/postgres', async () => {
    const hidden = mkdtempSync(join(tmpdir(), 'ltk-private-'));
    expect(statSync(hidden).mode & 0o777).toBe(0o700);
    const dataDir = join(hidden, 'data');
    const service = startProcess(MAIN, [], cleanEnv({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' }));
    let cluster = '';
    try {
      await service.waitFor(/listening on port/, 40_000);
      cluster = readlinkSync(join(dataDir, 'postgres'));
      expect(cluster.startsWith(sharedDir())).toBe(true);
      expect(JSON.parse(await service.waitFor(/data kept outside DATA_DIR/))).toMatchObject({ dir: cluster });
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGTERM');
      expect([await service.exited, service.stderr]).toEqual([0, []]);
      if (cluster) rmSync(cluster, { recursive: true, force: true });
    }
  }, 60_000);

  it('runs the binaries from a copy the postgres user can reach', () => {
    const hidden = mkdtempSync(join(tmpdir(), 'ltk-checkout-'));
    const native = join(hidden, 'pkg', 'native');
    mkdirSync(join(native, 'bin'), { recursive: true });
    writeFileSync(join(hidden, 'pkg', 'package.json'), '{"version":"0.0.0-test"}');
    writeFileSync(join(native, 'bin', 'postgres'), '#!/bin/sh\necho ok\n');
    chmodSync(join(native, 'bin', 'postgres'), 0o755);
    const user = serverUser()!;
    const shared = mkdtempSync(join(tmpdir(), 'ltk-shared-'));
    chmodSync(shared, 0o755);

    expect(canReach(user, join(native, 'bin', 'postgres'))).toBe(false);
    const copy = reachableNativeDir(native, user, shared);
    expect(copy).toBe(join(shared, 'native-0.0.0-test'));
    expect(spawnSync(join(copy, 'bin', 'postgres'), { uid: user.uid, gid: user.gid, encoding: 'utf8' }).stdout).toBe(
      'ok\n',
    );
  });
});

describe('a build beside a running service (npm run cli, npm start again)', () => {
  it('rewrites nothing on an unchanged tree', () => {
    const worker = SANDBOX_WORKER_SCRIPT;
    const before = statSync(worker).mtimeMs;
    expect(spawnSync(process.execPath, [join(REPO_ROOT, 'build.js')], { encoding: 'utf8' }).status).toBe(0);
    expect(statSync(worker).mtimeMs).toBe(before);
  });
});
