import type { AppEnv } from '../../config/app-config';
import { NotFoundError } from '../../shared/errors';
import { requireStaff } from '../accounts/authentication.service';
import type { Ctx } from '../shared/context';
import { Page, paginate, readPageRequest } from '../shared/pagination';
import { Validator } from '../shared/validation';
import { SentEmail } from './sent-email.entity';

/** Reads the sandbox outbox for staff (`sentEmails`). */
export class SentEmailService {
  constructor(private readonly deps: { env: AppEnv }) {}

  /** Newest first. Outside the sandbox mail leaves through SMTP and is not kept (D17): there is no outbox, 404. */
  async list(ctx: Ctx, query: { to?: string; page?: unknown; per_page?: unknown }): Promise<Page<SentEmail>> {
    requireStaff(ctx.actor);
    if (this.deps.env !== 'sandbox') throw new NotFoundError();
    const v = new Validator(query);
    const to = v.string('to', { max: 254 });
    const page = readPageRequest(v);
    v.done();
    const where = to ? { to: to.toLowerCase() } : {};
    return paginate(ctx.em, SentEmail, where, page, { orderBy: { createdAt: 'desc', id: 'desc' } });
  }
}
