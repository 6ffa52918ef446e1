import { requireStaff } from '../accounts/authentication.service';
import type { Ctx } from '../shared/context';
import { Page, paginate, readPageRequest } from '../shared/pagination';
import { Validator } from '../shared/validation';
import { SentEmail } from './sent-email.entity';

/** Reads the sandbox outbox for staff (`sentEmails`). */
export class SentEmailService {
  async list(ctx: Ctx, query: { to?: string; page?: unknown; per_page?: unknown }): Promise<Page<SentEmail>> {
    requireStaff(ctx.actor);
    const v = new Validator(query);
    const to = v.string('to', { max: 254 });
    const page = readPageRequest(v);
    v.done();
    const where = to ? { to: to.toLowerCase() } : {};
    return paginate(ctx.em, SentEmail, where, page, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }
}
