import type { StorageConfig } from '../../config/app-config';
import type { FileStorage } from './file-storage';
import { LocalStorage } from './local-storage';

/** The configured store; the S3 one (and the AWS SDK under it, some 80 modules) is loaded only when chosen. */
export function createStorage(config: StorageConfig): FileStorage {
  if (config.driver !== 's3') return new LocalStorage(config.dir);
  const { S3Storage } = require('./s3-storage') as typeof import('./s3-storage');
  return new S3Storage(config);
}
