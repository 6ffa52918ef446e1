import { AccountStatus, type Account } from '../../../domain/identity/account.entity';
import type { AccountJson } from '../responses/account.response';
import { formatOptionalTimestamp, formatTimestamp } from '../../format';

/** The calling account as `GET /me` shows it: the key itself never appears, only its last four characters. */
export const serializeAccount = (account: Account): AccountJson => ({
  id: account.id,
  name: account.name,
  email: account.email,
  // Only an approved account's key gets this far: another's answers 403 first (D13).
  status: AccountStatus.APPROVED,
  api_key_last4: account.apiKeyLast4,
  api_key_issued_at: formatOptionalTimestamp(account.apiKeyIssuedAt),
  approved_at: formatOptionalTimestamp(account.approvedAt),
  // D33: an added field; admin members change it in GraphQL (`setRetention`).
  retention_days: account.retentionDays,
  created_at: formatTimestamp(account.createdAt),
});
