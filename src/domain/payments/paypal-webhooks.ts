import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { PayPalPaymentProvider, PayPalWebhookHeaders } from '../../providers/payment/paypal-payment-provider';
import { ValidationError } from '../shared/errors';
import type { PaymentService } from './payment.service';
import { WebhookEvent } from './webhook-event.entity';

interface PayPalEvent {
  id?: unknown;
  event_type?: unknown;
  resource?: { id?: string; supplementary_data?: { related_ids?: { order_id?: string } } };
}

export type WebhookOutcome = 'handled' | 'duplicate' | 'ignored';

/**
 * PayPal's webhooks (D9): verified by PayPal, deduplicated by event id, then routed to the same idempotent
 * confirmation the return path uses. An event that fails verification changes nothing.
 */
export class PayPalWebhooks {
  constructor(
    private readonly provider: PayPalPaymentProvider,
    private readonly payments: PaymentService,
  ) {}

  async handle(em: EntityManager, headers: PayPalWebhookHeaders, event: PayPalEvent): Promise<WebhookOutcome> {
    if (typeof event?.id !== 'string' || typeof event.event_type !== 'string') throw invalid();
    if (!(await this.provider.verifyWebhook(headers, event))) throw invalid();
    const resource = event.resource ?? {};
    const orderId = event.event_type.startsWith('PAYMENT.CAPTURE.') ? resource.supplementary_data?.related_ids?.order_id : resource.id;
    return em.transactional(async (tx) => {
      try {
        await tx.insert(Object.assign(new WebhookEvent(), { provider: 'paypal', eventId: event.id, eventType: event.event_type }));
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) return 'duplicate' as const;
        throw error;
      }
      if (!orderId) return 'ignored' as const;
      switch (event.event_type) {
        case 'CHECKOUT.ORDER.APPROVED':
          await this.payments.confirm(tx, orderId).catch(ignoreRefusal);
          return 'handled' as const;
        case 'PAYMENT.CAPTURE.COMPLETED':
          await this.payments.confirm(tx, orderId, { captureId: resource.id! }).catch(ignoreRefusal);
          return 'handled' as const;
        case 'PAYMENT.CAPTURE.REVERSED':
        case 'PAYMENT.CAPTURE.REFUNDED':
          await this.payments.reversed(tx, orderId, `Payment ${event.event_type === 'PAYMENT.CAPTURE.REVERSED' ? 'reversed' : 'refunded'} at PayPal`);
          return 'handled' as const;
        default:
          // PAYMENT.CAPTURE.DENIED and anything else: the order simply stays unpaid.
          return 'ignored' as const;
      }
    });
  }
}

const invalid = () => ValidationError.of('webhook', 'Invalid webhook signature.');

/** A declined or closed checkout is an answer, not a failure to redeliver: acknowledge the event. */
function ignoreRefusal(error: unknown): void {
  if (!(error instanceof ValidationError)) throw error;
}
