import type { Mailer } from '../../providers/mail/mailer';
import type { SignInEvent } from '../sign-in/sign-in.events';
import type { Subscriber } from '../shared/event-hub';
import { signInCodeEmail } from './messages';

/** A sign-in code is e-mailed to the address it was asked for, the only place it is shown (D27). */
export function mailSignInCode(mailer: Mailer): Subscriber<SignInEvent> {
  return (em, { email, code, validMinutes }) => mailer.send(em, signInCodeEmail(email, code, validMinutes));
}
