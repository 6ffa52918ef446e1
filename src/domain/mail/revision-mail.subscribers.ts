import type { Mailer } from '../../providers/mail/mailer';
import { accountOf } from '../identity/account-of';
import type { OrderActivity } from '../orders/order-activity';
import type { Subscriber } from '../shared/event-hub';
import { orderDeskAddresses } from './order-addresses';
import type { PageLinks } from './page-links';
import { revisionRequestedEmail } from './revision-mail';

/** The desk hears of a revision asked for (D30): whoever had the original, or everyone at the desk. */
export function tellDeskOfRevision(deps: { mailer: Mailer; pages: PageLinks }): Subscriber<OrderActivity> {
  return async (em, event) => {
    if (event.kind !== 'revision_requested') return;
    const { original, revision, reason, referenceFiles } = event;
    const { name: accountName } = await accountOf(em, original);
    const facts = {
      original,
      revision,
      accountName,
      reason,
      referenceFiles,
      page: deps.pages.consoleOrder(revision.number),
    };
    for (const to of await orderDeskAddresses(em, original.assignee?.id))
      await deps.mailer.send(em, revisionRequestedEmail(to, facts));
  };
}
