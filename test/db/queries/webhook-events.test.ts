import { recordWebhookEvent } from '../../../src/domain/payments/webhook-events.queries';
import { WebhookEvent } from '../../../src/domain/payments/webhook-event.entity';
import { openQueryDatabase, type QueryDatabase } from '../../helpers/query-database';

let db: QueryDatabase;
beforeAll(async () => (db = await openQueryDatabase()));
afterAll(() => db.close());

it("records a provider's event once: a redelivery leaves the first record, processed or not, as it was", async () => {
  const event = { provider: 'paypal', eventId: 'WH-1', eventType: 'captured' };
  await recordWebhookEvent(db.em(), event);
  const first = await db.em().findOneOrFail(WebhookEvent, { provider: 'paypal', eventId: 'WH-1' });
  await db.em().nativeUpdate(WebhookEvent, { id: first.id }, { processedAt: new Date() });
  await recordWebhookEvent(db.em(), { ...event, eventType: 'approved' });
  await recordWebhookEvent(db.em(), { ...event, provider: 'other' });
  const recorded = await db.em().find(WebhookEvent, { eventId: 'WH-1' }, { orderBy: { provider: 'asc' } });
  expect(
    recorded.map(({ provider, eventType, processedAt }) => ({ provider, eventType, processed: processedAt !== null })),
  ).toEqual([
    { provider: 'other', eventType: 'captured', processed: false },
    { provider: 'paypal', eventType: 'captured', processed: true },
  ]);
});
