import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load-config';

const dataDir = () => mkdtempSync(join(tmpdir(), 'ltk-config-'));
const p12 = join(dataDir(), 'signing.p12');
writeFileSync(p12, 'not read by loadConfig');
const production = {
  APP_ENV: 'production',
  DATABASE_URL: 'postgres://u:p@db.internal:5432/app',
  APP_KEY: 'k'.repeat(40),
  APP_URL: 'https://api.example.test',
  SMTP_URL: 'smtp://mail.example.test:587',
  PAYMENT_PROVIDER: 'paypal',
  PAYPAL_CLIENT_ID: 'client',
  PAYPAL_CLIENT_SECRET: 'secret',
  PAYPAL_WEBHOOK_ID: 'WH-1',
  TRANSLATION_ENGINE: 'deepl',
  DEEPL_AUTH_KEY: 'deepl-key:fx',
  SIGNING_P12_PATH: p12,
  COMPANY_NAME: 'Acme Legal Translations LLC',
  COMPANY_ADDRESS: '1 Court Plaza, Springfield, IL 62701, USA',
  SUPPORT_EMAIL: 'help@acme.example.test',
};

describe('loadConfig (D15)', () => {
  it('runs the sandbox with no configuration at all, generating and keeping an APP_KEY', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      env: 'sandbox',
      port: 3000,
      appUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: dir,
      mail: { driver: 'outbox' },
      orderPrefix: 'LT',
      rateLimitPerMinute: 120,
      http: { headersTimeoutMs: 20_000, requestTimeoutMs: 300_000 },
      metrics: { allowFrom: ['127.0.0.0/8', '::1'], token: undefined },
      cors: { origins: [], anyLocalhost: true },
      company: { supportEmail: 'support@example.com' },
    });
    expect(config.appKey).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dir, 'app-key')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).appKey).toBe(config.appKey);
    expect(readFileSync(join(dir, 'app-key'), 'utf8').trim()).toBe(config.appKey);
  });

  it('takes every variable, treating empty ones as unset', () => {
    const config = loadConfig({
      ...production,
      PORT: '8080',
      ORDER_PREFIX: 'ACME',
      APP_KEY_PREVIOUS: 'a, b ,',
      LOG_LEVEL: 'warn',
      APP_URL: 'https://api.example.test/',
      MAIL_FROM: '',
      RATE_LIMIT_PER_MINUTE: '600',
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_REQUEST_TIMEOUT_MS: '60000',
      METRICS_ALLOW_FROM: ' 10.1.2.3, 10.0.0.0/8 ,fd00::/8,',
      METRICS_TOKEN: 'scrape-token-0123456789',
      CORS_ORIGINS: 'https://portal.example.test, http://localhost:5173',
    });
    expect(config).toMatchObject({
      env: 'production',
      port: 8080,
      appUrl: 'https://api.example.test',
      orderPrefix: 'ACME',
      appKeyPrevious: ['a', 'b'],
      logLevel: 'warn',
      rateLimitPerMinute: 600,
      http: { headersTimeoutMs: 5000, requestTimeoutMs: 60_000 },
      metrics: { allowFrom: ['10.1.2.3', '10.0.0.0/8', 'fd00::/8'], token: 'scrape-token-0123456789' },
      cors: { origins: ['https://portal.example.test', 'http://localhost:5173'], anyLocalhost: false },
      mail: { driver: 'smtp', url: 'smtp://mail.example.test:587' },
      company: {
        name: 'Acme Legal Translations LLC',
        address: '1 Court Plaza, Springfield, IL 62701, USA',
        supportEmail: 'help@acme.example.test',
      },
    });
  });

  it.each([
    [
      { SUPPORT_EMAIL: 'help desk' },
      'Invalid configuration: SUPPORT_EMAIL must be an e-mail address (got "help desk").',
    ],
    [
      { CORS_ORIGINS: 'https://portal.example.test/app' },
      /^Invalid configuration: CORS_ORIGINS must be a comma-separated list of origins/,
    ],
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a number (got "abc").'],
    [{ PORT: '70000' }, /^Invalid configuration: PORT is out of range/],
    [{ APP_ENV: 'staging' }, 'Invalid configuration: APP_ENV must be one of sandbox, production (got "staging").'],
    [
      { DATABASE_URL: 'mysql://x' },
      /^Invalid configuration: DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\//,
    ],
    [{ APP_KEY: 'short' }, 'Invalid configuration: APP_KEY must be at least 32 characters (got "short").'],
    [{ ORDER_PREFIX: 'lt' }, /^Invalid configuration: ORDER_PREFIX must be 2 to 10 uppercase letters or digits/],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL must be one of fatal, error/],
    [{ SMTP_URL: 'http://mail' }, /^Invalid configuration: SMTP_URL must be a URL starting with smtp:/],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, /^Invalid configuration: RATE_LIMIT_PER_MINUTE /],
    [{ HTTP_HEADERS_TIMEOUT_MS: '10' }, /^Invalid configuration: HTTP_HEADERS_TIMEOUT_MS is out of range/],
    [{ JOBS_HEARTBEAT_SECONDS: '9' }, /^Invalid configuration: JOBS_HEARTBEAT_SECONDS is out of range/],
    [
      { METRICS_ALLOW_FROM: '10.0.0.0/8, prometheus.internal' },
      /^Invalid configuration: METRICS_ALLOW_FROM must be a comma-separated list of IP addresses or CIDR ranges \("prometheus.internal" is neither\)/,
    ],
    [
      { METRICS_ALLOW_FROM: '10.0.0.0/33' },
      /^Invalid configuration: METRICS_ALLOW_FROM must be .* \("10.0.0.0\/33" is neither\)/,
    ],
    [{ METRICS_ALLOW_FROM: '::1/129' }, /^Invalid configuration: METRICS_ALLOW_FROM /],
    [{ METRICS_ALLOW_FROM: '10.0.0.1/8/8' }, /^Invalid configuration: METRICS_ALLOW_FROM /],
    [{ METRICS_ALLOW_FROM: '10.0.0.1/' }, /^Invalid configuration: METRICS_ALLOW_FROM /],
    [{ METRICS_ALLOW_FROM: `${'1'.repeat(50_000)}/` }, /^Invalid configuration: METRICS_ALLOW_FROM /],
    [{ METRICS_TOKEN: 'short' }, 'Invalid configuration: METRICS_TOKEN must be at least 16 characters (got "short").'],
    [{ METRICS_TOKEN: 'a token with spaces in it' }, /^Invalid configuration: METRICS_TOKEN must be a bearer token/],
    [
      { HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' },
      'Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not be greater than HTTP_REQUEST_TIMEOUT_MS.',
    ],
  ])('refuses %j with one line naming the variable', (env, message) => {
    const dir = dataDir();
    expect(() => loadConfig({ DATA_DIR: dir, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, ...env })).toThrow(message);
  });

  it.each(['DATABASE_URL', 'APP_KEY', 'APP_URL', 'SMTP_URL', 'COMPANY_NAME', 'COMPANY_ADDRESS', 'SUPPORT_EMAIL'])(
    'refuses production without %s',
    (name) => {
      const env: Record<string, string> = { ...production };
      delete env[name];
      expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${name} is required when APP_ENV is production.`);
    },
  );

  it('refuses production without a signing key file', () => {
    expect(() => loadConfig({ ...production, SIGNING_P12_PATH: '' })).toThrow(
      'Invalid configuration: SIGNING_P12_PATH is required when APP_ENV is production.',
    );
    expect(() => loadConfig({ ...production, SIGNING_P12_PATH: '/nowhere/key.p12' })).toThrow(
      'Invalid configuration: SIGNING_P12_PATH names no file (got "/nowhere/key.p12").',
    );
    expect(loadConfig(production).signing).toEqual({ p12Path: p12, passphrase: '', selfSigned: false });
  });

  it('refuses production without DeepL, and DeepL without its key (D1)', () => {
    expect(() => loadConfig({ ...production, TRANSLATION_ENGINE: 'sandbox' })).toThrow(
      'Invalid configuration: TRANSLATION_ENGINE must be deepl when APP_ENV is production.',
    );
    expect(() => loadConfig({ ...production, DEEPL_AUTH_KEY: '' })).toThrow(
      'Invalid configuration: DEEPL_AUTH_KEY is required when TRANSLATION_ENGINE is deepl.',
    );
    expect(loadConfig({ ...production, DEEPL_SERVER_URL: 'https://api.deepl.com' }).translation).toEqual({
      engine: 'deepl',
      authKey: 'deepl-key:fx',
      serverUrl: 'https://api.deepl.com',
    });
  });

  it('refuses production without PayPal, and PayPal without its credentials (D1)', () => {
    expect(() => loadConfig({ ...production, PAYMENT_PROVIDER: 'sandbox' })).toThrow(
      'Invalid configuration: PAYMENT_PROVIDER must be paypal when APP_ENV is production.',
    );
    for (const name of ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID']) {
      const env: Record<string, string> = { ...production };
      delete env[name];
      expect(() => loadConfig(env)).toThrow(
        `Invalid configuration: ${name} is required when PAYMENT_PROVIDER is paypal.`,
      );
    }
    expect(loadConfig(production).payment).toEqual({
      provider: 'paypal',
      baseUrl: 'https://api-m.sandbox.paypal.com',
      clientId: 'client',
      clientSecret: 'secret',
      webhookId: 'WH-1',
    });
  });

  it('never writes a key file in production', () => {
    const dir = dataDir();
    loadConfig({ ...production, DATA_DIR: dir });
    expect(existsSync(join(dir, 'app-key'))).toBe(false);
  });
});
