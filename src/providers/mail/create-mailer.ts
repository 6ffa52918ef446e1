import type { MailConfig } from '../../config/app-config';
import type { Mailer } from './mailer';
import { OutboxMailer } from './outbox-mailer';
import { SmtpMailer } from './smtp-mailer';

export function createMailer(config: MailConfig): Mailer {
  return config.driver === 'smtp' ? new SmtpMailer(config.url, config.from) : new OutboxMailer(config.from);
}
