import { z } from 'zod';
import { list, text } from '../shared/command-fields';
import { isId } from '../shared/ids';

export const MAX_REVISION_REASON = 2_000;
export const MAX_REFERENCE_FILES = 20;

/** A reference file by id; one that cannot exist reads the same as someone else's (D8). */
const referenceFileId = z
  .unknown()
  .meta({ type: 'string', format: 'uuid', maxLength: 36 })
  .refine(isId, 'The file id must be one of your uploaded files.')
  .transform((id) => String(id).toLowerCase());

/** `POST /orders/{id}/revisions` and `requestRevision` (D30): what to revise, and files that show it. */
export const requestRevisionCommand = z.object({
  reason: text({ required: true, max: MAX_REVISION_REASON }),
  fileIds: list(referenceFileId, { max: MAX_REFERENCE_FILES }),
});
export type RequestRevision = z.output<typeof requestRevisionCommand>;
