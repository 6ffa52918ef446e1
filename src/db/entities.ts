import { Account } from '../domain/identity/account.entity';
import { Invoice, InvoiceCounter } from '../domain/billing/invoice.entity';
import { AuditEntry } from '../domain/audit/audit-entry.entity';
import { BookingNote } from '../domain/bookings/booking-note.entity';
import { Booking } from '../domain/bookings/booking.entity';
import { Interpreter } from '../domain/bookings/interpreter.entity';
import { Addon, InterpretationRate, ServiceRate } from '../domain/catalog/rates.entity';
import { FileAttachment } from '../domain/files/file-attachment.entity';
import { StoredFile } from '../domain/files/file.entity';
import { SentEmail } from '../domain/mail/sent-email.entity';
import { IdempotencyKey } from '../domain/idempotency/idempotency-key.entity';
import { IssuedCertificate } from '../domain/certification/issued-certificate.entity';
import { Notarization } from '../domain/certification/notarization.entity';
import { PendingCertificate } from '../domain/certification/pending-certificate.entity';
import { OrderNote } from '../domain/orders/order-note.entity';
import { OrderMessage } from '../domain/orders/order-message.entity';
import { OrderCount, OrderCountChange } from '../domain/orders/order-count.entity';
import { Order } from '../domain/orders/order.entity';
import { TranslationReview } from '../domain/certification/translation-review.entity';
import { PaymentRefund } from '../domain/payments/payment-refund.entity';
import { StaffRefund } from '../domain/payments/staff-refund.entity';
import { Payment } from '../domain/payments/payment.entity';
import { WebhookEvent } from '../domain/payments/webhook-event.entity';
import { Quote } from '../domain/quotes/quote.entity';
import { RateLimitCount } from '../domain/rate-limits/rate-limit-count.entity';
import { StorageIntent } from '../domain/files/storage-intent.entity';
import { StaffUser } from '../domain/identity/staff-user.entity';
import { EngineRequest } from '../domain/translation/engine-request.entity';
import { AccountMember } from '../domain/identity/member.entity';
import { Session } from '../domain/sign-in/session.entity';
import { SignInCode } from '../domain/sign-in/sign-in-code.entity';

/** Every entity, listed rather than discovered by folder scan, so a build and a test see the same set. */
export const ENTITIES = [
  Account,
  StaffUser,
  AuditEntry,
  SentEmail,
  ServiceRate,
  Addon,
  InterpretationRate,
  StoredFile,
  FileAttachment,
  Quote,
  Payment,
  PaymentRefund,
  Invoice,
  InvoiceCounter,
  StaffRefund,
  Order,
  OrderCount,
  OrderCountChange,
  IdempotencyKey,
  WebhookEvent,
  Booking,
  Interpreter,
  BookingNote,
  RateLimitCount,
  TranslationReview,
  OrderNote,
  OrderMessage,
  Notarization,
  IssuedCertificate,
  PendingCertificate,
  EngineRequest,
  StorageIntent,
  AccountMember,
  SignInCode,
  Session,
];
