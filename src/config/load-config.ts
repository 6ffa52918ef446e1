import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { keptFile } from '../shared/kept-file';
import { LOG_LEVELS } from '../shared/logger';
import { addressRangeList, isAddressRange } from './address-ranges';
import type { AppConfig } from './app-config';

/** A configuration that cannot start the service; the message is one line naming the variable. */
export class ConfigError extends Error {}

/** An unset and an empty variable mean the same: use the default. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

const envSchema = z.object({
  APP_ENV: optional(z.enum(['sandbox', 'production'])),
  PORT: optional(z.coerce.number().int().min(0).max(65535)),
  WORKER_PORT: optional(z.coerce.number().int().min(0).max(65535)),
  APP_URL: optional(url(['http:', 'https:'])),
  DATABASE_URL: optional(url(['postgres:', 'postgresql:'])),
  DATA_DIR: optional(z.string()),
  DATABASE_POOL_SIZE: optional(z.coerce.number().int().min(2).max(100)),
  DATABASE_STATEMENT_TIMEOUT_MS: optional(z.coerce.number().int().min(100).max(600_000)),
  APP_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
  APP_KEY_PREVIOUS: optional(z.string()),
  SMTP_URL: optional(url(['smtp:', 'smtps:'])),
  MAIL_FROM: optional(z.string().regex(/@/, 'must contain an e-mail address')),
  COMPANY_NAME: optional(z.string().max(200)),
  COMPANY_ADDRESS: optional(z.string().max(500)),
  SUPPORT_EMAIL: optional(z.email('must be an e-mail address').max(254)),
  ORDER_PREFIX: optional(z.string().regex(/^[A-Z0-9]{2,10}$/, 'must be 2 to 10 uppercase letters or digits')),
  OPERATOR_BASE_LANGUAGE: optional(z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'must be a language code')),
  LOG_LEVEL: optional(z.enum(LOG_LEVELS)),
  TURNAROUND_HOURS: optional(
    z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60),
  ),
  QUOTE_TTL_DAYS: optional(z.coerce.number().int().min(1).max(365)),
  RATE_LIMIT_PER_MINUTE: optional(z.coerce.number().int().min(1).max(1_000_000)),
  TRANSLATION_ENGINE: optional(z.enum(['sandbox', 'deepl'])),
  DEEPL_AUTH_KEY: optional(z.string()),
  DEEPL_SERVER_URL: optional(url(['https:', 'http:'])),
  SIGNING_P12_PATH: optional(z.string()),
  SIGNING_P12_PASSPHRASE: optional(z.string()),
  PAYMENT_PROVIDER: optional(z.enum(['sandbox', 'paypal'])),
  PAYPAL_BASE_URL: optional(url(['https:', 'http:'])),
  PAYPAL_CLIENT_ID: optional(z.string()),
  PAYPAL_CLIENT_SECRET: optional(z.string()),
  PAYPAL_WEBHOOK_ID: optional(z.string()),
  UPLOAD_MAX_BYTES: optional(
    z.coerce
      .number()
      .int()
      .min(1)
      .max(1024 * 1024 * 1024),
  ),
  // What one document's work may use, on top of what the runtime needs to start the child (measured, or set below).
  ANALYSIS_MAX_MEMORY_MB: optional(
    z.coerce
      .number()
      .int()
      .min(64)
      .max(1024 * 1024),
  ),
  ANALYSIS_RUNTIME_MEMORY_MB: optional(
    z.coerce
      .number()
      .int()
      .min(1)
      .max(1024 * 1024),
  ),
  DOCUMENT_SANDBOX_PROCESSES: optional(z.coerce.number().int().min(1).max(64)),
  STORAGE_DRIVER: optional(z.enum(['local', 's3'])),
  S3_BUCKET: optional(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name')),
  S3_REGION: optional(z.string()),
  S3_ENDPOINT: optional(url(['http:', 'https:'])),
  S3_FORCE_PATH_STYLE: optional(z.enum(['true', 'false'])),
  S3_ACCESS_KEY_ID: optional(z.string()),
  S3_SECRET_ACCESS_KEY: optional(z.string()),
  JOBS_POLLING_INTERVAL_SECONDS: optional(z.coerce.number().min(0.5).max(60)),
  JOBS_HEARTBEAT_SECONDS: optional(z.coerce.number().int().min(10).max(600)),
  SHUTDOWN_TIMEOUT_MS: optional(z.coerce.number().int().min(0).max(600_000)),
  HTTP_HEADERS_TIMEOUT_MS: optional(z.coerce.number().int().min(1000).max(600_000)),
  HTTP_REQUEST_TIMEOUT_MS: optional(z.coerce.number().int().min(1000).max(3_600_000)),
  METRICS_ALLOW_FROM: optional(
    z.string().superRefine((text, context) => {
      const wrong = addressRangeList(text).find((entry) => !isAddressRange(entry));
      if (wrong !== undefined)
        context.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of IP addresses or CIDR ranges (${JSON.stringify(wrong)} is neither)`,
        });
    }),
  ),
  CORS_ORIGINS: optional(
    z.string().superRefine((text, context) => {
      const wrong = originList(text).find((entry) => !isOrigin(entry));
      if (wrong !== undefined)
        context.addIssue({
          code: 'custom',
          message: `must be a comma-separated list of origins such as https://portal.example.com (${JSON.stringify(wrong)} is not one)`,
        });
    }),
  ),
  METRICS_TOKEN: optional(
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .regex(/^[A-Za-z0-9._~+/=-]+$/, 'must be a bearer token (letters, digits and ._~+/=-)'),
  ),
});

/** Who reads /metrics outside the sandbox when METRICS_ALLOW_FROM is unset: the machine itself (a local agent). */
const METRICS_DEFAULT_ALLOW_FROM = '127.0.0.0/8,::1';

