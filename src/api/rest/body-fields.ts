import type { Request } from 'express';

/** A JSON body as the services take it: fields of unknown type, each validated there; `{}` when there is none. */
export const bodyFields = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
