import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import type { RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppConfig } from '../../config/app-config';

/** What a portal may send and read across origins (D27). */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-None-Match',
  'Apollo-Require-Preflight',
];
const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'Idempotent-Replayed',
];

/** This machine by any of its names (the sandbox's default CORS): `localhost`, `127.0.0.1` and `[::1]`, any port. */
const LOCALHOST = /^http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;

/**
 * Every page is built from this service's own files (D27): scripts only from here (an inline one only with the page's
 * nonce), inline styles (the small pages carry theirs), nothing framed, no base or plugin tricks. No `form-action`: the
 * sandbox checkout's buttons post here and are then sent back to the client's own `redirect_url`.
 */
const pagePolicy = (scriptNonce?: string) =>
  [
    "default-src 'self'",
    `script-src 'self'${scriptNonce ? ` 'nonce-${scriptNonce}'` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/** A page with one inline script: the nonce to put on it, its policy already set on the answer. */
export function inlineScriptNonce(res: Response): string {
  const nonce = randomBytes(16).toString('base64');
  res.set('Content-Security-Policy', pagePolicy(nonce));
  return nonce;
}

/**
 * D27 for browsers: CORS for the configured portal origins (bearer tokens, never cookies, so no credentials), and
 * security headers on every answer: HSTS in production, `nosniff`, no framing, `Referrer-Policy: no-referrer`, and
 * the page policy above (harmless on JSON, needed on every HTML page). The headers are the same on every answer, so
 * they are taken once (`securityHeaders()`), not made again by helmet's eleven middleware on every request.
 */
export function browserAccess(config: AppConfig): RequestHandler[] {
  const allowed = new Set(config.cors.origins);
  const headers = securityHeaders(config);
  return [
    (_req, res, next) => {
      for (const [name, value] of headers) res.setHeader(name, value);
      next();
    },
    cors({
      origin: (origin, answer) =>
        answer(
          null,
          origin !== undefined && (allowed.has(origin) || (config.cors.anyLocalhost && LOCALHOST.test(origin))),
        ),
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      credentials: false,
      maxAge: 600,
    }),
  ];
}

const helmetOptions = (config: AppConfig): HelmetOptions => ({
  contentSecurityPolicy: false,
  strictTransportSecurity: config.env === 'production' ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // Signed download links are opened from portals on other origins.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
});

/**
 * The security headers of every answer (`browserAccess`, and the polling lane's answers made without Express,
 * D23): helmet's headers, which with these options depend on nothing in the request (taken once, from helmet itself;
 * the `X-Powered-By` it removes is never set: Express's is turned off), and the page policy. CORS adds nothing
 * without an `Origin`.
 */
export function securityHeaders(config: AppConfig): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = { setHeader: (name: string, value: string) => void headers.push([name, value]), removeHeader() {} };
  helmet(helmetOptions(config))({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return [...headers, ['Content-Security-Policy', pagePolicy()]];
}
