import pino, { type Logger } from 'pino';

export type { Logger };

/** The levels `LOG_LEVEL` may name (pino's, plus `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * JSON lines on stdout (the service: every request line carries its request_id), or on stderr for the CLI, whose
 * stdout is its answer (the shell assignments of `sandbox:seed`, a token).
 */
export function createLogger(level: LogLevel, to: 'stdout' | 'stderr' = 'stdout'): Logger {
  const options = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  return to === 'stdout' ? pino(options) : pino(options, pino.destination(2));
}
