import type { Mailer } from '../../providers/mail/mailer';
import type { OrderActivity } from '../orders/order-activity';
import type { Subscriber } from '../shared/event-hub';
import { orderClientAddresses, orderDeskAddresses } from './order-addresses';
import { clientMessageEmail, staffMessageEmail } from './order-message-mail';
import type { PageLinks } from './page-links';

/**
 * Each message of an order's conversation is e-mailed to the other side (D30): the client's to the desk, linking to
 * the console's order; staff's to the client, linking to the portal's.
 */
export function tellOtherSideOfMessage(deps: { mailer: Mailer; pages: PageLinks }): Subscriber<OrderActivity> {
  const { mailer, pages } = deps;
  return async (em, event) => {
    if (event.kind === 'client_wrote') {
      const { order, message, accountName, released } = event;
      const { authorName, text } = message;
      const facts = { order, authorName, text, accountName, page: pages.consoleOrder(order.number) };
      for (const to of await orderDeskAddresses(em, order.assignee?.id))
        await mailer.send(em, clientMessageEmail(to, facts, { released }));
    } else if (event.kind === 'staff_wrote') {
      const { order, message, waitsForClient } = event;
      const { authorName, text } = message;
      const facts = { order, authorName, text, page: pages.portalOrder(order.id) };
      for (const to of await orderClientAddresses(em, order))
        await mailer.send(em, staffMessageEmail(to, facts, { waiting: waitsForClient }));
    }
  };
}
