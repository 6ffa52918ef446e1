import type { AppEnv } from '../../config/app-config';
import { requireStaff } from '../accounts/authentication.service';
import type { Ctx } from '../shared/context';
import { Page, paginate, readPageRequest } from '../shared/pagination';
import { Validator } from '../shared/validation';
import { SentEmail } from './sent-email.entity';

/** Reads the outbox for staff (`sentEmails`, D28): every message and its delivery state; its text in the sandbox only. */
export class SentEmailService {
  constructor(private readonly deps: { env: AppEnv }) {}

  /** Newest first; for one address when asked. */
  async list(ctx: Ctx, query: { to?: string; page?: unknown; per_page?: unknown }): Promise<Page<SentEmail>> {
    requireStaff(ctx.actor, 'sentEmails');
    const v = new Validator(query);
    const to = v.string('to', { max: 254 });
    const page = readPageRequest(v);
    v.done();
    const where = to ? { to: to.toLowerCase() } : {};
    return paginate(ctx.em, SentEmail, where, page, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }

  /** Outside the sandbox the text is sealed until delivery, then blanked (D17): a key e-mail holds the key. */
  textOf(mail: SentEmail): string | null {
    return this.deps.env === 'sandbox' ? mail.text : null;
  }
}
