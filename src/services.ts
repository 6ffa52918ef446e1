import type { AppConfig } from './config/app-config';
import { AccountService } from './domain/accounts/account.service';
import { AuthenticationService } from './domain/accounts/authentication.service';
import { AuditService } from './domain/audit/audit.service';
import { BookingDeskService } from './domain/bookings/booking-desk.service';
import { BookingService } from './domain/bookings/booking.service';
import { bookingLifecycle } from './domain/bookings/booking.lifecycle';
import { bookingPayments } from './domain/bookings/booking-payments';
import { CatalogService } from './domain/catalog/catalog.service';
import { StandardOffer } from './domain/quotes/standard-offer';
import { SentEmailService } from './domain/mail/sent-email.service';
import { StaffService } from './domain/staff/staff.service';
import { InterpreterService } from './domain/bookings/interpreter.service';
import { StaffSessions } from './domain/staff/staff-sessions';
import { SANDBOX_WORKER_SCRIPT } from './db/paths';
import { DEFAULT_BOUNDS, DocumentSandbox } from './documents/sandbox/document-sandbox';
import { FilesService } from './domain/files/files.service';
import { SignedUrls } from './domain/files/signed-urls';
import type { ProcessClaim } from './db/process-claim';
import { liveProcessIds } from './db/live-processes';
import { StorageIntents } from './domain/files/storage-intents';
import { serviceTempDir } from './domain/files/temp-files';
import { RateLimitService } from './domain/rate-limits/rate-limit.service';
import { IdempotencyService } from './domain/idempotency/idempotency.service';
import { CertificateService } from './domain/certification/certificate.service';
import { CertifiedReviewService } from './domain/certification/certified-review.service';
import { PendingCertificates } from './domain/certification/pending-certificates';
import { OrderDeskService } from './domain/orders/order-desk.service';
import { OrderRevisionsService } from './domain/orders/order-revisions.service';
import { RetentionService } from './domain/retention/retention.service';
import { OrderMessageService } from './domain/orders/order-messages.service';
import { OrderService } from './domain/orders/order.service';
import { AddressLinks } from './domain/orders/address-links';
import { PageLinks } from './domain/mail/page-links';
import { orderLifecycle } from './domain/orders/order.lifecycle';
import { queueTranslation, scheduleExpiry, touchRevisedOrder } from './domain/orders/order.subscribers';
import { auditTrail } from './domain/audit/audit-trail';
import { orderPayments } from './domain/orders/order-payments';
import { OrderShippingService } from './domain/orders/order-shipping.service';
import { clientMaySeeFile } from './domain/orders/order-visibility';
import { PaymentService } from './domain/payments/payment.service';
import { QuoteService } from './domain/quotes/quote.service';
import { createPaymentProvider } from './providers/payment/create-payment-provider';
import { AccountPaymentProvider } from './providers/payment/account-payment-provider';
import { accountPlacement } from './domain/billing/account-placement';
import { InvoiceService } from './domain/billing/invoice.service';
import { invoicePdfPath, receiptPdfPath, SignedPdfLinks } from './domain/billing/signed-pdf-links';
import { ReceiptService } from './domain/billing/receipts';
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
import { MemberService } from './domain/members/member.service';
import { SignInService } from './domain/sign-in/sign-in.service';
import { EventHub } from './domain/shared/event-hub';
import type { AccountEvent } from './domain/accounts/account.events';
import type { MemberEvent } from './domain/members/member.events';
import type { SignInEvent } from './domain/sign-in/sign-in.events';
import type { InvoiceEvent } from './domain/billing/invoice.events';
import type { PaymentActivity } from './domain/payments/payment-activity';
import type { OrderActivity } from './domain/orders/order-activity';
import type { BookingActivity } from './domain/bookings/booking-activity';
import { tellAccountOfKey } from './domain/mail/account-mail.subscribers';
import { tellInvitee } from './domain/mail/member-mail.subscribers';
import { mailSignInCode } from './domain/mail/sign-in-mail.subscribers';
import { tellAccountOfInvoice } from './domain/mail/invoice-mail.subscribers';
import { tellAccountOfPayment } from './domain/mail/payment-mail.subscribers';
import { tellAccountOfOrder, tellAccountOfShipment } from './domain/mail/order-mail.subscribers';
import { tellOtherSideOfMessage } from './domain/mail/order-message-mail.subscribers';
import { tellDeskOfRevision } from './domain/mail/revision-mail.subscribers';
import { tellAccountOfBooking, tellAccountOfBookingActivity } from './domain/mail/booking-mail.subscribers';

