import type { z } from 'zod';
import { text } from '../shared/command-fields';
import { FIELD } from '../shared/field-readers';
import { findLanguage } from './catalog.service';

/** A language of the catalog, matched case-insensitively and kept in canonical form (D6). */
export const languageCode = () =>
  text({ max: 20, required: true }).transform((code, ctx) => {
    const language = findLanguage(code);
    if (!language) ctx.addIssue({ code: 'custom', message: `The selected ${FIELD} is invalid.`, input: code });
    return language?.code ?? code;
  });

/** `sourceLanguage` and `targetLanguage` of one command differ (D6); shared by quotes and bookings. */
export function differentLanguages<T extends { sourceLanguage: string; targetLanguage: string }>(
  command: T,
  ctx: z.RefinementCtx<T>,
): void {
  if (command.sourceLanguage === command.targetLanguage)
    ctx.addIssue({
      code: 'custom',
      path: ['targetLanguage'],
      message: 'The target language must be different from the source language.',
      input: command.targetLanguage,
    });
}
