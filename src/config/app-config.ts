/** The typed configuration every part of the service reads; built once at start by loadConfig(). */
export type AppEnv = 'sandbox' | 'production';

export type MailConfig = { driver: 'outbox'; from: string } | { driver: 'smtp'; url: string; from: string };

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
  orderPrefix: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  shutdownTimeoutMs: number;
}
