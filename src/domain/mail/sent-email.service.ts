import type { AppEnv } from '../../config/app-config';
import { requireStaff } from '../identity/guards';
import type { Ctx } from '../identity/context';
import { Page, pageRequest, paginate } from '../shared/pagination';
import type { ListSentEmails } from './sent-email.commands';
import { SentEmail } from './sent-email.entity';

/** Reads the outbox for staff (`sentEmails`, D28): every message and its delivery state; its text in the sandbox only. */
export class SentEmailService {
  constructor(private readonly deps: { env: AppEnv }) {}

  /** Newest first; for one address when asked. */
  async list(ctx: Ctx, command: ListSentEmails): Promise<Page<SentEmail>> {
    requireStaff(ctx.actor, 'sentEmails');
    const { to } = command;
    const where = to ? { to: to.toLowerCase() } : {};
    return paginate(ctx.em, SentEmail, where, pageRequest(command), { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Outside the sandbox the text is sealed until delivery, then blanked (D17): a key e-mail holds the key. */
  textOf(mail: SentEmail): string | null {
    return this.deps.env === 'sandbox' ? mail.text : null;
  }
}
