import type { TestAccount } from './fixtures';
import type { JsonAnswer } from './json-answer';
import { pollUntil } from './poll';
import type { TestApp } from './test-app';

/** A quote for `fileIds` (Spanish to English unless `extra` says otherwise), converted: the order, waiting for payment. */
export async function unpaidOrder(
  t: TestApp,
  account: TestAccount,
  fileIds: string[],
  serviceType = 'standard',
  extra: object = {},
): Promise<{ id: string; number: string; approvalUrl: string }> {
  const quote = (
    await t.rest
      .post(
        '/api/v1/quotes',
        { source_language: 'es', target_language: 'en', service_type: serviceType, file_ids: fileIds, ...extra },
        account.key,
      )
      .expect(201)
  ).body as { data: { id: string } };
  const converted = (await t.rest.post(`/api/v1/quotes/${quote.data.id}/convert`, undefined, account.key).expect(201))
    .body as {
    data: { id: string; number: string };
    provider_approval_url: string;
  };
  const { id, number } = converted.data;
  return { id, number, approvalUrl: converted.provider_approval_url };
}

/** `unpaidOrder`, paid at the sandbox checkout: the order's id. */
export async function paidOrder(
  t: TestApp,
  account: TestAccount,
  fileIds: string[],
  serviceType = 'standard',
  extra: object = {},
): Promise<string> {
  const order = await unpaidOrder(t, account, fileIds, serviceType, extra);
  await t.rest
    .raw()
    .post(`${order.approvalUrl.replace(t.config.appUrl, '')}/pay`)
    .type('form')
    .send({})
    .expect(200);
  return order.id;
}

/** Polls GET /orders/{id} as a client would until the order reaches one of `statuses`, or fails at the deadline. */
export async function waitForStatus(
  t: TestApp,
  account: TestAccount,
  id: string,
  statuses: string | string[],
  timeoutMs = 30_000,
): Promise<JsonAnswer> {
  const wanted = Array.isArray(statuses) ? statuses : [statuses];
  return pollUntil(
    async () =>
      ((await t.rest.get(`/api/v1/orders/${id}`, account.key).expect(200)).body as { data: { status: string } }).data,
    (order) => wanted.includes(order.status),
    {
      timeoutMs,
      intervalMs: 150,
      failure: (order) => `order ${id} is still ${order.status}, not ${wanted.join(' or ')}`,
    },
  );
}
