import pino, { type Logger } from 'pino';

export type { Logger };

/** The levels `LOG_LEVEL` may name (pino's, plus `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * JSON lines on stdout (the service: every request line carries its request_id), or on stderr for the CLI, whose
 * stdout is its answer (the shell assignments of `sandbox:seed`, a token). The service's lines are written without
 * waiting for the write: a line is handed to the system while the request goes on, and the lines logged while one
 * write is under way go out together in the next, instead of a blocking write per request on the event loop (README,
 * "How fast"). Pino writes what is left when the process exits.
 */
export function createLogger(level: LogLevel, to: 'stdout' | 'stderr' = 'stdout'): Logger {
  const options = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
  return to === 'stdout'
    ? pino(options, pino.destination({ dest: 1, sync: false }))
    : pino(options, pino.destination(2));
}
