import type { MikroORM } from '@mikro-orm/postgresql';
import { foldOrderCounts } from './domain/orders/order-counts.queries';
import type { JobQueue } from './jobs/job-queue';
import type { Services } from './services';

/** The job wiring, beside main.ts: every job handler of this process, each job in its own EntityManager fork. */
export async function startWorkers(queue: JobQueue, orm: MikroORM, services: Services): Promise<void> {
  services.documents.warm();
  await queue.work<{ fileId: string }>('analyse-file', ({ fileId }) =>
    services.files.analysePending(orm.em.fork(), fileId),
  );
  await queue.work<{ orderId: string }>('translate-order', ({ orderId }, attempt) =>
    services.translation.translateOrder(orm.em.fork(), orderId, attempt),
  );
  await queue.work<{ orderId: string }>('translate-order-given-up', ({ orderId }) =>
    services.translation.giveUp(orm.em.fork(), orderId),
  );
  const { mailDelivery } = services;
  if (mailDelivery) {
    await queue.work<{ emailId: string }>('deliver-email', ({ emailId }, attempt) =>
      mailDelivery.deliver(orm.em.fork(), emailId, attempt),
    );
    await queue.every('abandoned-mail-sweep', '*/10 * * * *', () => mailDelivery.abandonStale(orm.em.fork()));
  }
  // Periodic tasks (D37): one line each, a queue name and a cron schedule; each tick runs once across all processes.
  // Captures and refunds whose provider answer was lost (a crash, an outage) are asked again (D26).
  await queue.every('payment-reconciliation', '* * * * *', () => services.payments.reconcile(orm.em.fork()));
  // Order list totals are read from counts the database keeps; their recorded changes are added up each minute.
  await queue.every('order-count-fold', '* * * * *', () => foldOrderCounts(orm.em.fork()));
  // Unpaid bookings whose start passed are cancelled and their accounts told (D29).
  await queue.every('booking-expiry', '* * * * *', () => services.bookings.expireStarted(orm.em.fork()));
  // Decided deletions of documents whose bytes are not all gone yet (D33); retried with backoff while storage fails.
  await queue.work('purge-files', async () => void (await services.retention.finishUnfinished(orm.em.fork())));
  // Documents of orders finished longer ago than their account's retention period are deleted, at 03:17 (D33).
  await queue.every('document-retention', '17 3 * * *', () => services.retention.purgeExpired(orm.em.fork()));
  // D31: each month's work on account is invoiced at the start of the next (UTC; run daily, so a failed run is caught
  // up the next day: a second close of a month adds nothing); overdue invoices are told once.
  await queue.every('invoice-close', '5 0 * * *', () => services.invoices.closeMonth(orm.em.fork()));
  await queue.every('invoice-overdue', '15 * * * *', () => services.invoices.notifyOverdue(orm.em.fork()));
  await queue.forgetOtherSchedules();
}
