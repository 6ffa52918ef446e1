import { z } from 'zod';
import { InterpretationMode } from '../catalog/catalog.enums';
import { languageCode } from '../catalog/language-pair';
import { across, email, id, list, oneOf, text, zonedDateTime } from '../shared/command-fields';
import { pageFields } from '../shared/pagination';
import { durationHundredths } from './booking.commands';
import { InterpreterQualification } from './interpreter.entity';

const MODES = Object.values(InterpretationMode);
const QUALIFICATIONS = Object.values(InterpreterQualification);

/** What an interpreter record holds (D32); `required` for a new one, all optional for a change (left out, it stays). */
const interpreterFields = <R extends boolean>(required: R) => ({
  name: text({ required, max: 255 }),
  email: email({ required }),
  // A list left out stays out (the reader refuses one that is required).
  languages: list(languageCode(), { required, min: 1, max: 30, distinct: true }),
  modes: list(oneOf(MODES, { required: true }), { required, min: 1, max: MODES.length, distinct: true }),
  qualifications: list(oneOf(QUALIFICATIONS, { required: true }), { max: QUALIFICATIONS.length, distinct: true }),
  // null clears them on an update.
  credentials: z.null().or(text({ max: 2000 })),
  active: z.boolean().optional(),
});

/** Staff's `createInterpreter` (D32). */
export const createInterpreterCommand = z.object(interpreterFields(true));
export type CreateInterpreter = z.output<typeof createInterpreterCommand>;

/** Staff's `updateInterpreter` (D32): what is given changes; `credentials` null clears them. */
export const updateInterpreterCommand = z.object(interpreterFields(false));
export type UpdateInterpreter = z.output<typeof updateInterpreterCommand>;

/**
 * Staff's `interpreters` (D32): active interpreters who qualify by language, mode and qualification, and, with
 * `availableAt` and `durationHours`, who are free then; or who may be confirmed for `bookingId`; inactive ones too
 * with `includeInactive`.
 */
export const listInterpretersCommand = z
  .object({
    language: languageCode().optional(),
    mode: oneOf(MODES),
    qualification: oneOf(QUALIFICATIONS),
    availableAt: zonedDateTime(),
    durationHours: durationHundredths(),
    bookingId: id(),
    includeInactive: z.boolean().optional(),
    ...pageFields,
  })
  .check(
    across(['availableAt', 'durationHours'], (command, ctx) => {
      if ((command.availableAt === undefined) !== (command.durationHours === undefined))
        ctx.addIssue({
          code: 'custom',
          path: [command.availableAt ? 'durationHours' : 'availableAt'],
          message: 'The available at and duration hours fields are given together.',
          input: command,
        });
    }),
  );
export type ListInterpreters = z.output<typeof listInterpretersCommand>;
