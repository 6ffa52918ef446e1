import nodemailer, { type Transporter } from 'nodemailer';
import { ProviderUnavailableError } from '../../shared/errors';
import type { DeliverableEmail, MailTransport } from './mailer';

/** Production: nodemailer over SMTP_URL (D17). */
export class SmtpTransport implements MailTransport {
  private readonly transport: Transporter;

  constructor(url: string) {
    this.transport = nodemailer.createTransport(url);
  }

  async deliver({ from, to, subject, text, messageId }: DeliverableEmail): Promise<void> {
    try {
      await this.transport.sendMail({ from, to, subject, text, messageId });
    } catch (error) {
      throw new ProviderUnavailableError('Mail provider', 60, error);
    }
  }
}
