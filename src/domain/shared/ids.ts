import { randomUUID } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const newId = (): string => randomUUID();

/** Ids are checked before they reach SQL: a malformed id is simply "not found" (D2), never a database error. */
export const isId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
