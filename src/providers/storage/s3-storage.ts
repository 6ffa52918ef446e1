import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { StorageConfig } from '../../config/app-config';
import { NotFoundError, ProviderUnavailableError } from '../../shared/errors';
import type { FileStorage } from './file-storage';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

/** S3 or any S3-compatible store; multipart uploads stream from disk, reads stream to the client. */
export class S3Storage implements FileStorage {
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      maxAttempts: 3,
      // Checksums only where S3 requires them: several S3-compatible stores refuse the SDK's default trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async putFile(key: string, path: string, contentType: string): Promise<void> {
    await this.call(() =>
      new Upload({
        client: this.client,
        params: { Bucket: this.config.bucket, Key: key, Body: createReadStream(path), ContentType: contentType },
      }).done(),
    );
  }

  async read(key: string): Promise<Readable> {
    const object = await this.call(() => this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key })));
    return object.Body as Readable;
  }

  async delete(key: string): Promise<void> {
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key })));
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
