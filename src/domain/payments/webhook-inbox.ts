import type { EntityManager } from '@mikro-orm/core';
import { recordWebhookEvent } from './webhook-events.queries';
import type { WebhookHeaders } from '../../providers/payment/payment-provider';
import { ValidationError } from '../../shared/errors';
import type { PaymentService } from './payment.service';
import { WebhookEvent } from './webhook-event.entity';

export type WebhookOutcome = 'handled' | 'duplicate' | 'ignored';

/**
 * Provider webhooks, whatever the provider (D9, D26): verified and named by the provider, recorded, then
 * processed through the same idempotent payment steps as the return path. An event is acknowledged as a
 * duplicate only once its processing succeeded; a failed one (provider down) answers 503 and its redelivery
 * runs it again.
 */
export class WebhookInbox {
  constructor(private readonly payments: PaymentService) {}

  async receive(em: EntityManager, headers: WebhookHeaders, rawBody: Buffer): Promise<WebhookOutcome> {
    const event = await this.payments.provider.parseWebhook(headers, rawBody);
    if (!event) throw ValidationError.of('webhook', 'Invalid webhook signature.');
    await recordWebhookEvent(em, {
      provider: this.payments.provider.name,
      eventId: event.eventId,
      eventType: event.kind,
    });
    const recorded = await em
      .fork()
      .findOneOrFail(WebhookEvent, { provider: this.payments.provider.name, eventId: event.eventId });
    if (recorded.processedAt) return 'duplicate';
    if (event.kind !== 'ignored') await this.payments.applyEvent(em, event);
    await em.nativeUpdate(WebhookEvent, { id: recorded.id }, { processedAt: new Date() });
    return event.kind === 'ignored' ? 'ignored' : 'handled';
  }
}
