import type { AuditService } from '../audit/audit.service';
import { STAFF_TOKEN_PREFIX } from '../accounts/api-key-prefix';
import type { Ctx } from '../shared/context';
import { generateToken, hashToken } from '../shared/tokens';
import { failOnDuplicate } from '../shared/unique';
import { Validator } from '../shared/validation';
import { StaffRole, StaffUser } from './staff-user.entity';

export interface CreatedStaffUser {
  staffUser: StaffUser;
  /** Shown once, to whoever created the user; only its hash is kept. */
  token: string;
}

export class StaffService {
  constructor(private readonly deps: { audit: AuditService }) {}

  async create(ctx: Ctx, input: { email?: unknown; name?: unknown; role?: unknown }): Promise<CreatedStaffUser> {
    const v = new Validator(input);
    const email = v.email('email', { required: true });
    const name = v.string('name', { required: true, max: 255 });
    const role = v.oneOf('role', Object.values(StaffRole), { required: true });
    v.done();
    const token = generateToken(STAFF_TOKEN_PREFIX);
    const staffUser = await failOnDuplicate('email', () =>
      ctx.em.transactional(async (em) => {
        const user = Object.assign(new StaffUser(), { email: email!, name: name!, role: role!, tokenHash: hashToken(token) });
        em.persist(user);
        this.deps.audit.record(em, ctx.actor, {
          action: 'staff_user.create',
          resourceType: 'staff_user',
          resourceId: user.id,
          details: { role: user.role },
        });
        return user;
      }),
    );
    return { staffUser, token };
  }
}
