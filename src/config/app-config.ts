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

export type TranslationConfig =
  | { engine: 'sandbox' }
  /** `languagesRetrySeconds`: how soon DeepL's language lists are asked for again when they could not be read (D29). */
  | { engine: 'deepl'; authKey: string; serverUrl?: string; maxRetries?: number; languagesRetrySeconds?: number };

export interface HttpTimeouts {
  /** How long a client has to send its request headers (slowloris). */
  headersTimeoutMs: number;
  /** How long a client has to send its whole request, body included. */
  requestTimeoutMs: number;
}

export interface AppConfig {
  env: AppEnv;
  port: number;
  /** Where a `worker` process answers `/healthz`, `/readyz` and `/metrics` (D37); unset, it answers nowhere. */
  workerPort?: number;
  /** Public base address without a trailing slash; links the service hands out start with it. */
  appUrl: string;
  /** Unset: an embedded PostgreSQL is started with its data under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** The ORM's connections in this process (pg-boss keeps 4 more): see docs/architecture.md, "Runtime settings". */
  databasePoolSize: number;
  /** The longest a statement of this process's ORM may run before PostgreSQL cancels it (migrations aside). */
  statementTimeoutMs: number;
  /** Signs download links and other tokens; previous keys still verify during a rotation. */
  appKey: string;
  appKeyPrevious: string[];
  mail: MailConfig;
  /**
   * The operator named on checkout pages, e-mails and certificates (D20), and where the public pages send people
   * with a question (`SUPPORT_EMAIL`); sandbox defaults are obviously fake.
   */
  company: { name: string; address: string; supportEmail: string };
  orderPrefix: string;
  payment: PaymentConfig;
  translation: TranslationConfig;
  /** The PKCS#12 file that signs certificates of accuracy; the sandbox makes a self-signed one there. */
  signing: { p12Path: string; passphrase: string; selfSigned: boolean };
  storage: StorageConfig;
  /** Due time of a paid order without rush (D10). */
  turnaroundHours: number;
  /** The language every interpreter of the operator speaks: a booking from or into it asks only for the other (D32). */
  baseLanguage: string;
  /** How long a quote can be converted (D8). */
  quoteTtlDays: number;
  /** Largest accepted upload in bytes (D5); larger ones are cut off and refused. */
  uploadMaxBytes: number;
  /**
   * The document sandbox (D25): what one document's work may use in MB (ANALYSIS_MAX_MEMORY_MB), what the runtime
   * needs to start a child (measured at start unless set), and how many children work at once.
   */
  documentSandbox: { workMemoryMb: number; runtimeMemoryMb?: number; processes: number; startTimeoutMs?: number };
  /** Requests a minute per API key, and per client address on the catalog (D16). */
  rateLimitPerMinute: number;
  /**
   * How often idle job workers look for work (file analysis, translation, the periodic tasks' jobs), and how long a
   * running job's heartbeat may be missing: a job whose worker died is handed out again soon after its heartbeat
   * stops (D26).
   */
  jobs: { pollingIntervalSeconds: number; heartbeatSeconds: number };
  logLevel: LogLevel;
  shutdownTimeoutMs: number;
  /** Limits for slow clients (D25). */
  http: HttpTimeouts;
  /**
   * Who may read `/metrics` outside the sandbox (D15): clients from these addresses or CIDR ranges, or with this
   * bearer token. The sandbox serves it to anyone.
   */
  metrics: { allowFrom: string[]; token?: string };
  /**
   * The browser origins (`https://portal.example.com`) allowed to call the API (D27, `CORS_ORIGINS`); the sandbox
   * also allows any `http://localhost:<port>` while none are set.
   */
  cors: { origins: string[]; anyLocalhost: boolean };
}
