import { listOrderMessagesCommand, postOrderMessageCommand } from '../../../domain/orders/order-message.commands';
import { created, dataOf, json, listOf, pageDocs, ref, responseRef } from './components';
import { exampleOrderMessage, exampleOrderMessageRequest, examplePage } from './examples';
import { queryParameters, requestBodySchema } from './request-schema';

const orderId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: ref('Id'),
  description: 'Order id, as answered when it was made.',
};

export const orderMessageSchemas = {
  OrderMessageRequest: requestBodySchema(postOrderMessageCommand, {
    text: 'The message, plain text, 1 to 4,000 characters after trimming.',
  }),
};

/** D30: an order's conversation with the operator's desk. */
export const orderMessagePaths = {
  '/orders/{id}/messages': {
    get: {
      operationId: 'listOrderMessages',
      tags: ['Orders'],
      summary: "Read an order's conversation with the operator, newest first",
      description:
        "The messages between the account and the operator's staff about one order, newest first, a page at a time. Another account's order is 404.",
      parameters: [orderId, ...queryParameters(listOrderMessagesCommand, pageDocs)],
      responses: {
        200: json(
          listOf(ref('OrderMessage')),
          'One page of messages.',
          examplePage('/orders/9b7c5d3e-1f2a-4b4c-8d6e-7f8a9b0c1d2e/messages', exampleOrderMessage),
        ),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
      },
    },
    post: {
      operationId: 'postOrderMessage',
      tags: ['Orders'],
      summary: 'Write to the operator about an order',
      description:
        'Adds a message to the conversation of one of your orders, in any status; the operator is e-mailed it. A viewer may not write (403). ' +
        'When the operator put the order on hold to wait for your answer (`status` `on_hold`, `hold_reason` `awaiting_client`), this message resumes it ' +
        'where it was held. Empty text, or more than 4,000 characters, is 422 under `text`.',
      parameters: [orderId],
      requestBody: {
        required: true,
        description: 'The message.',
        content: { 'application/json': { schema: ref('OrderMessageRequest'), example: exampleOrderMessageRequest } },
      },
      responses: {
        201: created(
          dataOf(ref('OrderMessage'), 'The message written.'),
          'The message, written; `Location` is the conversation it is read in.',
          { data: exampleOrderMessage },
          '/orders/{id}/messages',
        ),
        401: responseRef('Unauthenticated'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
        422: responseRef('ValidationFailed'),
      },
    },
  },
};