export interface Infrastructure {
  queue: JobQueue;
  logger: Logger;
  /** This process's mark of life: names its temporary folder and records its storage intents (D25). */
  claim: Pick<ProcessClaim, 'id' | 'execute'>;
}

/** The composition root: every service once, with its providers chosen by configuration. Both doors share it. */
export function createServices(config: AppConfig, { queue, logger, claim }: Infrastructure) {
  const { mailer, mailDelivery } = createMail(config, queue, logger);
  const audit = new AuditService();
  const catalog = new CatalogService({ audit });
  const storage = createStorage(config.storage);
  const documents = new DocumentSandbox(
    { ...DEFAULT_BOUNDS, ...config.documentSandbox, workerScript: SANDBOX_WORKER_SCRIPT },
    logger,
  );
  const files = new FilesService({
    storage,
    queue,
    signedUrls: new SignedUrls(config.appUrl, config.appKey, config.appKeyPrevious),
    uploadMaxBytes: config.uploadMaxBytes,
    documents,
    tempDir: serviceTempDir(config.dataDir, claim.id),
    intents: new StorageIntents(claim),
    logger,
    clientMaySee: clientMaySeeFile,
  });
  // One lifecycle each for orders and bookings, shared by their services, their desks and what their payments do to them;
  // what a move does besides the move is its events' subscribers', each run in the moving transaction, in this order.
  const addressLinks = new AddressLinks(config.appUrl, [config.appKey, ...config.appKeyPrevious]);
  const pages = new PageLinks(config.appUrl);
  const lifecycles = { order: orderLifecycle(), booking: bookingLifecycle() };
  lifecycles.order.events.subscribe(auditTrail(audit));
  lifecycles.order.events.subscribe(scheduleExpiry);
  lifecycles.order.events.subscribe(touchRevisedOrder);
  lifecycles.order.events.subscribe(queueTranslation(queue));
  lifecycles.order.events.subscribe(tellAccountOfOrder({ mailer, addressLinks, pages }));
  lifecycles.order.events.subscribe(tellAccountOfShipment(mailer));
  lifecycles.booking.events.subscribe(auditTrail(audit));
  lifecycles.booking.events.subscribe(tellAccountOfBooking(mailer));
  // What the areas raise besides their lifecycles' events, each heard by the mail area in the raising transaction.
  const events = {
    accounts: new EventHub<AccountEvent>(),
    members: new EventHub<MemberEvent>(),
    signIn: new EventHub<SignInEvent>(),
    payments: new EventHub<PaymentActivity>(),
    orders: new EventHub<OrderActivity>(),
    bookings: new EventHub<BookingActivity>(),
    invoices: new EventHub<InvoiceEvent>(),
  };
  events.accounts.subscribe(tellAccountOfKey(mailer));
  events.members.subscribe(tellInvitee(mailer));
  events.signIn.subscribe(mailSignInCode(mailer));
  events.payments.subscribe(tellAccountOfPayment(mailer));
  events.orders.subscribe(tellOtherSideOfMessage({ mailer, pages }));
  events.orders.subscribe(tellDeskOfRevision({ mailer, pages }));
  events.bookings.subscribe(tellAccountOfBookingActivity(mailer));
  events.invoices.subscribe(tellAccountOfInvoice({ mailer, pages }));
  const payments = new PaymentService(createPaymentProvider(config.payment, config.appUrl), {
    audit,
    logger,
    owners: {
      order: orderPayments({
        lifecycle: lifecycles.order,
        events: events.payments,
        turnaroundHours: config.turnaroundHours,
      }),
      booking: bookingPayments({ lifecycle: lifecycles.booking, events: events.payments }),
    },
    onAccount: new AccountPaymentProvider(config.appUrl),
    placement: accountPlacement,
  });
  const orders = new OrderService({ payments, files, lifecycle: lifecycles.order, orderPrefix: config.orderPrefix });
  const engine = createTranslationEngine(config.translation, documents);
  const standardOffer = new StandardOffer({
    engine,
    languageName: (code) => catalog.findLanguage(code)?.name ?? code,
    logger,
    retrySeconds: config.translation.engine === 'deepl' ? config.translation.languagesRetrySeconds : undefined,
  });
  standardOffer.start();
  const members = new MemberService({ events: events.members, audit });
  const certificates = new CertificateService({
    files,
    documents,
    signer: createPdfSigner(config.signing),
    company: config.company,
    appUrl: config.appUrl,
  });
  const pdfKeys = [config.appKey, ...config.appKeyPrevious];
  return {
    config,
    documents,
    invoices: new InvoiceService({ audit, events: events.invoices }),
    invoiceLinks: new SignedPdfLinks(config.appUrl, pdfKeys, invoicePdfPath),
    receipts: new ReceiptService({
      appUrl: config.appUrl,
      links: new SignedPdfLinks(config.appUrl, pdfKeys, receiptPdfPath),
      payments,
      company: config.company,
    }),
    files,
    payments,
    idempotency: new IdempotencyService(),
    rateLimits: new RateLimitService(config.rateLimitPerMinute),
    bookings: new BookingService({
      catalog,
      payments,
      lifecycle: lifecycles.booking,
      events: events.bookings,
      logger,
      orderPrefix: config.orderPrefix,
      baseLanguage: config.baseLanguage,
    }),
    bookingDesk: new BookingDeskService({ lifecycle: lifecycles.booking, events: events.bookings }),
    interpreters: new InterpreterService({ audit, baseLanguage: config.baseLanguage }),
    orders,
    revisions: new OrderRevisionsService({
      orders,
      files,
      events: events.orders,
      orderPrefix: config.orderPrefix,
      turnaroundHours: config.turnaroundHours,
    }),
    certificates,
    retention: new RetentionService({ files, audit, queue, logger }),
    certifiedReview: new CertifiedReviewService({
      files,
      orders,
      certificates,
      pending: new PendingCertificates({ processId: claim.id, liveProcesses: liveProcessIds, logger }),
    }),
    orderDesk: new OrderDeskService({ lifecycle: lifecycles.order }),
    orderMessages: new OrderMessageService({ lifecycle: lifecycles.order, events: events.orders }),
    shipping: new OrderShippingService({ orders }),
    addressLinks,
    translation: new TranslationService({ engine, storage, files, orders, logger }),
    quotes: new QuoteService({ catalog, files, standard: standardOffer, ttlDays: config.quoteTtlDays }),
    standardOffer,
    audit,
    authentication: new AuthenticationService(config.env),
    catalog,
    accounts: new AccountService({ env: config.env, events: events.accounts, audit }),
    staff: new StaffService({ audit }),
    members,
    // Staff first: an e-mail is one identity (D36), and where older rows still hold one twice, a staff member's
    // sign-in never lands in a client account.
    signIn: new SignInService({
      appKey: config.appKey,
      events: events.signIn,
      directories: [new StaffSessions(), members],
    }),
    sentEmails: new SentEmailService({ env: config.env }),
    mailDelivery,
    events,
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * The outbox (D17): the sandbox keeps its messages; production seals each one and queues its delivery over SMTP.
 * nodemailer is loaded only then.
 */
function createMail(
  config: AppConfig,
  queue: JobQueue,
  logger: Logger,
): { mailer: Mailer; mailDelivery?: MailDeliveryService } {
  const { mail } = config;
  if (mail.driver !== 'smtp') return { mailer: new OutboxMailer(mail.from) };
  const { SmtpTransport } =
    require('./providers/mail/smtp-transport') as typeof import('./providers/mail/smtp-transport');
  const seal = new TextSeal(SENT_EMAIL_SEAL, config.appKey, config.appKeyPrevious);
  return {
    mailer: new OutboxMailer(mail.from, { queue, seal }),
    mailDelivery: new MailDeliveryService({ transport: new SmtpTransport(mail.url), seal, queue, logger }),
  };
}
