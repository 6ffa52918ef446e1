import { z } from 'zod';
import { email, oneOf, text } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';
import { StaffRole } from '../identity/staff-user.entity';

const name = () => text({ required: true, max: 255 });
/** As certificates print them (D20). */
const credentials = () => text({ max: 255 });

/** `createStaffUser` and the command line's `staff:create` (D13). */
export const createStaffUserCommand = z.object({
  email: email({ required: true }),
  name: name(),
  role: oneOf(Object.values(StaffRole), { required: true }),
  credentials: credentials(),
});
export type CreateStaffUser = z.output<typeof createStaffUserCommand>;

/** `staffUsers`: of one role when asked (D3). */
export const listStaffUsersCommand = z.object({ role: oneOf(Object.values(StaffRole)), ...pageFields });
export type ListStaffUsers = z.output<typeof listStaffUsersCommand>;

/** `updateStaffProfile`; the user is named by the path's id, and a role left out stays (D20). */
export const updateStaffProfileCommand = z.object({
  name: name(),
  credentials: credentials(),
  role: oneOf(Object.values(StaffRole)),
});
export type UpdateStaffProfile = z.output<typeof updateStaffProfileCommand>;

/** The command line's `staff:rotate` (D13). */
export const rotateStaffTokenCommand = z.object({ email: email({ required: true }) });
export type RotateStaffToken = z.output<typeof rotateStaffTokenCommand>;
