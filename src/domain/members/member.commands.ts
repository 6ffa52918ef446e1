import { z } from 'zod';
import { email, oneOf, text } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';
import { MemberRole } from '../identity/member.entity';

/** `members`: the account's live members, a page at a time (D3, D27). */
export const listMembersCommand = z.object(pageFields);
export type ListMembers = z.output<typeof listMembersCommand>;

/** `inviteMember` (D27). */
export const inviteMemberCommand = z.object({
  email: email({ required: true }),
  name: text({ required: true, max: 255 }),
  role: oneOf(Object.values(MemberRole), { required: true }),
});
export type InviteMember = z.output<typeof inviteMemberCommand>;

/** `updateMemberRole` (D27); the member is named by the path's id. */
export const updateMemberRoleCommand = z.object({ role: oneOf(Object.values(MemberRole), { required: true }) });
export type UpdateMemberRole = z.output<typeof updateMemberRoleCommand>;
