import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback that keeps what it receives. A test may switch `mode` while one app is pointed at
 * it: `refuse` answers every message with that reply code (451 a temporary refusal, 550 a permanent one),
 * `refuseSender` answers MAIL FROM with a 553, and `hold` keeps each message unanswered until it settles.
 */
export async function startSmtpSink() {
  const received: ReceivedMail[] = [];
  const mode: { refuse: false | 451 | 550; refuseSender: boolean; hold: Promise<void> | null } = {
    refuse: false,
    refuseSender: false,
    hold: null,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (mode.refuseSender)
        return callback(Object.assign(new Error('Sender address rejected'), { responseCode: 553 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (mode.hold ?? Promise.resolve()).then(() => {
          if (mode.refuse)
            return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: mode.refuse }));
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
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
