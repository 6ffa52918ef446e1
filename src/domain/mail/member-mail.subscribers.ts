import type { Mailer } from '../../providers/mail/mailer';
import type { MemberEvent } from '../members/member.events';
import type { Subscriber } from '../shared/event-hub';
import { memberInvitationEmail } from './messages';

/** The invitee hears of the invitation at the address they will sign in with (D27). */
export function tellInvitee(mailer: Mailer): Subscriber<MemberEvent> {
  return (em, { account, member, invitedBy }) => mailer.send(em, memberInvitationEmail(account, member, invitedBy));
}
