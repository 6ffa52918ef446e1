import type { OutgoingEmail } from '../../providers/mail/mailer';
import { instructionLines } from './order-message-mail';

/** What a revision request e-mail says: the order revised, its revision, who asked and why (D30). */
interface RevisionFacts {
  original: { number: string; instructions: string | null };
  revision: { number: string; status: string };
  accountName: string;
  reason: string;
  referenceFiles: number;
  /** The revision's page in the staff console. */
  page: string;
}

/**
 * To the staff member who had the original, or the desk: a client asked for a free revision (D30). The reason is the
 * client's, untrusted: a plain-text e-mail, where it is inert, and out of the subject, which names only the orders.
 */
export function revisionRequestedEmail(to: string, facts: RevisionFacts): OutgoingEmail {
  return {
    kind: 'revision_requested',
    to,
    subject: `Order ${facts.original.number}: revision ${facts.revision.number} requested`,
    text: [
      'Hello,',
      '',
      `${facts.accountName} asked for a revision of order ${facts.original.number}. Why:`,
      '',
      facts.reason,
      '',
      `The revision is order ${facts.revision.number}, now ${facts.revision.status.replace('_', ' ')}` +
        (facts.referenceFiles ? `, with ${facts.referenceFiles} reference file(s) from the client.` : '.'),
      '',
      ...instructionLines(facts.original),
      `Open it in the staff console: ${facts.page}`,
    ].join('\n'),
  };
}
