import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../src/config/app-config';
import { RUNTIME_MEMORY_ENV } from './test-database';

/** The configuration every test fixture starts from: the sandbox's providers, a data folder of its own, quiet logs. */
export const testConfig = (overrides: Partial<AppConfig> = {}): AppConfig => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ltk-test-data-'));
  return {
    env: 'sandbox',
    port: 0,
    appUrl: 'http://127.0.0.1:3000',
    dataDir,
    databasePoolSize: 10,
    statementTimeoutMs: 5_000,
    appKey: 'test-app-key-0123456789abcdef0123456789abcdef',
    appKeyPrevious: [],
    mail: { driver: 'outbox', from: 'Legal Translation <no-reply@example.test>' },
    company: {
      name: 'Example Legal Translations (Sandbox)',
      address: '123 Example Street, Sampleville, EX 00000, Nowhere',
      supportEmail: 'support@example.test',
    },
    orderPrefix: 'LT',
    payment: { provider: 'sandbox' },
    translation: { engine: 'sandbox' },
    // One sandbox identity for the whole run (under its temporary root): making one costs about half a second of CPU.
    signing: { p12Path: join(tmpdir(), 'sandbox-signing.p12'), passphrase: '', selfSigned: true },
    storage: { driver: 'local', dir: join(dataDir, 'files') },
    quoteTtlDays: 7,
    turnaroundHours: 48,
    baseLanguage: 'en',
    uploadMaxBytes: 20 * 1024 * 1024,
    documentSandbox: {
      workMemoryMb: 512,
      runtimeMemoryMb: Number(process.env[RUNTIME_MEMORY_ENV]) || undefined,
      processes: 2,
    },
    // Suites make hundreds of requests a minute with one key; the rate limit has its own tests.
    rateLimitPerMinute: 1_000_000,
    jobs: { pollingIntervalSeconds: 0.5, heartbeatSeconds: 30 },
    logLevel: 'silent',
    shutdownTimeoutMs: 1000,
    http: { headersTimeoutMs: 20_000, requestTimeoutMs: 300_000 },
    metrics: { allowFrom: ['127.0.0.0/8', '::1'] },
    cors: { origins: [], anyLocalhost: true },
    ...overrides,
  };
};
