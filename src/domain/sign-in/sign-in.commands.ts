import { z } from 'zod';
import { across, email, text } from '../shared/command-fields';

const SIX_DIGITS = /^\d{6}$/;

/** `requestSignInCode` (D27). */
export const requestSignInCodeCommand = z.object({ email: email({ required: true }) });
export type RequestSignInCode = z.output<typeof requestSignInCodeCommand>;

/** `signIn`: the e-mail and the 6-digit code sent to it (D27). */
export const signInCommand = z
  .object({
    email: email({ required: true }),
    code: text({ required: true, max: 6, pattern: SIX_DIGITS.source }),
  })
  .check(
    across(['code'], (command, ctx) => {
      if (!SIX_DIGITS.test(command.code))
        ctx.addIssue({ code: 'custom', path: ['code'], message: 'The code must be 6 digits.', input: command.code });
    }),
  );
export type SignIn = z.output<typeof signInCommand>;
