import type { LogLevel } from '../shared/logger';

/** The typed configuration every part of the service reads; built once at start by loadConfig(). */
export type AppEnv = 'sandbox' | 'production';

export type MailConfig = { driver: 'outbox'; from: string } | { driver: 'smtp'; url: string; from: string };

export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      /** S3-compatible stores (MinIO and others) need their own endpoint and usually path-style addressing. */
      endpoint?: string;
      forcePathStyle: boolean;
      /** Unset: the AWS SDK's default credential chain (environment, instance role, ...). */
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

export type PaymentConfig =
  | { provider: 'sandbox' }
  | { provider: 'paypal'; baseUrl: string; clientId: string; clientSecret: string; webhookId: string };

export type TranslationConfig = { engine: 'sandbox' } | { engine: 'deepl'; authKey: string; serverUrl?: string; maxRetries?: number };

export interface HttpTimeouts {
  /** How long a client has to send its request headers (slowloris). */
  headersTimeoutMs: number;
  /** How long a client has to send its whole request, body included. */
  requestTimeoutMs: number;
}

export interface AppConfig {
  env: AppEnv;
  port: number;
  /** Public base address without a trailing slash; links the service hands out start with it. */
  appUrl: string;
  /** Unset: an embedded PostgreSQL is started with its data under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Signs download links and other tokens; previous keys still verify during a rotation. */
  appKey: string;
  appKeyPrevious: string[];
  mail: MailConfig;
  /** The operator named on checkout pages, e-mails and certificates (D20); sandbox defaults are obviously fake. */
  company: { name: string; address: string };
  orderPrefix: string;
  payment: PaymentConfig;
  translation: TranslationConfig;
  /** The PKCS#12 file that signs certificates of accuracy; the sandbox makes a self-signed one there. */
  signing: { p12Path: string; passphrase: string; selfSigned: boolean };
  storage: StorageConfig;
  /** Due time of a paid order without rush (D10). */
  turnaroundHours: number;
  /** How long a quote can be converted (D8). */
  quoteTtlDays: number;
  /** Largest accepted upload in bytes (D5); larger ones are cut off and refused. */
  uploadMaxBytes: number;
  /** Memory ceiling of the whole document-analysis process, in MB (D25). */
  analysisMaxMemoryMb: number;
  /** Requests a minute per API key, and per client address on the catalog (D16). */
  rateLimitPerMinute: number;
  /**
   * How often idle job workers look for work (file analysis, translation; payment reconciliation runs on its own
   * timer), and how long a running job's lease lasts unrenewed: a job whose worker died is handed out again soon
   * after its lease lapses (D26).
   */
  jobs: { pollingIntervalSeconds: number; leaseSeconds: number };
  logLevel: LogLevel;
  shutdownTimeoutMs: number;
  /** Limits for slow clients (D25). */
  http: HttpTimeouts;
}
