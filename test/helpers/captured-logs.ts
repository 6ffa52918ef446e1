import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from '../../src/shared/logger';

/** A logger at `info` whose JSON lines are kept in `lines`, for a test that reads what the service logged. */
export function capturedLogs<Line = Record<string, unknown>>(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Line);
      done();
    },
  });
  return { logger: pino({ level: 'info', base: undefined }, sink), lines };
}