/**
 * Reads and validates the environment (D15). Production refuses to start without the real providers'
 * settings (D1); sandbox fills in working defaults, generating an APP_KEY kept under DATA_DIR.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid configuration: ${name} ${describe(issue)} (got ${JSON.stringify(env[name])}).`);
  }
  const e = parsed.data;
  const appEnv = e.APP_ENV ?? 'sandbox';
  if (appEnv === 'production') {
    for (const name of [
      'DATABASE_URL',
      'APP_KEY',
      'APP_URL',
      'SMTP_URL',
      'COMPANY_NAME',
      'COMPANY_ADDRESS',
      'SUPPORT_EMAIL',
    ] as const) {
      if (!e[name]) throw new ConfigError(`Invalid configuration: ${name} is required when APP_ENV is production.`);
    }
    if (e.PAYMENT_PROVIDER !== 'paypal') {
      throw new ConfigError('Invalid configuration: PAYMENT_PROVIDER must be paypal when APP_ENV is production.');
    }
    if (!e.SIGNING_P12_PATH)
      throw new ConfigError('Invalid configuration: SIGNING_P12_PATH is required when APP_ENV is production.');
    if (!existsSync(e.SIGNING_P12_PATH))
      throw new ConfigError(
        `Invalid configuration: SIGNING_P12_PATH names no file (got ${JSON.stringify(e.SIGNING_P12_PATH)}).`,
      );
    if (e.TRANSLATION_ENGINE !== 'deepl') {
      throw new ConfigError('Invalid configuration: TRANSLATION_ENGINE must be deepl when APP_ENV is production.');
    }
  }
  if (e.TRANSLATION_ENGINE === 'deepl' && !e.DEEPL_AUTH_KEY) {
    throw new ConfigError('Invalid configuration: DEEPL_AUTH_KEY is required when TRANSLATION_ENGINE is deepl.');
  }
  const paymentProvider = e.PAYMENT_PROVIDER ?? 'sandbox';
  if (paymentProvider === 'paypal') {
    for (const name of ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'] as const) {
      if (!e[name])
        throw new ConfigError(`Invalid configuration: ${name} is required when PAYMENT_PROVIDER is paypal.`);
    }
  }
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) {
    throw new ConfigError('Invalid configuration: S3_BUCKET is required when STORAGE_DRIVER is s3.');
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.');
  }
  const http = {
    headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS ?? 20_000,
    requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS ?? 300_000,
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new ConfigError(
      'Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS.',
    );
  }
  const port = e.PORT ?? 3000;
  const dataDir = resolve(e.DATA_DIR ?? '.data');
  const from = e.MAIL_FROM ?? 'Legal Translation <no-reply@localhost>';
  return {
    env: appEnv,
    port,
    workerPort: e.WORKER_PORT,
    appUrl: (e.APP_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? 10,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS ?? 5_000,
    appKey: e.APP_KEY ?? sandboxAppKey(dataDir),
    appKeyPrevious: (e.APP_KEY_PREVIOUS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    mail: appEnv === 'production' ? { driver: 'smtp', url: e.SMTP_URL!, from } : { driver: 'outbox', from },
    company: {
      name: e.COMPANY_NAME ?? 'Example Legal Translations (Sandbox)',
      address: e.COMPANY_ADDRESS ?? '123 Example Street, Sampleville, EX 00000, Nowhere',
      supportEmail: e.SUPPORT_EMAIL ?? 'support@example.com',
    },
    orderPrefix: e.ORDER_PREFIX ?? 'LT',
    payment:
      paymentProvider === 'paypal'
        ? {
            provider: 'paypal',
            // PayPal's own sandbox unless told otherwise; production sets https://api-m.paypal.com.
            baseUrl: (e.PAYPAL_BASE_URL ?? 'https://api-m.sandbox.paypal.com').replace(/\/+$/, ''),
            clientId: e.PAYPAL_CLIENT_ID!,
            clientSecret: e.PAYPAL_CLIENT_SECRET!,
            webhookId: e.PAYPAL_WEBHOOK_ID!,
          }
        : { provider: 'sandbox' },
    signing: {
      p12Path: resolve(e.SIGNING_P12_PATH ?? join(dataDir, 'signing.p12')),
      passphrase: e.SIGNING_P12_PASSPHRASE ?? '',
      selfSigned: !e.SIGNING_P12_PATH,
    },
    translation:
      e.TRANSLATION_ENGINE === 'deepl'
        ? { engine: 'deepl', authKey: e.DEEPL_AUTH_KEY!, serverUrl: e.DEEPL_SERVER_URL }
        : { engine: 'sandbox' },
    storage:
      e.STORAGE_DRIVER === 's3'
        ? {
            driver: 's3',
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION ?? 'us-east-1',
            endpoint: e.S3_ENDPOINT,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
            credentials: e.S3_ACCESS_KEY_ID
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! }
              : undefined,
          }
        : { driver: 'local', dir: join(dataDir, 'files') },
    quoteTtlDays: e.QUOTE_TTL_DAYS ?? 7,
    turnaroundHours: e.TURNAROUND_HOURS ?? 48,
    baseLanguage: e.OPERATOR_BASE_LANGUAGE ?? 'en',
    uploadMaxBytes: e.UPLOAD_MAX_BYTES ?? 20 * 1024 * 1024,
    documentSandbox: {
      workMemoryMb: e.ANALYSIS_MAX_MEMORY_MB ?? 512,
      runtimeMemoryMb: e.ANALYSIS_RUNTIME_MEMORY_MB,
      processes: e.DOCUMENT_SANDBOX_PROCESSES ?? 2,
    },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE ?? 120,
    jobs: {
      pollingIntervalSeconds: e.JOBS_POLLING_INTERVAL_SECONDS ?? 2,
      heartbeatSeconds: e.JOBS_HEARTBEAT_SECONDS ?? 30,
    },
    logLevel: e.LOG_LEVEL ?? 'info',
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    http,
    metrics: {
      allowFrom: addressRangeList(e.METRICS_ALLOW_FROM ?? METRICS_DEFAULT_ALLOW_FROM),
      token: e.METRICS_TOKEN,
    },
    cors: { origins: originList(e.CORS_ORIGINS ?? ''), anyLocalhost: appEnv === 'sandbox' && !e.CORS_ORIGINS },
  };
}

const originList = (text: string) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/** `scheme://host[:port]` and nothing more: what a browser sends in `Origin`. */
function isOrigin(entry: string): boolean {
  try {
    const parsed = new URL(entry);
    return ['http:', 'https:'].includes(parsed.protocol) && parsed.origin === entry;
  } catch {
    return false;
  }
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.join(', ')}`;
  if (issue.code === 'invalid_type') return 'must be a number';
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    return issue.message.startsWith('must') ? issue.message : `is out of range (${issue.message.toLowerCase()})`;
  }
  return issue.message.startsWith('must') ? issue.message : issue.message.toLowerCase();
}

/** Sandbox only: a random key generated on first start and kept, so signed links survive restarts. */
function sandboxAppKey(dataDir: string): string {
  return keptFile(join(dataDir, 'app-key'), () => Buffer.from(`${randomBytes(32).toString('hex')}\n`))
    .toString('utf8')
    .trim();
}
