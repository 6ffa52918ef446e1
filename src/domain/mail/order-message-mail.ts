import type { OutgoingEmail } from '../../providers/mail/mailer';

/*
 * D30: each message of an order's conversation is e-mailed to the other side. The text is the writer's, untrusted:
 * these are plain-text e-mails, where it is inert, and it stays out of the subject (a header), which names only the
 * order. Each links to the page where its reader answers (`page`: the portal's order for the client, the console's for
 * staff), never to the API.
 */

/** What a message e-mail says of its order and its message. */
interface MessageFacts {
  order: { number: string; instructions: string | null };
  authorName: string;
  text: string;
  /** Where the reader answers. */
  page: string;
}

/** The message as it is quoted in an e-mail: after who wrote it, set apart by blank lines. */
const quoted = ({ order, authorName, text }: MessageFacts) => [
  `${authorName} wrote about order ${order.number}:`,
  '',
  text,
  '',
];

/** To the account (and the member who placed the order): the desk wrote, and whether the order now waits for them. */
export function staffMessageEmail(to: string, facts: MessageFacts, { waiting }: { waiting: boolean }): OutgoingEmail {
  return {
    kind: 'order_message',
    to,
    subject: `Order ${facts.order.number}: ${waiting ? 'we need your answer' : 'a message from us'}`,
    text: [
      'Hello,',
      '',
      ...quoted(facts),
      ...(waiting ? [`Order ${facts.order.number} is on hold until you answer; your answer resumes it.`] : []),
      `Answer on the order's page in the client portal: ${facts.page}`,
    ].join('\n'),
  };
}

/**
 * To the staff member the order is assigned to, or the desk: the client wrote. The order's instructions come with it,
 * as in every e-mail to staff about an order; `released` says the answer resumed an order waiting for it.
 */
export function clientMessageEmail(
  to: string,
  facts: MessageFacts & { accountName: string },
  { released }: { released: string | null },
): OutgoingEmail {
  return {
    kind: 'order_message',
    to,
    subject: `Order ${facts.order.number}: a message from the client`,
    text: [
      'Hello,',
      '',
      ...quoted({ ...facts, authorName: clientName(facts) }),
      ...(released ? [`The order was waiting for this answer: it is ${released} again.`, ''] : []),
      ...instructionLines(facts.order),
      `Answer on the order's page in the staff console: ${facts.page}`,
    ].join('\n'),
  };
}

/** The member and their firm, or the firm alone when it wrote with its API key. */
const clientName = ({ authorName, accountName }: { authorName: string; accountName: string }) =>
  authorName === accountName ? accountName : `${authorName} (${accountName})`;

/** The client's instructions to the translator (D30), in e-mails to staff about the order; nothing when there are none. */
export const instructionLines = (order: { instructions: string | null }): string[] =>
  order.instructions ? ['Instructions from the client:', '', order.instructions, ''] : [];
