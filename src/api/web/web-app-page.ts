import type { AppEnv } from '../../config/app-config';
import { escapeHtml } from '../http/html';

/**
 * The policy of an application's pages, stricter than the service's other pages: its own script and style files
 * only (no inline script or style, no eval), requests to this service only, PDFs previewed in frames of this service,
 * images from here or made in the page. Nothing from another origin loads, so the page works offline.
 */
export const WEB_APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** The one HTML page of an application: every address under `/<app>` answers it, and the script draws the screen. */
export function webAppPage(app: string, title: string, env: AppEnv): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="stylesheet" href="/${app}/assets/app.css"><script src="/${app}/assets/app.js" defer></script></head><body data-env="${env}"><div id="root"></div><noscript>${escapeHtml(title)} needs JavaScript.</noscript></body></html>`;
}
