import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback that keeps what it receives. A test may switch `mode` while one app is pointed at
 * it: `refuse` answers every message with that reply code (451 a temporary refusal, 550 a permanent one), and
 * `delayMs` holds each message that long before answering.
 */
export async function startSmtpSink() {
  const received: ReceivedMail[] = [];
  const mode: { refuse: false | 451 | 550; delayMs: number } = { refuse: false, delayMs: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const answer = () => {
          if (mode.refuse) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: mode.refuse }));
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        };
        if (mode.delayMs) setTimeout(answer, mode.delayMs);
        else answer();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mode,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
