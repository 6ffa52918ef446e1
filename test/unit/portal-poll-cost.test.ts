import 'reflect-metadata';
import { Kind, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { queryCost } from '../../src/api/graphql/query-cost';
import { buildGraphQLSchema } from '../../src/api/graphql/schema';
import { loadConfig } from '../../src/config/load-config';
import {
  PortalBookingMarkDocument,
  PortalBookingChangesDocument,
  PortalOrderMarkDocument,
  PortalOrderChangesDocument,
} from '../../src/web/shared/gql/graphql';
import { CHANGES_PER_POLL, POLL_MS } from '../../src/web/portal/poll-rate';

/**
 * The portal's screens poll all day within the member session's own budget (D24, D27): each poll's requested cost
 * must leave room for the person's work, and a minute of polls of the orders list and an order's page together must
 * spend well under the default budget, even at the most each poll can answer.
 */
let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildGraphQLSchema();
});

const costOf = (document: DocumentNode, variables: Record<string, unknown>) =>
  queryCost({
    schema,
    document,
    operation: document.definitions.find(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    )!,
    variables,
  }).requested;

it("prices each poll at a few units, and a minute of the list and an order's page open together at half the default budget at most", () => {
  const budget = loadConfig({}).rateLimitPerMinute;
  const changes = { updatedSince: '2026-11-28T10:00:00Z', perPage: CHANGES_PER_POLL };
  const polls = {
    orders: costOf(PortalOrderChangesDocument, changes),
    bookings: costOf(PortalBookingChangesDocument, changes),
    order: costOf(PortalOrderMarkDocument, { id: 'x' }),
    booking: costOf(PortalBookingMarkDocument, { id: 'x' }),
  };
  expect(polls).toEqual({ orders: 1 + CHANGES_PER_POLL, bookings: 1 + CHANGES_PER_POLL, order: 3, booking: 1 });
  // Each is asked of a budget the person's own work shares: a tenth of it at most.
  for (const cost of Object.values(polls)) expect(cost).toBeLessThanOrEqual(budget / 10);
  // Idle, a list poll answers its page and no item, an order's page its mark: a minute of both screens open.
  const perMinute = (60_000 / POLL_MS) * (1 + 1 + polls.order);
  expect(perMinute).toBeLessThanOrEqual(budget / 2);
});
