import nodemailer, { type Transporter } from 'nodemailer';
import { ProviderUnavailableError } from '../../shared/errors';
import type { Mailer, OutgoingEmail } from './mailer';

/** Production: nodemailer over SMTP_URL (D17). A refused or unreachable server is a 503. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(_em: unknown, message: OutgoingEmail): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      throw new ProviderUnavailableError('Mail provider', 60, error);
    }
  }
}
