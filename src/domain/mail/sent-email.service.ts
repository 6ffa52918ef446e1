import type { AppEnv } from '../../config/app-config';
import { NotFoundError } from '../../shared/errors';
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
    return this.page(ctx, command);
  }

  /**
   * `/sandbox/mail` (docs/decisions.md D34): the outbox to anyone with a browser, so a person trying the sandbox can
   * read a sign-in code or a client's e-mail. There is no such page outside the sandbox.
   */
  async sandboxOutbox(ctx: Ctx, command: ListSentEmails): Promise<Page<SentEmail>> {
    if (this.deps.env !== 'sandbox') throw new NotFoundError();
    return this.page(ctx, command);
  }

  private page(ctx: Ctx, command: ListSentEmails): Promise<Page<SentEmail>> {
    const { to } = command;
    const where = to ? { to: to.toLowerCase() } : {};
    return paginate(ctx.em, SentEmail, where, pageRequest(command), { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Outside the sandbox the text is sealed until delivery, then blanked (D17): a key e-mail holds the key. */
  textOf(mail: SentEmail): string | null {
    return this.deps.env === 'sandbox' ? mail.text : null;
  }
}
