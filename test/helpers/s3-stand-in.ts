import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { StorageConfig } from '../../src/config/app-config';

export interface S3StandIn {
  /** The storage configuration of a service that keeps its files in the stand-in's bucket. */
  storage: Extract<StorageConfig, { driver: 's3' }>;
  /** A client of the bucket, to look at it as an operator would. */
  client: S3Client;
  /** Whether the bucket holds an object under `key`. */
  objectExists(key: string): Promise<boolean>;
  /** Stops the server (a storage outage, or the end of the file). */
  close(): Promise<void>;
}

/** A real S3-compatible server on loopback (s3rver) with one bucket, in a temporary folder of its own. */
export async function startS3StandIn(bucket: string): Promise<S3StandIn> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: mkdtempSync(join(tmpdir(), 'ltk-s3-')),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const storage: S3StandIn['storage'] = {
    driver: 's3',
    bucket,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  };
  const client = new S3Client({
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: true,
    credentials: storage.credentials,
  });
  return {
    storage,
    client,
    async objectExists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      client.destroy();
      await server.close();
    },
  };
}
