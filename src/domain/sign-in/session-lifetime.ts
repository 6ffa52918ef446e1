/** D27: a session ends after 12 hours unused and 30 days in all; a code lasts 10 minutes and 5 tries. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** `last_used_at` is moved at most this often (touch-session.ts). */
export const SESSION_TOUCH_MS = 60 * 1000;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

export const SESSION_TOKEN_PREFIX = 'ltk_session_';
