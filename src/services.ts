import type { AppConfig } from './config/app-config';
import { AccountService } from './domain/accounts/account.service';
import { AuthenticationService } from './domain/accounts/authentication.service';
import { AuditService } from './domain/audit/audit.service';
import { CatalogService } from './domain/catalog/catalog.service';
import { SentEmailService } from './domain/mail/sent-email.service';
import { StaffService } from './domain/staff/staff.service';
import { createMailer } from './providers/mail/create-mailer';

/** The composition root: every service once, with its providers chosen by configuration. Both doors share it. */
export function createServices(config: AppConfig) {
  const mailer = createMailer(config.mail);
  const audit = new AuditService();
  return {
    config,
    audit,
    authentication: new AuthenticationService(config.env),
    catalog: new CatalogService(),
    accounts: new AccountService({ env: config.env, mailer, audit }),
    staff: new StaffService({ audit }),
    sentEmails: new SentEmailService(),
  };
}

export type Services = ReturnType<typeof createServices>;
