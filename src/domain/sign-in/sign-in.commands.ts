import { z } from 'zod';
import { across, email, text } from '../shared/command-fields';

const SIX_DIGITS = /^\d{6}$/;

/**
 * What may stand between a code's digits as a person copies or types it: spaces (a mail program may break or pad
 * it, people group it as "123 456") and dashes of any kind. They are no part of the code (D27).
 */
const SEPARATOR = '[\\s\\-\\u2010-\\u2015\\u2212]';
const SEPARATORS = new RegExp(SEPARATOR, 'gu');

/** `requestSignInCode` (D27). */
export const requestSignInCodeCommand = z.object({ email: email({ required: true }) });
export type RequestSignInCode = z.output<typeof requestSignInCodeCommand>;

/** `signIn`: the e-mail and the 6-digit code sent to it (D27), read without the spaces and dashes around its digits. */
export const signInCommand = z
  .object({
    email: email({ required: true }),
    code: text({ required: true, max: 20, pattern: `^${SEPARATOR}*(\\d${SEPARATOR}*){6}$` }).transform((code) =>
      code.replace(SEPARATORS, ''),
    ),
  })
  .check(
    across(['code'], (command, ctx) => {
      if (!SIX_DIGITS.test(command.code))
        ctx.addIssue({ code: 'custom', path: ['code'], message: 'The code must be 6 digits.', input: command.code });
    }),
  );
export type SignIn = z.output<typeof signInCommand>;
