import { ValidationError } from '../../src/shared/errors';

/** The field errors a door answers when `read` reads its input; fails the test when the input reads clean. */
export function errorsOf(read: () => unknown): Record<string, string[]> {
  try {
    read();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('the input was read without an error');
}
