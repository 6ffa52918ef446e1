import type { StorageConfig } from '../../config/app-config';
import type { FileStorage } from './file-storage';
import { LocalStorage } from './local-storage';
import { S3Storage } from './s3-storage';

export function createStorage(config: StorageConfig): FileStorage {
  return config.driver === 's3' ? new S3Storage(config) : new LocalStorage(config.dir);
}
