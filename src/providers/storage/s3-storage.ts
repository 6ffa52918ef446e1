import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { StorageConfig } from '../../config/app-config';
import { NotFoundError, ProviderUnavailableError } from '../../shared/errors';
import type { FileStorage, StoredKey } from './file-storage';
import { FileRequestBody } from './file-request-body';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

const MAX_ATTEMPTS = 3;

/** S3 or any S3-compatible store; writes stream from disk, reads stream to the client. */
export class S3Storage implements FileStorage {
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      maxAttempts: MAX_ATTEMPTS,
      // Checksums only where S3 requires them: several S3-compatible stores refuse the SDK's default trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /**
   * One PUT streamed from the file through one reused buffer (file-request-body.ts), its length told up front (S3
   * takes up to 5 GB so; uploads are far smaller): the SDK's multipart `Upload` would hold each 5 MB part in
   * memory. The SDK cannot replay a streamed body, so each of the client's attempts opens the file again here.
   */
  async putFile(key: string, path: string, contentType: string): Promise<void> {
    const { size } = await stat(path);
    const put = () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          Body: new FileRequestBody(path),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
    await this.call(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await put();
        } catch (error) {
          if (attempt === MAX_ATTEMPTS) throw error;
        }
      }
    });
  }

  async read(key: string): Promise<Readable> {
    const object = await this.call(() =>
      this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key })),
    );
    return object.Body as Readable;
  }

  async delete(key: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key })));
  }

  /** The bucket is the service's own: every key in it is a file's (the sweep of unclaimed bytes, D25). */
  async *keys(): AsyncIterable<StoredKey> {
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.config.bucket })) {
      for (const { Key, LastModified } of page.Contents ?? [])
        if (Key) yield { key: Key, modifiedAt: LastModified ?? new Date() };
    }
  }

  async download(key: string, path: string): Promise<void> {
    await pipeline(await this.read(key), createWriteStream(path));
  }

  /** A missing object is "not found"; anything else from the store makes the request a 503 (D2). */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') throw new NotFoundError();
      throw new ProviderUnavailableError('File storage', 30, error);
    }
  }
}
