import pino, { type Logger } from 'pino';

export type { Logger };

/** The levels `LOG_LEVEL` may name (pino's, plus `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** JSON lines on stdout; every request line carries its request_id. */
export const createLogger = (level: LogLevel): Logger =>
  pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
