import { DriverException, ForeignKeyConstraintViolationException } from '@mikro-orm/core';

/**
 * Whether a statement was refused because a row it deletes is still referenced. MikroORM maps NO ACTION's 23503 to
 * its `ForeignKeyConstraintViolationException`, but PostgreSQL 18 reports an `ON DELETE RESTRICT` key as 23001
 * (`restrict_violation`), which MikroORM leaves a bare `DriverException`: both mean the same to us.
 */
export function isReferenceViolation(error: unknown): boolean {
  return (
    error instanceof ForeignKeyConstraintViolationException ||
    (error instanceof DriverException && error.code === '23001')
  );
}
