import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ValidationError } from '../../shared/errors';

/** Lets the unique index decide (no racy look-up first) and reports a clash as a 422 on the field. */
export async function failOnDuplicate<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw ValidationError.of(field, `The ${field.replace(/_/g, ' ')} has already been taken.`);
    }
    throw error;
  }
}
