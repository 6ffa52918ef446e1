import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { Account, AccountStatus } from '../../src/domain/identity/account.entity';
import { Booking } from '../../src/domain/bookings/booking.entity';
import { BillingUnit, InterpretationMode, ServiceType } from '../../src/domain/catalog/catalog.enums';
import { FileAttachment } from '../../src/domain/files/file-attachment.entity';
import { StoredFile } from '../../src/domain/files/file.entity';
import { PLACED_BY_API_KEY } from '../../src/domain/identity/placed-by';
import { Order } from '../../src/domain/orders/order.entity';
import { Payment } from '../../src/domain/payments/payment.entity';
import type { PaymentRead } from '../../src/domain/payments/payment-read';
import { Quote } from '../../src/domain/quotes/quote.entity';

/**
 * Rows written straight through the entities, for the tests of the areas' queries (`src/domain/<area>/*.queries.ts`): each with what its table requires
 * and `fields` over it, flushed at once.
 */

const unique = () => randomBytes(5).toString('hex');

async function saved<T extends object>(em: EntityManager, entity: T): Promise<T> {
  await em.persist(entity).flush();
  return entity;
}

export const insertAccount = (em: EntityManager, fields: Partial<Account> = {}): Promise<Account> => {
  const n = unique();
  return saved(
    em,
    Object.assign(
      new Account(),
      { name: `Firm ${n}`, email: `firm-${n}@example.test`, status: AccountStatus.APPROVED },
      fields,
    ),
  );
};

export const insertFile = (
  em: EntityManager,
  account: Account,
  fields: Partial<StoredFile> = {},
): Promise<StoredFile> =>
  saved(
    em,
    Object.assign(
      new StoredFile(),
      {
        account,
        name: `${unique()}.pdf`,
        mimeType: 'application/pdf',
        sizeBytes: 1,
        sha256: '0'.repeat(64),
        storageKey: unique(),
      },
      fields,
    ),
  );

const work = {
  placedBy: PLACED_BY_API_KEY,
  serviceType: ServiceType.STANDARD,
  sourceLanguage: 'es',
  targetLanguage: 'en',
  unitType: BillingUnit.WORD,
  unitCount: 100,
  subtotalCents: 1500,
  addonsTotalCents: 0,
  totalCents: 1500,
  currency: 'USD',
};

const payment = (fields: Partial<Payment> = {}) =>
  Object.assign(
    new Payment(),
    { provider: 'sandbox', description: 'Translation', amountCents: 1500, currency: 'USD' },
    fields,
  );

export const insertQuote = (em: EntityManager, account: Account, fields: Partial<Quote> = {}): Promise<Quote> =>
  saved(
    em,
    Object.assign(
      new Quote(),
      work,
      { account, fileIds: [], unitPriceCents: 15, expiresAt: new Date(Date.now() + 86_400_000) },
      fields,
    ),
  );

/** An order, with a quote and a payment of its own (which names the order as its owner). */
export async function insertOrder(em: EntityManager, account: Account, fields: Partial<Order> = {}): Promise<Order> {
  const quote = await insertQuote(em, account);
  const order = new Order();
  const owned = payment({ owner: { type: 'order', id: order.id } });
  return saved(em, Object.assign(order, work, { number: `LT-${unique()}`, account, quote, payment: owned }, fields));
}

/** A booking, with a payment when `paid` is given (its fields), which names the booking as its owner. */
export function insertBooking(
  em: EntityManager,
  account: Account,
  fields: Partial<Booking> = {},
  paid?: Partial<Payment>,
): Promise<Booking> {
  const booking = new Booking();
  return saved(
    em,
    Object.assign(
      booking,
      {
        number: `IB-${unique()}`,
        account,
        sourceLanguage: 'es',
        targetLanguage: 'en',
        mode: InterpretationMode.VIDEO_REMOTE,
        scheduledAt: new Date(Date.now() + 7 * 86_400_000),
        durationHundredths: 200,
        billableHundredths: 200,
        unitPriceCents: 9000,
        totalCents: 18000,
        currency: 'USD',
        placedBy: PLACED_BY_API_KEY,
        payment: paid ? payment({ owner: { type: 'booking', id: booking.id }, ...paid }) : null,
      },
      fields,
    ),
  );
}

/** `file` attached to a quote or an order, at `createdAt` (now unless given). */
export const insertAttachment = (
  em: EntityManager,
  file: StoredFile,
  owner: { quote: Quote } | { order: Order },
  createdAt = new Date(),
): Promise<FileAttachment> => saved(em, Object.assign(new FileAttachment(), { file, createdAt }, owner));

/** What an answer shows of a payment (the OpenAPI `Payment` schema), as the polled reads map it. */
export const paymentRead = ({
  id,
  provider,
  providerOrderId,
  approvalUrl,
  paidAt,
  refundedAt,
  refundedCents,
}: Payment): PaymentRead => ({
  id,
  provider,
  providerOrderId,
  approvalUrl,
  paidAt,
  refundedAt,
  refundedCents,
});
