import {
  InviteMemberDocument,
  RequestSignInCodeDocument,
  SentEmailsDocument,
  SignInDocument,
} from '../graphql/generated';
import type { TestApp } from './test-app';

let counter = 0;
export const uniqueEmail = (who: string) => `${who}-${Date.now().toString(36)}${(counter++).toString(36)}@example.test`;

/** The newest sign-in code e-mailed to the address, read from the sandbox outbox as a person would read their mail. */
export async function codeMailedTo(t: TestApp, staffToken: string, email: string): Promise<string | undefined> {
  const { data, errors } = await t.gql(SentEmailsDocument, { to: email, perPage: 100 }, staffToken);
  if (errors) throw new Error(JSON.stringify(errors));
  const mail = data!.sentEmails.items.find((item) => item.kind === 'sign_in_code');
  return mail?.text?.match(/\b(\d{6})\b/)?.[1];
}

/** Asks for a code and signs in with it: the session token. */
export async function signInAs(t: TestApp, staffToken: string, email: string): Promise<string> {
  const asked = await t.gql(RequestSignInCodeDocument, { email });
  if (asked.errors) throw new Error(JSON.stringify(asked.errors));
  const code = await codeMailedTo(t, staffToken, email);
  const signed = await t.gql(SignInDocument, { email, code: code! });
  if (signed.errors) throw new Error(JSON.stringify(signed.errors));
  return signed.data!.signIn.token;
}

/** An admin's session invites someone with the role, who then signs in: their member id and session. */
export async function memberSession(
  t: TestApp,
  staffToken: string,
  adminSession: string,
  role: 'ADMIN' | 'MEMBER' | 'VIEWER',
): Promise<{ id: string; email: string; session: string }> {
  const email = uniqueEmail(role.toLowerCase());
  const invited = await t.gql(InviteMemberDocument, { email, name: `Pat ${role.toLowerCase()}`, role }, adminSession);
  if (invited.errors) throw new Error(JSON.stringify(invited.errors));
  return { id: invited.data!.inviteMember.id, email, session: await signInAs(t, staffToken, email) };
}
