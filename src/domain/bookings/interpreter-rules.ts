import { InterpretationMode } from '../catalog/catalog.enums';
import { languageName } from '../catalog/language-names';
import { ValidationError } from '../../shared/errors';
import { BookingSetting, type Booking } from './booking.entity';
import { InterpreterQualification, type Interpreter } from './interpreter.entity';

/** The settings that need a court-certified interpreter (D32). */
const COURT_SETTINGS: readonly BookingSetting[] = [BookingSetting.COURT, BookingSetting.DEPOSITION];

/** The field every refusal of an interpreter is keyed by; each message opens with the rule it names. */
export const INTERPRETER_FIELD = 'interpreter_id';

const refuse = (rule: string, message: string) => ValidationError.of(INTERPRETER_FIELD, `${rule}: ${message}`);

/**
 * What an interpreter needs for `booking` (D32): the languages to speak (only the one that is not the operator's base
 * language, when the other is), and the qualification its setting (court, deposition) or mode (ASL) asks for.
 */
export function requirementsOf(
  booking: Pick<Booking, 'sourceLanguage' | 'targetLanguage' | 'mode' | 'setting'>,
  baseLanguage: string,
): { languages: string[]; qualifications: InterpreterQualification[] } {
  const needed = [booking.sourceLanguage, booking.targetLanguage];
  return {
    languages: needed.includes(baseLanguage) ? needed.filter((code) => code !== baseLanguage) : needed,
    qualifications: [
      ...(COURT_SETTINGS.includes(booking.setting) ? [InterpreterQualification.COURT_CERTIFIED] : []),
      ...(booking.mode === InterpretationMode.ASL ? [InterpreterQualification.ASL_CERTIFIED] : []),
    ],
  };
}

/**
 * D32: whether `interpreter` may be confirmed for `booking`, as far as the records say (the overlap with other bookings
 * is checked under the interpreter's lock): active, speaks the booking's languages (only the one that is not the
 * operator's base language, when the other is), works in its mode, and holds the qualification its setting or mode
 * needs. Throws a 422 under `interpreter_id` naming the first rule broken.
 */
export function assertQualifies(
  booking: Pick<Booking, 'sourceLanguage' | 'targetLanguage' | 'mode' | 'setting'>,
  interpreter: Interpreter,
  baseLanguage: string,
): void {
  if (!interpreter.active) throw refuse('Active', 'the interpreter is inactive and cannot be confirmed for bookings.');
  const missing = requirementsOf(booking, baseLanguage).languages.filter(
    (code) => !interpreter.languages.includes(code),
  );
  if (missing.length)
    throw refuse('Languages', `the interpreter does not speak ${missing.map(languageName).join(' or ')}.`);
  if (!interpreter.modes.includes(booking.mode))
    throw refuse('Mode', `the interpreter does not work in the booking's mode (${booking.mode}).`);
  if (
    COURT_SETTINGS.includes(booking.setting) &&
    !interpreter.qualifications.includes(InterpreterQualification.COURT_CERTIFIED)
  )
    throw refuse('Qualification', `a ${booking.setting} needs a COURT_CERTIFIED interpreter.`);
  if (
    booking.mode === InterpretationMode.ASL &&
    !interpreter.qualifications.includes(InterpreterQualification.ASL_CERTIFIED)
  )
    throw refuse('Qualification', 'ASL interpretation needs an ASL_CERTIFIED interpreter.');
}

/** The overlap rule's refusal (D32), for a check made under the interpreter's lock. */
export const busyRefusal = (bufferMinutes: number) =>
  refuse(
    'Overlap',
    `the interpreter has another confirmed or awaiting-payment booking within ${bufferMinutes} minutes of this one.`,
  );

/** An interpreter id that names no record. */
export const unknownInterpreter = () => ValidationError.of(INTERPRETER_FIELD, 'No interpreter has this id.');
