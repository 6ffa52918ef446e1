// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the build compiles bench/ without test/, where s3rver's declarations are
/// <reference path="../test/types/s3rver.d.ts" />
/**
 * Upload memory benchmark (a script that measures and prints; not a test).
 *
 *   npm run bench:upload
 *
 * Through a real service process (`npm start`'s, embedded PostgreSQL in a temporary DATA_DIR unless DATABASE_URL
 * names an empty database), on local disk and then on S3 (s3rver on loopback, in this process): how much a 20 MB upload grows the service's own resident memory (its analysis child
 * aside) from before the upload until it is answered, on each door (REST multipart and GraphQL multipart), and
 * how long it takes. Target: at most 30 MiB of growth, so that uploads stream to storage instead of being held.
 * The first large upload of a process costs the most (the allocator grows once for the chunks read before the
 * garbage collector runs; later uploads reuse that memory), so each door gets a fresh service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { mib, residentBytes, samplePeakMemory } from './process-memory';
import { startService, type Service } from './service';

const UPLOAD_BYTES = 20 * 1024 * 1024;
const TARGET_BYTES = 30 * 1024 * 1024;
const RUNS = 3;

/** A PDF as far as format detection goes (its header), random bytes after it: stored, then found uncountable. */
const document = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(bytes - 9)]);

async function restUpload({ base, key }: Service, content: Buffer): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([content]), 'large.pdf');
  const res = await fetch(`${base}/api/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`REST upload: ${res.status} ${await res.text()}`);
}

async function graphqlUpload({ base, key }: Service, content: Buffer): Promise<void> {
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({
      query: 'mutation ($file: Upload!) { uploadFile(file: $file) { id } }',
      variables: { file: null },
    }),
  );
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new Blob([content]), 'large.pdf');
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'apollo-require-preflight': 'true' },
    body: form,
  });
  const body = (await res.json()) as { errors?: unknown };
  if (res.status !== 200 || body.errors) throw new Error(`GraphQL upload: ${res.status} ${JSON.stringify(body)}`);
}

/** The largest growth of the service's own memory over RUNS uploads, each measured from just before it starts. */
async function measure(
  service: Service,
  door: string,
  upload: (service: Service, content: Buffer) => Promise<void>,
): Promise<number> {
  const pid = service.service.pid!;
  let worst = 0;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const content = document(UPLOAD_BYTES);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the last run's analysis and collections settle
    const baseline = residentBytes(pid);
    const peak = samplePeakMemory(pid, 2, residentBytes);
    const started = process.hrtime.bigint();
    await upload(service, content);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    worst = Math.max(worst, peak.stop() - baseline);
  }
  console.log(
    `${door}: a ${mib(UPLOAD_BYTES)} upload grew the service by at most ${mib(worst)} (target ${mib(TARGET_BYTES)}), in ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`,
  );
  return worst;
}

/** A fresh service over `storage`'s settings for each door, so that each door's first large upload is measured. */
async function measureWith(storage: string, env: Record<string, string>): Promise<number> {
  let worst = 0;
  for (const [door, upload] of [
    ['REST', restUpload],
    ['GraphQL', graphqlUpload],
  ] as const) {
    const dataDir = mkdtempSync(join(tmpdir(), 'ltk-bench-upload-'));
    const service = await startService(dataDir, env);
    try {
      // Everything an upload loads once (modules, the analysis child, prepared statements) is loaded before measuring.
      await upload(service, document(64 * 1024));
      worst = Math.max(worst, await measure(service, `${storage}, ${door}`, upload));
    } finally {
      service.service.kill('SIGTERM');
      await new Promise((resolve) => service.service.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return worst;
}

async function main(): Promise<void> {
  const bucketDir = mkdtempSync(join(tmpdir(), 'ltk-bench-s3-'));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: bucketDir,
    configureBuckets: [{ name: 'ltk-files', configs: [] }],
  });
  const { port } = await s3.run();
  try {
    const s3Env = {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'ltk-files',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const worst = Math.max(await measureWith('local disk', {}), await measureWith('S3 (s3rver on loopback)', s3Env));
    if (worst > TARGET_BYTES) process.exitCode = 1;
  } finally {
    await s3.close();
    rmSync(bucketDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
