import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';

export type { Logger };

/** JSON lines on stdout; every request line carries its request_id. */
export const createLogger = (level: AppConfig['logLevel']): Logger =>
  pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
