import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../src/db/paths';

/** A real service process on an embedded PostgreSQL, and an API key made the README's way (CLI, then staff GraphQL). */
export async function startService(dataDir: string, extraEnv: Record<string, string> = {}) {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...extraEnv,
  };
  const main = join(REPO_ROOT, 'dist', 'src', 'main.js');
  // With `npm start`'s V8 flags: the young generation's size decides how long dropped buffers wait for a collection.
  const service = spawn(process.execPath, ['--max-semi-space-size=32', main], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    service.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const listening = /"port":(\d+)[^\n]*listening on port/.exec(seen);
      if (listening) resolve(Number(listening[1]));
    });
    service.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening: ${seen}`)));
  });
  service.stdout.resume();
  try {
    const base = `http://127.0.0.1:${port}`;
    // Another account's key, for a run that needs two (bench:analysis's fairness).
    const newKey = () => accountKey(base, env);
    return { service, base, key: await newKey(), newKey };
  } catch (error) {
    service.kill('SIGTERM'); // nothing else would stop it
    throw error;
  }
}

/** An approved account's key; names of their own, so that several services can share one DATABASE_URL. */
async function accountKey(base: string, env: NodeJS.ProcessEnv): Promise<string> {
  const unique = randomUUID();
  // Not spawnSync: a blocked event loop would not hear the service close an idle keep-alive connection meanwhile (its
  // timeout is shorter than the CLI's start on a busy machine), and the next request on it would fail.
  const cli = await promisify(execFile)(
    process.execPath,
    [
      join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'),
      'staff:create',
      '--email',
      `bench-${unique}@example.test`,
      '--name',
      'Bench',
      '--role',
      'admin',
    ],
    { env, encoding: 'utf8' },
  );
  const staff = cli.stdout.trim();
  const gql = async (query: string) => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await res.json()) as {
      data: Record<string, { id: string; items: { text: string }[] }>;
      errors?: unknown;
    };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const { createAccount } = await gql(
    `mutation { createAccount(name: "Bench LLP", email: "firm-${unique}@example.test") { id } }`,
  );
  await gql(`mutation { approveAccount(id: "${createAccount.id}") { id } }`);
  const { sentEmails } = await gql(`{ sentEmails(to: "firm-${unique}@example.test") { items { text } } }`);
  return /ltk_test_[A-Za-z0-9]{40}/.exec(sentEmails.items[0].text)![0];
}

export type Service = Awaited<ReturnType<typeof startService>>;
