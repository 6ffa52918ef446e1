import nodemailer, { type Transporter } from 'nodemailer';
import { ProviderUnavailableError } from '../../shared/errors';
import type { DeliverableEmail, MailTransport } from './mailer';

/**
 * nodemailer's own limits let one attempt wait minutes (a 2-minute connect, an hour of silence); a delivery run holds
 * its message meanwhile, so an unresponsive server is given up on sooner and the job retries later.
 */
const TIMEOUTS_MS = { dnsTimeout: 10_000, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Production: nodemailer over SMTP_URL (D17). */
export class SmtpTransport implements MailTransport {
  private readonly transport: Transporter;

  constructor(url: string) {
    this.transport = nodemailer.createTransport({ url, ...TIMEOUTS_MS });
  }

  async deliver({ from, to, subject, text, messageId }: DeliverableEmail): Promise<void> {
    try {
      await this.transport.sendMail({ from, to, subject, text, messageId });
    } catch (error) {
      throw new ProviderUnavailableError('Mail provider', 60, error);
    }
  }
}
