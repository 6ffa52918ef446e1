import type { OutgoingEmail } from '../../providers/mail/mailer';
import type { Account } from '../accounts/account.entity';

/** The key is written here and nowhere else; this message is the only place it is ever shown (D13). */
export function apiKeyEmail(account: Account, apiKey: string, reason: 'approved' | 'regenerated'): OutgoingEmail {
  const intro =
    reason === 'approved'
      ? 'Your account has been approved. Here is your API key.'
      : 'A new API key was issued for your account. The previous key no longer works.';
  return {
    kind: 'api_key',
    to: account.email,
    subject: reason === 'approved' ? 'Your API key' : 'Your new API key',
    text: [
      `Hello ${account.name},`,
      '',
      intro,
      '',
      `    ${apiKey}`,
      '',
      'Send it as "Authorization: Bearer <key>" with every request. Keep it secret: it will not be shown again.',
    ].join('\n'),
  };
}
