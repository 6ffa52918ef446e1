import type { AppConfig } from './config/app-config';
import { AccountService } from './domain/accounts/account.service';
import { AuthenticationService } from './domain/accounts/authentication.service';
import { AuditService } from './domain/audit/audit.service';
import { BookingService } from './domain/bookings/booking.service';
import { CatalogService } from './domain/catalog/catalog.service';
import { SentEmailService } from './domain/mail/sent-email.service';
import { StaffService } from './domain/staff/staff.service';
import { ANALYSIS_WORKER_SCRIPT } from './db/paths';
import { DEFAULT_LIMITS } from './domain/files/analysis/analysis-sandbox';
import { FilesService } from './domain/files/files.service';
import { SignedUrls } from './domain/files/signed-urls';
import { serviceTempDir } from './domain/files/temp-files';
import { RateLimitService } from './domain/rate-limits/rate-limit.service';
import { IdempotencyService } from './domain/idempotency/idempotency.service';
import { CertificateService } from './domain/orders/certificate.service';
import { CertifiedReviewService } from './domain/orders/certified-review.service';
import { OrderDeskService } from './domain/orders/order-desk.service';
import { OrderService } from './domain/orders/order.service';
import { PaymentService } from './domain/payments/payment.service';
import { QuoteService } from './domain/quotes/quote.service';
import { createPaymentProvider } from './providers/payment/create-payment-provider';
import type { JobQueue } from './jobs/job-queue';
import type { Logger } from './shared/logger';
import { MailDeliveryService } from './domain/mail/mail-delivery.service';
import { OutboxMailer, SENT_EMAIL_SEAL } from './domain/mail/outbox-mailer';
import { TextSeal } from './domain/shared/text-seal';
import type { Mailer } from './providers/mail/mailer';
import { createPdfSigner } from './providers/signing/create-pdf-signer';
import { createStorage } from './providers/storage/create-storage';
import { createTranslationEngine } from './providers/translation/create-translation-engine';
import { TranslationService } from './domain/translation/translation.service';

export interface Infrastructure {
  queue: JobQueue;
  logger: Logger;
}

/** The composition root: every service once, with its providers chosen by configuration. Both doors share it. */
export function createServices(config: AppConfig, { queue, logger }: Infrastructure) {
  const { mailer, mailDelivery } = createMail(config, queue, logger);
  const audit = new AuditService();
  const catalog = new CatalogService({ audit });
  const storage = createStorage(config.storage);
  const files = new FilesService({
    storage,
    queue,
    signedUrls: new SignedUrls(config.appUrl, config.appKey, config.appKeyPrevious),
    uploadMaxBytes: config.uploadMaxBytes,
    analysisBounds: { ...DEFAULT_LIMITS, maxMemoryMb: config.analysisMaxMemoryMb, workerScript: ANALYSIS_WORKER_SCRIPT },
    tempDir: serviceTempDir(config.dataDir),
    logger,
  });
  const payments = new PaymentService(createPaymentProvider(config.payment, config.appUrl), { audit, logger });
  const orders = new OrderService({ payments, mailer, files, queue, audit, orderPrefix: config.orderPrefix, turnaroundHours: config.turnaroundHours });
  const engine = createTranslationEngine(config.translation);
  const certificates = new CertificateService({ files, signer: createPdfSigner(config.signing), company: config.company, appUrl: config.appUrl });
  return {
    config,
    files,
    payments,
    idempotency: new IdempotencyService(),
    rateLimits: new RateLimitService(config.rateLimitPerMinute),
    bookings: new BookingService({ catalog, payments, mailer, audit, orderPrefix: config.orderPrefix }),
    orders,
    certificates,
    certifiedReview: new CertifiedReviewService({ files, orders, certificates }),
    orderDesk: new OrderDeskService({ orders }),
    translation: new TranslationService({ engine, storage, files, orders, logger }),
    quotes: new QuoteService({ catalog, files, ttlDays: config.quoteTtlDays }),
    audit,
    authentication: new AuthenticationService(config.env),
    catalog,
    accounts: new AccountService({ env: config.env, mailer, audit }),
    staff: new StaffService({ audit }),
    sentEmails: new SentEmailService({ env: config.env }),
    mailDelivery,
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * The outbox (D17): the sandbox keeps its messages; production seals each one and queues its delivery over SMTP.
 * nodemailer is loaded only then.
 */
function createMail(config: AppConfig, queue: JobQueue, logger: Logger): { mailer: Mailer; mailDelivery?: MailDeliveryService } {
  const { mail } = config;
  if (mail.driver !== 'smtp') return { mailer: new OutboxMailer(mail.from) };
  const { SmtpTransport } = require('./providers/mail/smtp-transport') as typeof import('./providers/mail/smtp-transport');
  const seal = new TextSeal(SENT_EMAIL_SEAL, config.appKey, config.appKeyPrevious);
  return { mailer: new OutboxMailer(mail.from, { queue, seal }), mailDelivery: new MailDeliveryService({ transport: new SmtpTransport(mail.url), seal, queue, logger }) };
}
